// map.mjs: measures the Map tab (issue 22) with MapBench (100,000 rows x 768 dims in 16
// clusters) in headless Chromium with software WebGL (SwiftShader), against the real UI served
// by `wails dev`. Run by bench/grid (main.go) after grid.mjs, with the same environment
// (GRIDBENCH_URL, GRIDBENCH_CONNECTION, GRIDBENCH_ROOT, GRIDBENCH_ARTIFACTS, CHROMIUM).
//
// It clicks Map on MapBench's tab and takes, inside the page: when the vectors arrived (the
// status leaves "Reading vectors…"), when the first layout (PCA) was on the screen (the map
// box's data-frames, counted after each draw), and when the layout was done (UMAP). Then it
// pans the map with the mouse, one move per animation frame (synthetic mouse events aimed, as
// real ones are, at the element under the pointer, the canvas, and bubbling to the window),
// and takes the frame intervals from requestAnimationFrame. Then it zooms (one wheel step a
// frame, in and most of the way back out: the drawn picture scales, as a drag moves it) and
// takes those intervals too, and the time from the last step to the points drawn again. Last it chooses the Sample "up to 10,000 rows" and times the
// layout of that sample from Map's answer to the finished UMAP.
// It prints one JSON line with the measurements (or {"error": ...}); progress goes to stderr.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const root = need("GRIDBENCH_ROOT");
const url = need("GRIDBENCH_URL");
const connection = need("GRIDBENCH_CONNECTION");
const artifacts = need("GRIDBENCH_ARTIFACTS");
const { launchChromium } = await import(pathToFileURL(join(root, "tests", "e2e", "chromium.mjs")).href);

// MapBench, or the table MAPBENCH_TABLE names (MapMillion, issue 42's million points); with
// MAPBENCH_SAMPLE=0 the sample of 10,000 is not timed.
const TABLE = process.env.MAPBENCH_TABLE || "MapBench";
const SAMPLE = process.env.MAPBENCH_SAMPLE !== "0";
// The pan: PAN_FRAMES moves of PAN_PX, turning back every PAN_TURN frames, so the points stay
// on the screen (a map panned off its points draws nothing and would measure nothing); six
// turns cancel out and the last 25 moves leave the map 150 px right of where it was.
const PAN_FRAMES = 325;
const PAN_PX = 6;
const PAN_TURN = 50;

function need(name) {
  const v = process.env[name];
  if (!v) {
    console.log(JSON.stringify({ error: `map.mjs: ${name} is not set` }));
    process.exit(2);
  }
  return v;
}

const log = (s) => process.stderr.write(s + "\n");

// logTopSelf logs a CDP CPU profile's top functions by self time, in ms.
function logTopSelf(prof, title, top) {
  const perSample = (prof.endTime - prof.startTime) / 1000 / Math.max(1, prof.samples.length);
  const self = new Map();
  for (const n of prof.nodes) {
    const f = n.callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\//, "")}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (n.hitCount ?? 0) * perSample);
  }
  log(`${title}, top functions by self time:`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) log(`  ${v.toFixed(0).padStart(6)} ms  ${k}`);
}

const browser = await launchChromium();
let exitCode = 0;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: "light" });
  await page.goto(url, { waitUntil: "load", timeout: 60_000 });
  const list = page.getByRole("tree", { name: "Saved connections" });
  await list.waitFor({ timeout: 30_000 });
  const conn = list.getByRole("treeitem", { name: connection, exact: true });
  await conn.waitFor({ timeout: 30_000 });
  await list.focus();
  await page.keyboard.press("Home");
  await page.keyboard.press("Enter");
  const tableItem = conn.getByRole("group").getByRole("treeitem", { name: new RegExp(`^${TABLE}`) });
  await tableItem.waitFor({ timeout: 90_000 });
  await tableItem.click();
  const tablePanel = page.locator(`section.panel--table[aria-label="${TABLE}"]`);
  await tablePanel.locator("tr.data-grid__row").first().waitFor({ timeout: 60_000 });
  log(`${TABLE}'s grid open`);

  await page.evaluate((table) => {
    const marks = (window.__mapbench = {});
    document.addEventListener(
      "click",
      (e) => {
        if (!marks.click && e.target.closest?.(`section.panel--table[aria-label="${table}"] button`)?.textContent?.trim() === "Map") marks.click = e.timeStamp;
      },
      true,
    );
    const check = () => {
      const now = performance.now();
      const panel = document.querySelector(`section.panel--map[aria-label="Map of ${table}"]`);
      if (!panel || !marks.click) return;
      const status = panel.querySelector(".grid-bar__range")?.textContent ?? "";
      const reading = /^Reading vectors… ([\d,]+)(?: of [\d,]+)? rows/.exec(status);
      if (reading) {
        const rows = Number(reading[1].replace(/,/g, ""));
        if (rows !== marks.rowsRead) [marks.rowsRead, marks.lastProgress] = [rows, now];
      }
      // the status leaves "Reading MapBench…" (describing) and "Reading vectors…": the points came
      else if (status && !status.startsWith("Reading") && !marks.vectors) marks.vectors = now;
      const frames = Number(panel.querySelector(".map-canvas")?.dataset.frames ?? 0);
      if (frames >= 1 && !marks.firstFrame) marks.firstFrame = now;
      if (status.startsWith("Layout done") && !marks.done) marks.done = now;
      if (marks.done && frames > (marks.framesAtDone ?? -1) && now >= marks.done) {
        marks.framesAtDone = frames;
        marks.lastFrame = now;
      }
      const err = panel.querySelector('[role="alert"]')?.textContent;
      if (err) marks.error = err;
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["data-frames"] });
  }, TABLE);

  // MAPBENCH_PROFILE_OPEN=<table>: a CPU profile of the page from the click on Map to the
  // first points drawn, its top functions by self time printed (where the first picture's
  // time goes; profiling slows it).
  const openProfile = process.env.MAPBENCH_PROFILE_OPEN === TABLE ? await page.context().newCDPSession(page) : null;
  if (openProfile) {
    await openProfile.send("Profiler.enable");
    await openProfile.send("Profiler.setSamplingInterval", { interval: 1000 });
    await openProfile.send("Profiler.start");
  }
  await tablePanel.getByRole("button", { name: "Map", exact: true }).click();
  const panel = page.locator(`section.panel--map[aria-label="Map of ${TABLE}"]`);
  await panel.waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => window.__mapbench.firstFrame || window.__mapbench.error, null, { timeout: 300_000, polling: 200 });
  log("the first layout (PCA) is on the screen");
  if (openProfile) {
    const { profile: prof } = await openProfile.send("Profiler.stop");
    writeFileSync(join(artifacts, `mapbench-open-${TABLE}.cpuprofile`), JSON.stringify(prof));
    logTopSelf(prof, `CPU profile of the page from Map to the first points drawn (${((prof.endTime - prof.startTime) / 1000).toFixed(0)} ms)`, 25);
    const marks = await page.evaluate(() => window.__mapbench);
    log(`marks: ${JSON.stringify(marks)}`);
  }
  await page.waitForFunction(() => (window.__mapbench.done && window.__mapbench.lastFrame) || window.__mapbench.error, null, { timeout: 600_000, polling: 500 });
  const marks = await page.evaluate(() => window.__mapbench);
  if (marks.error) throw new Error(`the map says: ${marks.error}`);
  for (const k of ["click", "vectors", "firstFrame", "done"]) {
    if (!(marks[k] > 0)) throw new Error(`no ${k} mark in the page: ${JSON.stringify(marks)}`);
  }
  const status = await panel.locator(".grid-bar__range").innerText();
  const note = (await panel.locator(".panel__note").allInnerTexts()).join(" ");
  log(`layout done: ${status} ${note}`);
  // The last UMAP frame drawn, then two quiet frames.
  await page.waitForFunction(() => Number(document.querySelector(".map-canvas")?.dataset.frames ?? 0) >= window.__mapbench.framesAtDone, null, { timeout: 30_000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const canvas = panel.locator(".map-canvas canvas");
  const before = await canvas.screenshot();
  await page.screenshot({ path: join(artifacts, "mapbench-layout.png") });

  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const metric = async () => Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  const profile = process.env.GRIDBENCH_PROFILE === "1";
  if (profile) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
  }
  // __everyFrame runs step(i) once an animation frame, frames times, and returns the frames'
  // intervals (what the pan and the zoom are measured by).
  await page.evaluate(() => {
    window.__everyFrame = (frames, step) =>
      new Promise((resolve) => {
        const stamps = [];
        let i = 0;
        const tick = (ts) => {
          stamps.push(ts);
          if (i === frames) {
            const intervals = stamps.slice(1).map((t, k) => t - stamps[k]);
            return resolve({ intervals, spanMs: stamps[stamps.length - 1] - stamps[0] });
          }
          step(i++);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
  });
  log("panning");
  const m0 = await metric();
  const pan = await page.evaluate(
    async ({ frames, px, turn }) => {
      const canvas = document.querySelector(".panel--map .map-canvas canvas");
      const r = canvas.getBoundingClientRect();
      let x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      const frame = () => new Promise((res) => requestAnimationFrame(res));
      // the display's own period, measured while nothing moves
      await frame();
      const idle = [];
      let prev = await frame();
      for (let i = 0; i < 30; i++) {
        const t = await frame();
        idle.push(t - prev);
        prev = t;
      }
      idle.sort((a, b) => a - b);
      const ev = (type, buttons) => new MouseEvent(type, { clientX: x, clientY: y, button: 0, buttons, bubbles: true, cancelable: true, view: window });
      canvas.dispatchEvent(ev("mousedown", 1));
      const { intervals, spanMs } = await window.__everyFrame(frames, (i) => {
        x += Math.floor(i / turn) % 2 === 0 ? px : -px;
        canvas.dispatchEvent(ev("mousemove", 1));
      });
      canvas.dispatchEvent(ev("mouseup", 0));
      return { frames: intervals, panMs: spanMs, vsyncMs: idle[idle.length >> 1] };
    },
    { frames: PAN_FRAMES, px: PAN_PX, turn: PAN_TURN },
  );
  const m1 = await metric();
  log("panned");
  // Where the page's main thread spent the pan, per frame (CDP's cumulative seconds).
  const perFrame = (m) => ((m1[m] - m0[m]) * 1000) / Math.max(1, pan.frames.length);
  Object.assign(pan, { taskMs: perFrame("TaskDuration"), scriptMs: perFrame("ScriptDuration"), layoutMs: perFrame("LayoutDuration"), styleMs: perFrame("RecalcStyleDuration") });
  if (profile) {
    const { profile: prof } = await cdp.send("Profiler.stop");
    writeFileSync(join(artifacts, "mapbench-pan.cpuprofile"), JSON.stringify(prof));
    logTopSelf(prof, "CPU profile of the pan", 15);
  }
  // the points have moved 150 px, so the drag was a pan and not a no-op
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const after = await canvas.screenshot();
  if (before.equals(after)) throw new Error("the map looks the same after the drag: it did not pan");
  await page.screenshot({ path: join(artifacts, "mapbench-panned.png") });
  const points = Number(((await canvas.getAttribute("aria-label")).match(/: (\d+) points/)?.[1] ?? "0"));

  log("zooming");
  const zoom = await page.evaluate(async ({ frames }) => {
    const canvas = document.querySelector(".panel--map .map-canvas canvas");
    const r = canvas.getBoundingClientRect();
    const at = { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 };
    let last = 0;
    const { intervals } = await window.__everyFrame(frames, (i) => {
      canvas.dispatchEvent(new WheelEvent("wheel", { ...at, deltaY: i < frames * 0.6 ? -40 : 40, bubbles: true, cancelable: true, view: window }));
      last = performance.now();
    });
    // The wheel moves the drawn picture (a CSS transform); once it rests the points are drawn
    // again at the view it reached and the transform goes: the time from the last step to then.
    while (canvas.style.transform !== "" && performance.now() - last < 10_000) await new Promise((r) => requestAnimationFrame(r));
    await new Promise((r) => requestAnimationFrame(r));
    return { frames: intervals, drawnMs: performance.now() - last };
  }, { frames: 60 });
  log("zoomed");
  const heapMB = (await metric()).JSHeapUsedSize / (1 << 20);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const zoomedIn = await canvas.screenshot();
  if (zoomedIn.equals(after)) throw new Error("the map looks the same after the wheel: it did not zoom");

  // the sample of 10,000: Map's answer (the vectors read) to the finished layout
  let sampleRead = 0, sampleDone = 0;
  if (SAMPLE) {
    log("laying out a sample of 10,000");
    const t0 = Date.now();
    await panel.getByRole("combobox", { name: "Sample" }).selectOption("10000");
    // The sample's points have arrived when the subtitle counts 10,000 of them (the 100,000's
    // map said 100,000), and its layout is done when the status says so beside that subtitle.
    const sampleSays = (done) =>
      page.waitForFunction(
        ([table, done]) => {
          const panel = document.querySelector(`section.panel--map[aria-label="Map of ${table}"]`);
          const sub = panel?.querySelector(".panel__subtitle")?.textContent ?? "";
          const status = panel?.querySelector(".grid-bar__range")?.textContent ?? "";
          return /10,000 points, a uniform sample/.test(sub) && (!done || status.startsWith("Layout done"));
        },
        [TABLE, done],
        { timeout: 300_000, polling: 50 },
      );
    await sampleSays(false);
    sampleRead = Date.now() - t0;
    await sampleSays(true);
    sampleDone = Date.now() - t0;
    const sampled = await panel.locator(".panel__subtitle").innerText();
    log(`sample of 10,000 laid out: ${sampled}`);
  }
  console.log(
    JSON.stringify({
      rowsRead: marks.rowsRead ?? 0,
      readMs: marks.vectors - marks.click,
      walkMs: (marks.lastProgress ?? marks.vectors) - marks.click,
      firstFrameMs: marks.firstFrame - marks.vectors,
      doneMs: marks.done - marks.vectors,
      points,
      status: `${status} ${note}`.trim(),
      pan,
      zoom,
      heapMB,
      sample: { readMs: sampleRead, doneMs: sampleDone - sampleRead },
    }),
  );
} catch (e) {
  console.log(JSON.stringify({ error: String(e?.stack ?? e) }));
  exitCode = 1;
} finally {
  await browser.close();
}
process.exit(exitCode);
