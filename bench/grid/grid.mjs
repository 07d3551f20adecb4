// grid.mjs: measures the app's grid with GridBench (10,000 rows x 1,536 dims) in headless
// Chromium, against the real UI served by `wails dev`. Run by bench/grid (main.go), which
// starts everything and passes:
//   GRIDBENCH_URL         the wails dev server, e.g. http://127.0.0.1:34115
//   GRIDBENCH_CONNECTION  the saved connection whose node holds GridBench
//   GRIDBENCH_ROOT        the repository root (playwright-core is resolved from tests/e2e)
//   GRIDBENCH_ARTIFACTS   where screenshots go
//   CHROMIUM              the browser (default /usr/bin/chromium)
//   GRIDBENCH_PROFILE     "1": record a CPU profile of each scroll (gridbench-scroll-NAME.cpuprofile in
//                         the artifacts, the top functions by self time on stderr)
// It prints one JSON line with the measurements (or {"error": ...}); progress goes to stderr.
// All times are taken inside the page (performance.now, event timestamps, requestAnimationFrame
// timestamps), not from Node.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const root = need("GRIDBENCH_ROOT");
const url = need("GRIDBENCH_URL");
const connection = need("GRIDBENCH_CONNECTION");
const artifacts = need("GRIDBENCH_ARTIFACTS");
// playwright-core lives in tests/e2e/node_modules; chromium.mjs there resolves it.
const { launchChromium } = await import(pathToFileURL(join(root, "tests", "e2e", "chromium.mjs")).href);

const TABLE = "GridBench";
const ROWS = 10000;
// Two scroll speeds, each from the top to the bottom of the 10,000 rows: a fast mouse-wheel
// scroll (120 px a frame, 7,200 px/s, ~270 rows a second), which the 60 fps target is about,
// and a fling (600 px a frame, 36,000 px/s), reported to show where the frames go when most
// of the rows on screen are new in every frame.
const WHEEL_PX = 120;
const FLING_PX = 600;

function need(name) {
  const v = process.env[name];
  if (!v) {
    console.log(JSON.stringify({ error: `grid.mjs: ${name} is not set` }));
    process.exit(2);
  }
  return v;
}

const log = (s) => process.stderr.write(s + "\n");

const browser = await launchChromium();

let exitCode = 0;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: "light" });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.enable");
  await cdp.send("Performance.enable");

  /** heap collects garbage (twice: the second pass frees what finalizers of the first left) and reads the heap. */
  async function heap() {
    await cdp.send("HeapProfiler.collectGarbage");
    await cdp.send("HeapProfiler.collectGarbage");
    const { usedSize } = await cdp.send("Runtime.getHeapUsage");
    const { metrics } = await cdp.send("Performance.getMetrics");
    return { usedSize, jsHeapUsedSize: metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0 };
  }

  await page.goto(url, { waitUntil: "load", timeout: 60_000 });
  const list = page.getByRole("tree", { name: "Saved connections" });
  await list.waitFor({ timeout: 30_000 });
  const conn = list.getByRole("treeitem", { name: connection, exact: true });
  await conn.waitFor({ timeout: 30_000 });

  // Open the connection (this installs the driver plugin from the loopback registry).
  await list.focus();
  await page.keyboard.press("Home");
  await page.keyboard.press("Enter");
  const tableItem = conn.getByRole("group").getByRole("treeitem", { name: TABLE, exact: true });
  await tableItem.waitFor({ timeout: 90_000 });
  log("connection open, GridBench listed");
  await page.waitForTimeout(500);
  const baseline = await heap();

  // Marks taken inside the page: the click and change events' own timestamps, and a
  // MutationObserver for the first row and the range text.
  await page.evaluate(
    ({ table, rows }) => {
      const marks = (window.__gridbench = {});
      document.addEventListener(
        "click",
        (e) => {
          if (!marks.click && e.target.closest?.(`[role="treeitem"][aria-label="${table}"]`)) marks.click = e.timeStamp;
        },
        true,
      );
      document.addEventListener(
        "change",
        (e) => {
          if (!marks.change && e.target.matches?.("label.grid-bar__size select")) marks.change = e.timeStamp;
        },
        true,
      );
      const check = () => {
        const now = performance.now();
        const panel = document.querySelector(`section.panel--table[aria-label="${table}"]`);
        if (!panel) return;
        if (marks.click && !marks.firstRow && panel.querySelector("tr.data-grid__row")) marks.firstRow = now;
        if (!marks.change) return;
        const text = panel.querySelector(".grid-bar__range")?.textContent ?? "";
        const m = /^Rows 1–([\d,]+)/.exec(text);
        const end = m ? Number(m[1].replace(/,/g, "")) : 0;
        if (!marks.first200 && end >= 200) marks.first200 = now;
        if (!marks.all && end >= rows && !text.includes("loading")) marks.all = now;
      };
      new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
    },
    { table: TABLE, rows: ROWS },
  );

  const panel = page.locator(`section.panel--table[aria-label="${TABLE}"]`);
  await tableItem.click();
  await panel.locator("tr.data-grid__row").first().waitFor({ timeout: 60_000 });
  await panel.locator(".grid-bar__range").filter({ hasText: /^Rows 1–100(\D|$)/ }).waitFor({ timeout: 60_000 });
  log("first page shown");
  await page.screenshot({ path: join(artifacts, "gridbench-first-page.png") });

  await panel.locator("label.grid-bar__size select").selectOption(String(ROWS));
  await page.waitForFunction(() => window.__gridbench.all, null, { timeout: 150_000, polling: 250 });
  const marks = await page.evaluate(() => window.__gridbench);
  for (const k of ["click", "firstRow", "change", "first200", "all"]) {
    if (!(marks[k] > 0)) throw new Error(`no ${k} mark in the page: ${JSON.stringify(marks)}`);
  }
  log("all 10,000 rows loaded");

  // Let the last block settle (React commits, GC of the blocks' transfer strings).
  await page.waitForTimeout(1000);

  const regionSel = `section.panel--table[aria-label="${TABLE}"] [role="region"][aria-label="Grid of ${TABLE}"]`;
  // The display's own frame period, measured at the top while nothing happens.
  const vsyncMs = await page.evaluate(async (sel) => {
    const region = document.querySelector(sel);
    if (!region) throw new Error(`no scroll region ${sel}`);
    region.scrollTop = 0;
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    await frame();
    await frame();
    const idle = [];
    let prev = await frame();
    for (let i = 0; i < 30; i++) {
      const t = await frame();
      idle.push(t - prev);
      prev = t;
    }
    idle.sort((a, b) => a - b);
    return idle[idle.length >> 1];
  }, regionSel);

  const metric = async () => Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  const profile = process.env.GRIDBENCH_PROFILE === "1";

  /** measureScroll scrolls the region from the top to the bottom, step px a frame. */
  async function measureScroll(step, name) {
    await page.evaluate((sel) => {
      document.querySelector(sel).scrollTop = 0;
    }, regionSel);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    if (profile) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    const before = await metric();
    const scroll = await page.evaluate(
      async ({ sel, step }) => {
        const region = document.querySelector(sel);
        const rowPx = region.querySelector("tr.data-grid__row")?.getBoundingClientRect().height ?? 0;
        const stamps = [];
        await new Promise((resolve) => {
          const tick = (ts) => {
            stamps.push(ts);
            if (region.scrollTop + region.clientHeight >= region.scrollHeight - 1) return resolve();
            region.scrollTop += step;
            requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        });
        const frames = [];
        for (let i = 1; i < stamps.length; i++) frames.push(stamps[i] - stamps[i - 1]);
        return {
          frames,
          scrollMs: stamps[stamps.length - 1] - stamps[0],
          scrollPx: region.scrollTop,
          rowPx,
          rowsInDom: region.querySelectorAll("tr.data-grid__row").length,
        };
      },
      { sel: regionSel, step },
    );
    const after = await metric();
    if (profile) {
      const { profile: prof } = await cdp.send("Profiler.stop");
      writeFileSync(join(artifacts, `gridbench-scroll-${name}.cpuprofile`), JSON.stringify(prof));
      const total = (prof.endTime - prof.startTime) / 1000;
      const perSample = total / Math.max(1, prof.samples.length);
      const self = new Map();
      for (const n of prof.nodes) {
        const f = n.callFrame;
        const key = `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\//, "")}:${f.lineNumber + 1}`;
        self.set(key, (self.get(key) ?? 0) + (n.hitCount ?? 0) * perSample);
      }
      log(`CPU profile of the ${name} scroll (${total.toFixed(0)} ms), top functions by self time:`);
      for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) log(`  ${v.toFixed(0).padStart(6)} ms  ${k}`);
    }
    // Where the main thread spent the scroll, per frame (CDP's cumulative durations, seconds).
    const perFrame = (m) => ((after[m] - before[m]) * 1000) / Math.max(1, scroll.frames.length);
    log(`${name}: scrolled ${Math.round(scroll.scrollPx)} px in ${scroll.frames.length} frames`);
    if (scroll.rowsInDom === 0) throw new Error(`${name}: no rows in the DOM at the bottom of the grid`);
    if (scroll.rowPx > 0 && scroll.scrollPx < (ROWS - 100) * scroll.rowPx * 0.9) {
      throw new Error(`${name}: the region scrolled only ${scroll.scrollPx} px for ${ROWS} rows of ${scroll.rowPx} px`);
    }
    return {
      ...scroll,
      stepPx: step,
      scriptMs: perFrame("ScriptDuration"),
      layoutMs: perFrame("LayoutDuration"),
      styleMs: perFrame("RecalcStyleDuration"),
      taskMs: perFrame("TaskDuration"),
    };
  }
  const wheel = await measureScroll(WHEEL_PX, "wheel");
  const fling = await measureScroll(FLING_PX, "fling");
  await page.screenshot({ path: join(artifacts, "gridbench-bottom.png") });

  const heapAfter = await heap();
  console.log(
    JSON.stringify({
      vsyncMs,
      openToFirstRowMs: marks.firstRow - marks.click,
      allToFirst200Ms: marks.first200 - marks.change,
      allToAllRowsMs: marks.all - marks.change,
      wheel,
      fling,
      heapUsed: heapAfter.usedSize,
      jsHeapUsedSize: heapAfter.jsHeapUsedSize,
      heapBaseline: baseline.usedSize,
    }),
  );
} catch (e) {
  console.log(JSON.stringify({ error: String(e?.stack ?? e) }));
  exitCode = 1;
} finally {
  await browser.close();
}
process.exit(exitCode);
