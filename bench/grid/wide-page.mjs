// wide-page.mjs: the wide-table measure's page side (issue 42, target 5), shared by wide.mjs
// (headless Chromium through playwright-core) and wide-webkit.mjs (the app's WebKitGTK window
// through WebKit's remote inspector). Each export is a self-contained async function of one
// argument, run inside the page: Chromium gets it as a function (page.evaluate), WebKit as the
// source text `(${fn})(${JSON.stringify(arg)})`. Nothing here closes over module scope.

/**
 * openWide opens the connection named arg.connection (a click on it, as a user does), then the
 * table arg.table, chooses "All" rows per page and waits until arg.rows rows are loaded. It
 * answers the grid's column count and the times (ms) from the table click to its first row
 * and from "All" to every row loaded.
 */
export async function openWide(arg) {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const until = async (what, f, ms) => {
    const end = performance.now() + ms;
    for (;;) {
      const v = f();
      if (v) return v;
      if (performance.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
      await sleep(50);
    }
  };
  const tree = await until("the saved connections", () => document.querySelector('[role="tree"][aria-label="Saved connections"]'), 60_000);
  const conn = await until(`the connection ${arg.connection}`, () => [...tree.querySelectorAll(".conn-item")].find((e) => (e.getAttribute("title") ?? "").startsWith(arg.connection + " —")), 30_000);
  const item = () => document.querySelector(`[role="treeitem"][aria-label="${arg.table}"] .table-item`);
  if (!item()) conn.click();
  const table = await until(`${arg.table} in the tree`, item, 120_000);
  await sleep(300);
  const panelSel = `section.panel--table[aria-label="${arg.table}"]`;
  const t0 = performance.now();
  table.click();
  const panel = await until("the table's first row", () => {
    const p = document.querySelector(panelSel);
    return p?.querySelector("tr.data-grid__row") ? p : null;
  }, 60_000);
  const firstRow = performance.now() - t0;
  const select = await until("the rows-per-page choice", () => panel.querySelector('label.grid-bar__size select[title^="All reads"]'), 10_000);
  const all = [...select.options].map((o) => Number(o.value)).filter((n) => n >= arg.rows);
  if (all.length === 0) throw new Error(`no page size of ${arg.rows} rows or more: ${[...select.options].map((o) => o.value)}`);
  const t1 = performance.now();
  // React listens to the native change event; the value goes in through the prototype's setter.
  Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value").set.call(select, String(all[0]));
  select.dispatchEvent(new Event("change", { bubbles: true }));
  await until(`all ${arg.rows} rows`, () => {
    const text = panel.querySelector(".grid-bar__range")?.textContent ?? "";
    const m = /^Rows 1–([\d,]+)/.exec(text);
    return m && Number(m[1].replace(/,/g, "")) >= arg.rows && !text.includes("loading");
  }, 240_000);
  const allRows = performance.now() - t1;
  const region = panel.querySelector(`[role="region"][aria-label="Grid of ${arg.table}"]`);
  if (!region) throw new Error("no scroll region");
  // The grid's own count (aria-colcount, less the row-number gutter): it renders only the
  // columns in view.
  const columns = Number(region.querySelector("table")?.getAttribute("aria-colcount") ?? 0) - 1;
  return { columns, firstRowMs: firstRow, allRowsMs: allRows };
}

/**
 * scrollWide scrolls the grid of arg.table one step per animation frame: "vertical" from the
 * top to the bottom by arg.step px a frame, "horizontal" from the left edge to the right and
 * back by arg.step px a frame. Frame intervals come from requestAnimationFrame timestamps; long
 * tasks (over 50 ms) from a PerformanceObserver of 'longtask' entries registered before the
 * first step, where the engine has them (Chromium does, WebKit does not: longTasks is null).
 */
export async function scrollWide(arg) {
  const region = document.querySelector(`section.panel--table[aria-label="${arg.table}"] [role="region"][aria-label="Grid of ${arg.table}"]`);
  if (!region) throw new Error(`no grid of ${arg.table}`);
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  region.scrollTop = 0;
  region.scrollLeft = 0;
  await frame();
  await frame();
  // The display's frame period at rest, for reading the intervals.
  const idle = [];
  let prev = await frame();
  for (let i = 0; i < 20; i++) {
    const t = await frame();
    idle.push(t - prev);
    prev = t;
  }
  idle.sort((a, b) => a - b);
  let longTasks = null;
  let observer = null;
  if (typeof PerformanceObserver !== "undefined" && (PerformanceObserver.supportedEntryTypes ?? []).includes("longtask")) {
    longTasks = [];
    observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longTasks.push(Math.round(e.duration * 10) / 10);
    });
    observer.observe({ type: "longtask" });
  }
  const stamps = [];
  const start = performance.now();
  let back = false;
  await new Promise((resolve) => {
    const tick = (ts) => {
      stamps.push(ts);
      if (arg.direction === "vertical") {
        if (region.scrollTop + region.clientHeight >= region.scrollHeight - 1) return resolve();
        region.scrollTop += arg.step;
      } else {
        const end = region.scrollWidth - region.clientWidth;
        if (!back && region.scrollLeft >= end - 1) back = true;
        if (back && region.scrollLeft <= 0) return resolve();
        region.scrollLeft += back ? -arg.step : arg.step;
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  // Long-task entries are queued after the task ends: give the last ones a moment.
  await new Promise((r) => setTimeout(r, 200));
  if (observer) {
    for (const e of observer.takeRecords()) longTasks.push(Math.round(e.duration * 10) / 10);
    observer.disconnect();
  }
  const frames = [];
  for (let i = 1; i < stamps.length; i++) frames.push(stamps[i] - stamps[i - 1]);
  return {
    frames,
    scrollMs: performance.now() - start,
    scrollPx: arg.direction === "vertical" ? region.scrollTop : region.scrollWidth - region.clientWidth,
    viewport: [region.clientWidth, region.clientHeight],
    rowsInDom: region.querySelectorAll("tr.data-grid__row").length,
    cellsInDom: region.querySelectorAll("tr.data-grid__row > td").length,
    vsyncMs: idle[idle.length >> 1],
    longTasks,
  };
}
