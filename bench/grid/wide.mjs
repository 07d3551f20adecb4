// wide.mjs: issue 42's wide table (target 5) in headless Chromium: WideBench (10,000 rows x 50
// columns of mixed kinds) opened in the app's grid with "All" rows, then scrolled one step per
// animation frame, top to bottom and across all the columns and back (wide-page.mjs does the
// page's side). Run by bench/grid (main.go) with the environment grid.mjs gets, plus
//   GRIDBENCH_WIDE_TABLE  the collection (WideBench)
//   GRIDBENCH_WIDE_ROWS   its row count
//   GRIDBENCH_WIDE_V_PX   px a frame down, GRIDBENCH_WIDE_H_PX px a frame across
// It prints one JSON line (or {"error": ...}); progress goes to stderr.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { openWide, scrollWide } from "./wide-page.mjs";

const env = (name) => {
  const v = process.env[name];
  if (!v) {
    console.log(JSON.stringify({ error: `wide.mjs: ${name} is not set` }));
    process.exit(2);
  }
  return v;
};
const root = env("GRIDBENCH_ROOT");
const url = env("GRIDBENCH_URL");
const connection = env("GRIDBENCH_CONNECTION");
const artifacts = env("GRIDBENCH_ARTIFACTS");
const table = env("GRIDBENCH_WIDE_TABLE");
const rows = Number(env("GRIDBENCH_WIDE_ROWS"));
const vPx = Number(env("GRIDBENCH_WIDE_V_PX"));
const hPx = Number(env("GRIDBENCH_WIDE_H_PX"));
const profile = process.env.GRIDBENCH_PROFILE === "1";
const log = (s) => process.stderr.write(s + "\n");
const { launchChromium } = await import(pathToFileURL(join(root, "tests", "e2e", "chromium.mjs")).href);

const browser = await launchChromium();
let exitCode = 0;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: "light" });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const metric = async () => Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  await page.goto(url, { waitUntil: "load", timeout: 60_000 });
  const opened = await page.evaluate(openWide, { connection, table, rows });
  log(`${table} open: ${opened.columns} columns, all ${rows} rows loaded in ${Math.round(opened.allRowsMs)} ms`);
  await page.waitForTimeout(1000);
  await page.screenshot({ path: join(artifacts, "widebench-top.png") });

  const measure = async (direction, step) => {
    if (profile) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    const before = await metric();
    const r = await page.evaluate(scrollWide, { table, direction, step });
    const after = await metric();
    if (profile) {
      const { profile: prof } = await cdp.send("Profiler.stop");
      writeFileSync(join(artifacts, `widebench-${direction}.cpuprofile`), JSON.stringify(prof));
      const total = (prof.endTime - prof.startTime) / 1000;
      const perSample = total / Math.max(1, prof.samples.length);
      const self = new Map();
      for (const n of prof.nodes) {
        const f = n.callFrame;
        const key = `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\//, "")}:${f.lineNumber + 1}`;
        self.set(key, (self.get(key) ?? 0) + (n.hitCount ?? 0) * perSample);
      }
      log(`CPU profile of the ${direction} scroll (${total.toFixed(0)} ms), top functions by self time:`);
      for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) log(`  ${v.toFixed(0).padStart(6)} ms  ${k}`);
    }
    const perFrame = (m) => ((after[m] - before[m]) * 1000) / Math.max(1, r.frames.length);
    log(`${direction}: ${Math.round(r.scrollPx)} px in ${r.frames.length} frames, ${r.longTasks?.length ?? "?"} long tasks`);
    await page.screenshot({ path: join(artifacts, `widebench-${direction}-end.png`) });
    return { ...r, stepPx: step, scriptMs: perFrame("ScriptDuration"), layoutMs: perFrame("LayoutDuration"), styleMs: perFrame("RecalcStyleDuration"), taskMs: perFrame("TaskDuration") };
  };
  const vertical = await measure("vertical", vPx);
  const horizontal = await measure("horizontal", hPx);
  console.log(JSON.stringify({ engine: "chromium", ...opened, vertical, horizontal }));
} catch (e) {
  console.log(JSON.stringify({ error: String(e?.stack ?? e) }));
  exitCode = 1;
} finally {
  await browser.close();
}
process.exit(exitCode);
