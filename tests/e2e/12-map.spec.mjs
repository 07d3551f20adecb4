// 12-map (issue 22): the Map tab on the GraphQL-off node's Paper (3,000 papers in 8 topic
// clusters, read over gRPC). The layout is read back through Export layout… (the native save
// dialog) and held to the topics the node holds; the points' places on the screen are
// computed from it as the map draws them (mapModel.fit, then regl-scatterplot's projection),
// so hover, click and the lasso aim at real points. Its setup saves "GraphQL off" with the CLI when it runs alone (10-graphql-off saves it
// otherwise) and opens it from the tree, with its
// Article, whose tab the last check reads the tree again from.
import { test } from "@playwright/test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { answerSaveDialog, assert, need, useApp } from "./lib.mjs";
import { ensureConnection, openConnection, openTable } from "./weaviate.mjs";

const artifacts = need("APP_E2E_ARTIFACTS");
const offAddr = need("APP_E2E_NOGRAPHQL_ADDR");
const offGrpcPort = need("APP_E2E_NOGRAPHQL_GRPC_PORT");
const offName = "GraphQL off";

let page, offTables;
useApp({
  setup: async (p, { first }) => {
    page = p;
    offTables = page.getByRole("tree", { name: "Saved connections" }).getByRole("treeitem", { name: offName }).getByRole("group");
    if (first) {
      await ensureConnection(page, offName, "--host", offAddr.split(":")[0], "--port", offAddr.split(":")[1], "--grpc-port", offGrpcPort);
      await openTable(page, offName, "Article");
    }
  },
});

/** paperMap opens the Map of Paper from the tree when it has no tab, and waits for its layout. */
async function paperMap() {
  if ((await page.getByRole("tab", { name: "Map · Paper" }).count()) > 0) return;
  await openConnection(page, offName);
  await offTables.getByRole("treeitem", { name: /^Paper/ }).click();
  const tablePanel = page.locator('section.panel--table[aria-label="Paper"]:visible');
  await tablePanel.getByRole("table", { name: "Rows of Paper" }).waitFor({ timeout: 30_000 });
  await tablePanel.getByRole("button", { name: "Map" }).click();
  const panel = page.locator('section.panel--map[aria-label="Map of Paper"]:visible');
  await panel.getByRole("status").filter({ hasText: /^Layout (done|kept)/ }).first().waitFor({ timeout: 120_000 });
}

test("Map: Paper's layout keeps each topic together (silhouette above 0.70, a random baseline near 0); hover and click name the row; a lasso around one topic opens exactly its rows as a grid tab (issue 22)", async () => {
  await offTables.getByRole("treeitem", { name: /^Paper/ }).click();
  const tablePanel = page.locator('section.panel--table[aria-label="Paper"]:visible');
  await tablePanel.getByRole("table", { name: "Rows of Paper" }).waitFor({ timeout: 30_000 });
  await tablePanel.getByRole("button", { name: "Map" }).click();
  const panel = page.locator('section.panel--map[aria-label="Map of Paper"]:visible');
  await panel.getByRole("status").filter({ hasText: "Layout done (UMAP)" }).first().waitFor({ timeout: 120_000 });
  /** exportCsv clicks `button`, exports as CSV through the dialog `title` and its native save dialog, and returns the file's rows (cells split at commas, the header first). */
  const exportCsv = async (button, title, name) => {
    const out = join(artifacts, name);
    rmSync(out, { force: true });
    await button.click();
    const dialog = page.getByRole("dialog", { name: title });
    await dialog.getByRole("button", { name: "Export…" }).click();
    answerSaveDialog(title, out);
    await dialog.getByRole("status", { name: "Export" }).waitFor({ timeout: 30_000 });
    await dialog.getByRole("button", { name: "Close" }).click();
    return readFileSync(out, "utf8").trim().split("\n").map((l) => l.split(","));
  };
  // the layout, exported
  const lines = (await exportCsv(panel.getByRole("button", { name: "Export layout…" }), "Export Paper layout", "e2e-paper-layout.csv")).slice(1);
  const layout = lines.map(([id, x, y]) => ({ id, x: Number(x), y: Number(y) }));
  const held = await fetch(`http://${offAddr}/v1/objects?class=Paper&limit=3000`).then((r) => r.json());
  const byId = new Map(held.objects.map((o) => [o.id, o.properties]));
  assert(layout.length === 3000 && layout.every((p) => byId.has(p.id)), `${layout.length} points in the layout`);
  // Silhouette by topic (Rousseeuw 1987): for each point, b (mean distance to the nearest
  // other topic) minus a (mean distance to its own), over the larger; averaged. Kaufman and
  // Rousseeuw read above 0.70 as a strong structure, 0.51-0.70 reasonable, and at most 0.25
  // as none. The threshold is the strong one, 0.70: Paper's eight topics are well apart in
  // its vectors (its UMAP layout measures about 0.9), and a layout that mixed them could not
  // reach it. The same layout with the topics dealt out at random is the baseline, near 0,
  // so the score measures the layout's grouping, not the number of topics.
  const topics = layout.map((p) => byId.get(p.id).topic);
  const names = [...new Set(topics)];
  const silhouetteOf = (labels) => {
    let total = 0;
    for (let i = 0; i < layout.length; i++) {
      const sums = new Map(names.map((n) => [n, [0, 0]]));
      for (let j = 0; j < layout.length; j++) {
        if (i === j) continue;
        const s = sums.get(labels[j]);
        s[0] += Math.hypot(layout[i].x - layout[j].x, layout[i].y - layout[j].y);
        s[1]++;
      }
      const a = sums.get(labels[i])[0] / sums.get(labels[i])[1];
      const b = Math.min(...names.filter((n) => n !== labels[i]).map((n) => sums.get(n)[0] / sums.get(n)[1]));
      total += (b - a) / Math.max(a, b);
    }
    return total / layout.length;
  };
  const silhouette = silhouetteOf(topics);
  let seed = 22; // mulberry32: 32-bit integer steps, exact in JavaScript
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const shuffled = [...topics];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const k = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[k]] = [shuffled[k], shuffled[i]];
  }
  const baseline = silhouetteOf(shuffled);
  console.error(`map: silhouette by topic ${silhouette.toFixed(3)}, topics dealt at random ${baseline.toFixed(3)}`);
  assert(names.length === 8 && silhouette > 0.7, `silhouette by topic ${silhouette.toFixed(3)} over ${names.length} topics, want above 0.70 (strong structure)`);
  assert(Math.abs(baseline) < 0.1, `the random baseline scores ${baseline.toFixed(3)}: the measure does not measure grouping`);
  // where each point is drawn: fit into [-0.95, 0.95], then the view's aspect ratio
  const canvas = panel.locator(".map-canvas canvas");
  const box = await canvas.boundingBox();
  const xs = layout.map((p) => p.x), ys = layout.map((p) => p.y);
  const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
  const scale = 1.9 / Math.max(maxX - minX, maxY - minY);
  const cx = (minX + maxX) / 2, cy = (minY + maxY) / 2;
  const aspect = box.width / box.height;
  const screen = layout.map((p) => ({
    x: box.x + (box.width * (((p.x - cx) * scale) / aspect + 1)) / 2,
    y: box.y + box.height * (0.5 - ((p.y - cy) * scale) / 2),
  }));
  // hover and click the point farthest from every other (nothing else under the pointer)
  let far = 0, farD = -1;
  for (let i = 0; i < screen.length; i += 7) {
    let near = Infinity;
    for (let j = 0; j < screen.length; j++) if (j !== i) near = Math.min(near, Math.hypot(screen[i].x - screen[j].x, screen[i].y - screen[j].y));
    if (near > farD && screen[i].x > box.x + 20 && screen[i].x < box.x + box.width - 20 && screen[i].y > box.y + 20 && screen[i].y < box.y + box.height - 20) [far, farD] = [i, near];
  }
  await page.mouse.move(screen[far].x - 30, screen[far].y - 30);
  await page.mouse.move(screen[far].x, screen[far].y, { steps: 5 });
  const tip = panel.getByRole("tooltip");
  // The pointer passes other points on its way: the tooltip may name one of them first, so
  // wait for it to name the point under the pointer once it has stopped (or say what it named).
  await tip.filter({ hasText: layout[far].id }).waitFor({ timeout: 10_000 }).catch(() => {});
  const tipText = await tip.innerText();
  const want = byId.get(layout[far].id);
  assert(tipText.includes(layout[far].id) && tipText.includes(want.title), `hover says ${JSON.stringify(tipText)}; the point is ${layout[far].id}, ${JSON.stringify(want.title)}`);
  await page.mouse.click(screen[far].x, screen[far].y);
  const row = panel.getByRole("complementary", { name: "Legend" }).locator(`.map-point[aria-label="Row ${layout[far].id}"]`);
  await row.waitFor({ timeout: 10_000 });
  assert((await row.innerText()).includes(want.title), "the clicked row's details do not name its title");
  await page.keyboard.press("Escape");
  await row.waitFor({ state: "detached", timeout: 5_000 });
  // A drag pans: the drawn picture follows the pointer (moved, not drawn again), and at the
  // release the points are drawn where they moved to: the lone point is hovered at its place
  // plus the distance dragged, and named; a drag back puts it where it was (the lasso below
  // aims at the first places).
  const drag = async (dx, dy) => {
    const [sx, sy] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(sx, sy);
    await page.mouse.down();
    await page.mouse.move(sx + dx / 2, sy + dy / 2, { steps: 4 });
    // the canvas's transform as a matrix: moved by half the drag so far, not scaled
    const during = await canvas.evaluate((c) => {
      const m = new DOMMatrix(c.style.transform || "none");
      return `scale ${m.a} ${m.d}, moved ${m.e} ${m.f} (${c.style.transform})`;
    });
    await page.mouse.move(sx + dx, sy + dy, { steps: 4 });
    await page.mouse.up();
    assert(during.startsWith(`scale 1 1, moved ${dx / 2} ${dy / 2} `), `while dragging, the canvas is ${JSON.stringify(during)}, want moved by ${dx / 2}, ${dy / 2}`);
    await page.waitForFunction(() => document.querySelector('section.panel--map[aria-label="Map of Paper"] .map-canvas canvas')?.style.transform === "", null, { timeout: 10_000 });
  };
  const hoverAt = async (x, y) => {
    await page.mouse.move(x - 30, y - 30);
    await page.mouse.move(x, y, { steps: 5 });
    await tip.filter({ hasText: layout[far].id }).waitFor({ timeout: 10_000 });
  };
  const dx = screen[far].x < box.x + box.width / 2 ? 40 : -40;
  const dy = screen[far].y < box.y + box.height / 2 ? 30 : -30;
  await drag(dx, dy);
  await hoverAt(screen[far].x + dx, screen[far].y + dy);
  await drag(-dx, -dy);
  await hoverAt(screen[far].x, screen[far].y);
  // A lasso around all the points of one topic: the convex hull of their places, each point
  // widened to an octagon of 10 pixels, so every point of the topic lies at least 9 pixels
  // inside the lasso's edge. The topic is one whose lasso lies in the canvas and has no point
  // of another topic inside it or within 4 pixels of its edge: no point is near the edge, so
  // the pointer's path cannot decide any point either way, and the selection must be exactly
  // that topic's rows.
  const hull = (pts) => { // Andrew's monotone chain, counter-clockwise
    const ps = [...pts].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    const half = (list) => {
      const out = [];
      for (const p of list) {
        while (out.length >= 2 && cross(out[out.length - 2], out[out.length - 1], p) <= 0) out.pop();
        out.push(p);
      }
      out.pop();
      return out;
    };
    return [...half(ps), ...half([...ps].reverse())];
  };
  const inside = (poly, p) => { // ray casting
    let ins = false;
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const [xi, yi] = poly[i], [xj, yj] = poly[j];
      if (yi > p.y !== yj > p.y && p.x < ((xj - xi) * (p.y - yi)) / (yj - yi) + xi) ins = !ins;
    }
    return ins;
  };
  const edgeDistance = (poly, p) => {
    let d = Infinity;
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const [ax, ay] = poly[j], [bx, by] = poly[i];
      const t = Math.max(0, Math.min(1, ((p.x - ax) * (bx - ax) + (p.y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2 || 1)));
      d = Math.min(d, Math.hypot(p.x - (ax + t * (bx - ax)), p.y - (ay + t * (by - ay))));
    }
    return d;
  };
  let topic = null, poly = null;
  for (const t of names) {
    const widened = screen.filter((_, i) => topics[i] === t).flatMap((p) => [0, 1, 2, 3, 4, 5, 6, 7].map((k) => [p.x + 10 * Math.cos((k * Math.PI) / 4), p.y + 10 * Math.sin((k * Math.PI) / 4)]));
    const h = hull(widened);
    if (h.some(([x, y]) => x < box.x + 2 || y < box.y + 2 || x > box.x + box.width - 2 || y > box.y + box.height - 2)) continue;
    if (screen.some((p, i) => topics[i] !== t && (inside(h, p) || edgeDistance(h, p) < 4))) continue;
    [topic, poly] = [t, h];
    break;
  }
  assert(topic !== null, `no topic lies apart enough on the screen for a lasso around it alone (topics ${JSON.stringify(names)})`);
  const chosen = layout.filter((_, i) => topics[i] === topic).map((p) => p.id).sort();
  assert(chosen.length > 20 && layout.every((_, i) => inside(poly, screen[i]) === (topics[i] === topic)), `the lasso around ${topic} does not hold exactly its ${chosen.length} points`);
  await page.keyboard.down("Shift");
  await page.mouse.move(poly[0][0], poly[0][1]);
  await page.mouse.down();
  for (const [x, y] of [...poly.slice(1), poly[0]]) await page.mouse.move(x, y, { steps: 3 });
  await page.mouse.up();
  await page.keyboard.up("Shift");
  const bar = panel.locator(".notice-line").filter({ hasText: "points selected" });
  await bar.waitFor({ timeout: 10_000 });
  const said = Number((await bar.innerText()).match(/^([\d,]+) points selected/)[1].replace(/,/g, ""));
  assert(said === chosen.length, `the lasso selected ${said}, the ${chosen.length} points of ${topic} lie inside it and no other`);
  await page.screenshot({ path: join(artifacts, "e2e-map-paper.png") });
  await bar.getByRole("button", { name: "Open as a grid tab" }).click();
  // The grid tab's rows, read back whole through its Export… (the grid shows those in view).
  const rowsPanel = page.locator('section.panel--table[aria-label="Paper"]:visible');
  await rowsPanel.locator(".grid-bar__range").filter({ hasText: new RegExp(`^Rows 1–\\d+ of ${said}$`) }).waitFor({ timeout: 20_000 });
  /** exportedIds writes a Paper grid tab's rows through its Export… and returns their uuids (the first column), sorted. */
  const exportedIds = async (rowsPanel, name) =>
    (await exportCsv(rowsPanel.getByRole("button", { name: "Export…" }), "Export Paper", name)).slice(1).map((r) => r[0]).sort();
  const got = await exportedIds(rowsPanel, "e2e-map-lasso-rows.csv");
  assert(JSON.stringify(got) === JSON.stringify(chosen), `the grid tab holds ${got.length} rows, ${got.filter((id) => !chosen.includes(id)).length} of them not ${topic}'s; want exactly its ${chosen.length}`);
  // and a legend entry selects its topic from the keyboard: exactly its papers
  await page.getByRole("tab", { name: "Map · Paper" }).click();
  const entry = panel.getByRole("complementary", { name: "Legend" }).getByRole("button", { name: new RegExp(`^Select the \\d+ points of ${topic}$`) });
  await entry.focus();
  await page.keyboard.press("Enter");
  const wantTopic = layout.filter((_, i) => topics[i] === topic).map((p) => p.id).sort();
  await panel.locator(".notice-line").filter({ hasText: `${wantTopic.length} points selected` }).waitFor({ timeout: 10_000 });
  await panel.locator(".notice-line").getByRole("button", { name: "Open as a grid tab" }).click();
  const topicPanel = page.locator('section.panel--table[aria-label="Paper"]:visible');
  await topicPanel.locator(".grid-bar__range").filter({ hasText: new RegExp(`^Rows 1–\\d+ of ${wantTopic.length}$`) }).waitFor({ timeout: 20_000 });
  const chip = await topicPanel.getByRole("list", { name: "Filters" }).innerText();
  assert(chip.includes(`and ${(wantTopic.length - 3).toLocaleString("en-US")} more`), `the chip says ${JSON.stringify(chip.slice(0, 200))}`);
  // a search's matches, shown on the map: its rows selected, all of them found there
  await topicPanel.getByRole("button", { name: "Search…" }).click();
  const search = page.locator('section.panel--search[aria-label="Search Paper"]:visible');
  const form = search.getByRole("search");
  // opened from the topic's tab, the search starts with its filter: cleared, all papers
  await search.getByRole("button", { name: "Clear filters" }).click();
  await form.getByRole("searchbox", { name: "Words" }).fill("exoplanet");
  await form.getByRole("button", { name: "Search" }).click();
  await search.locator(".grid-bar__range").filter({ hasText: /25 matches, best first by score/ }).waitFor({ timeout: 20_000 });
  // the search's 25 matches, read whole through its Export… (the grid renders those in view)
  const searchCsv = await exportCsv(search.getByRole("button", { name: "Export…" }), "Export Paper search", "e2e-map-search.csv");
  const searchIds = searchCsv.slice(1).map((r) => r[searchCsv[0].indexOf("uuid")]).sort();
  // Map of the matches: the search's 25 rows alone, laid out
  await search.getByRole("button", { name: "Map of the matches" }).click();
  await panel.locator(".panel__subtitle").filter({ hasText: /[·,] 25 points ·/ }).waitFor({ timeout: 30_000 });
  await panel.getByRole("status").filter({ hasText: /^Layout (done|kept)/ }).first().waitFor({ timeout: 60_000 });
  const alone = (await exportCsv(panel.getByRole("button", { name: "Export layout…" }), "Export Paper layout", "e2e-map-matches-layout.csv")).slice(1).map((r) => r[0]).sort();
  assert(JSON.stringify(alone) === JSON.stringify(searchIds), `the map of the matches holds ${alone.length} points, not the search's 25`);
  await page.getByRole("tab", { name: "Search · Paper" }).click();
  // Show on the map: the table's map again (the search's filters: none), its matches selected
  await search.getByRole("button", { name: "Show on the map" }).click();
  await panel.locator(".panel__subtitle").filter({ hasText: /[·,] 3,000 points ·/ }).waitFor({ timeout: 30_000 });
  await panel.getByRole("status").filter({ hasText: 'The 25 rows of bm25 "exoplanet" are selected.' }).waitFor({ timeout: 60_000 });
  await panel.locator(".notice-line").filter({ hasText: "25 points selected" }).waitFor({ timeout: 10_000 });
  // the points selected are the search's rows: opened as a grid tab, exactly its 25 uuids
  await panel.locator(".notice-line").getByRole("button", { name: "Open as a grid tab" }).click();
  const searchRows = page.locator('section.panel--table[aria-label="Paper"]:visible');
  await searchRows.locator(".grid-bar__range").filter({ hasText: /^Rows 1–\d+ of 25$/ }).waitFor({ timeout: 20_000 });
  const shownSearch = await exportedIds(searchRows, "e2e-map-search-rows.csv");
  assert(searchIds.length === 25 && JSON.stringify(shownSearch) === JSON.stringify(searchIds), `the map selected ${JSON.stringify(shownSearch.slice(0, 3))}…, the search found ${JSON.stringify(searchIds.slice(0, 3))}…`);
  // Find similar's matches too, on the map of the vector it searched
  const probe = shownSearch[0];
  await searchRows.locator("tbody tr.data-grid__row").filter({ has: page.locator(`td:text-is("${probe}")`) }).locator("td").nth(2).click();
  await searchRows.getByRole("button", { name: "Row details" }).click();
  await searchRows.getByRole("complementary", { name: `Details of ${probe}` }).getByRole("button", { name: "Find similar" }).click();
  const similar = page.locator(`section.panel--similar[aria-label="Similar to ${probe}"]:visible`);
  await similar.getByRole("table").locator("tbody tr.data-grid__row").first().waitFor({ timeout: 20_000 });
  // Find similar's matches, read whole through its Export… (the grid renders those in view)
  const similarCsv = await exportCsv(similar.getByRole("button", { name: "Export…" }), "Export Paper similar", "e2e-map-similar.csv");
  const uuidAt = similarCsv[0].indexOf("uuid");
  const similarIds = similarCsv.slice(1).map((r) => r[uuidAt]).sort();
  await similar.getByRole("button", { name: "Show on the map" }).click();
  await panel.locator(".notice-line").filter({ hasText: `${similarIds.length} points selected` }).waitFor({ timeout: 20_000 });
  await panel.locator(".notice-line").getByRole("button", { name: "Open as a grid tab" }).click();
  const similarRows = page.locator('section.panel--table[aria-label="Paper"]:visible');
  await similarRows.locator(".grid-bar__range").filter({ hasText: new RegExp(`^Rows 1–\\d+ of ${similarIds.length}$`) }).waitFor({ timeout: 20_000 });
  const shownSimilar = await exportedIds(similarRows, "e2e-map-similar-rows.csv");
  assert(similarIds.length > 1 && JSON.stringify(shownSimilar) === JSON.stringify(similarIds), `the map selected ${shownSimilar.length} rows, Find similar found ${similarIds.length}`);
});

test("Map: from the keyboard, the focused map selects all (Ctrl+A), clears (Escape), and an arrow and Space pick one point, whose row opens beside the map (issue 22)", async () => {
  await paperMap(); // the map the first check opened (after a failure above the runner opened the page again)
  await page.getByRole("tab", { name: "Map · Paper" }).click();
  const panel = page.locator('section.panel--map[aria-label="Map of Paper"]:visible');
  const canvas = panel.locator(".map-canvas canvas");
  await canvas.focus();
  const bar = panel.locator(".notice-line").filter({ hasText: "points selected" });
  await page.keyboard.press("Escape");
  await bar.waitFor({ state: "detached", timeout: 10_000 });
  await page.keyboard.press("Control+a");
  await bar.filter({ hasText: /^3,000 points selected/ }).waitFor({ timeout: 10_000 });
  await page.keyboard.press("Escape");
  await bar.waitFor({ state: "detached", timeout: 10_000 });
  await page.keyboard.press("ArrowRight");
  const tip = panel.getByRole("tooltip");
  await tip.waitFor({ timeout: 10_000 });
  const uuid = (await tip.locator("code").innerText()).trim();
  await page.keyboard.press("Space");
  const row = panel.getByRole("complementary", { name: "Legend" }).locator(`.map-point[aria-label="Row ${uuid}"]`);
  await row.waitFor({ timeout: 10_000 });
  const held = await fetch(`http://${offAddr}/v1/objects/Paper/${uuid}`).then((r) => r.json());
  assert((await row.innerText()).includes(held.properties.title), `the row beside the map does not name ${JSON.stringify(held.properties.title)}`);
  await page.keyboard.press("Escape");
  await row.waitFor({ state: "detached", timeout: 10_000 });
});

test("Map: Save picture… writes the drawn map as a PNG of the canvas's size to the file chosen in the native save dialog (issue 22)", async () => {
  await paperMap(); // the map the first check opened (after a failure above the runner opened the page again)
  await page.getByRole("tab", { name: "Map · Paper" }).click();
  const panel = page.locator('section.panel--map[aria-label="Map of Paper"]:visible');
  const out = join(artifacts, "e2e-map-picture.png");
  rmSync(out, { force: true });
  // the canvas's size as it is drawn when saved (the "Saved" line then takes room above it)
  const size = await panel.locator(".map-canvas canvas").evaluate((c) => [c.width, c.height]);
  await panel.getByRole("button", { name: "Save picture…" }).click();
  answerSaveDialog("Save the map of Paper", out);
  await panel.getByRole("status").filter({ hasText: `Saved ${out}` }).waitFor({ timeout: 30_000 });
  const png = readFileSync(out);
  assert(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) && png.toString("latin1", 12, 16) === "IHDR",
    `the file does not start as a PNG: ${png.subarray(0, 16).toString("hex")}`);
  const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  assert(w === size[0] && h === size[1] && png.length > 1000, `the picture is ${w}x${h} (${png.length} bytes), the canvas ${size[0]}x${size[1]}`);
});

test("Map: a collection without vectors and one with vectors of two lengths each say why with Retry and no spinner; one with only named vectors maps the first and names it, the others a choice away; a Cancel ends in a sentence, not a spinner (issue 22)", async () => {
  await paperMap(); // the map the first check opened (after a failure above the runner opened the page again)
  const make = async (cls, vectors) => {
    await fetch(`http://${offAddr}/v1/schema/${cls}`, { method: "DELETE" });
    const made = await fetch(`http://${offAddr}/v1/schema`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ class: cls, vectorizer: "none", vectorIndexConfig: { skip: true }, properties: [{ name: "n", dataType: ["int"] }] }),
    });
    assert(made.ok, `the node refused ${cls}: ${await made.text()}`);
    for (let i = 0; i < vectors.length; i++) {
      const put = await fetch(`http://${offAddr}/v1/objects`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ class: cls, properties: { n: i }, ...(vectors[i] ? { vector: vectors[i] } : {}) }),
      });
      assert(put.ok, `the node refused a ${cls} object: ${await put.text()}`);
    }
  };
  await make("MapNoVectors", [null, null, null]);
  await make("MapMixed", [[1, 0, 0], [0, 1, 0, 0]]);
  await fetch(`http://${offAddr}/v1/schema/MapNamed`, { method: "DELETE" });
  const named = await fetch(`http://${offAddr}/v1/schema`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ class: "MapNamed", properties: [{ name: "n", dataType: ["int"] }], vectorConfig: {
      first: { vectorizer: { none: {} }, vectorIndexType: "flat" },
      second: { vectorizer: { none: {} }, vectorIndexType: "flat" },
    } }),
  });
  assert(named.ok, `the node refused MapNamed: ${await named.text()}`);
  for (let i = 0; i < 3; i++) {
    const put = await fetch(`http://${offAddr}/v1/objects`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ class: "MapNamed", properties: { n: i }, vectors: { first: [i, 1, 0], second: [1, i] } }),
    });
    assert(put.ok, `the node refused a MapNamed object: ${await put.text()}`);
  }
  try {
    // the tree reads the new collections on F5
    await page.locator(`[role="tab"][title="Article — ${offName}"]`).click();
    await page.locator('section.panel--table[aria-label="Article"]:visible').getByRole("table").locator("tbody td").first().click();
    await page.keyboard.press("F5");
    for (const [cls, says] of [["MapNoVectors", "none of the 3 rows of MapNoVectors has a vector"], ["MapMixed", "different lengths"]]) {
      const item = offTables.getByRole("treeitem", { name: cls, exact: true });
      await item.waitFor({ timeout: 20_000 });
      await item.click();
      const tablePanel = page.locator(`section.panel--table[aria-label="${cls}"]:visible`);
      await tablePanel.getByRole("button", { name: "Map", exact: true }).click();
      const panel = page.locator(`section.panel--map[aria-label="Map of ${cls}"]:visible`);
      const alert = panel.getByRole("alert").filter({ hasText: says });
      await alert.waitFor({ timeout: 30_000 });
      const status = await panel.locator(".grid-bar__range").innerText();
      assert(!/Reading|Laying out|Refining/.test(status), `${cls}: the status still says ${JSON.stringify(status)} beside ${JSON.stringify(await alert.innerText())}`);
      assert((await panel.getByRole("button", { name: "Cancel" }).count()) === 0, `${cls}: Cancel is still offered`);
      assert((await panel.getByRole("button", { name: "Retry" }).count()) === 1, `${cls}: no Retry`);
    }
    // only named vectors: the first is drawn and the subtitle names it; the chooser offers both
    await offTables.getByRole("treeitem", { name: "MapNamed", exact: true }).click();
    await page.locator('section.panel--table[aria-label="MapNamed"]:visible').getByRole("button", { name: "Map", exact: true }).click();
    const namedMap = page.locator('section.panel--map[aria-label="Map of MapNamed"]:visible');
    const subtitle = namedMap.locator(".panel__subtitle");
    await namedMap.getByRole("status").filter({ hasText: /^Layout done/ }).first().waitFor({ timeout: 60_000 });
    await subtitle.filter({ hasText: /vector first, 3 points · 3 dimensions/ }).waitFor({ timeout: 10_000 });
    const chooser = namedMap.getByRole("combobox", { name: "Vector" });
    const offered = (await chooser.locator("option").allInnerTexts()).map((t) => t.trim());
    assert(JSON.stringify(offered) === JSON.stringify(["first", "second"]), `the Vector chooser offers ${JSON.stringify(offered)}`);
    await chooser.selectOption("second");
    await subtitle.filter({ hasText: /vector second, 3 points · 2 dimensions/ }).waitFor({ timeout: 30_000 });
    // Cancel as soon as it is offered: the read stops (a sentence and Retry) or, if the read
    // had ended, the layout does (the layout so far); either way no spinner and no Cancel.
    await page.getByRole("tab", { name: "Map · Paper" }).click();
    const paper = page.locator('section.panel--map[aria-label="Map of Paper"]:visible');
    await paper.getByRole("button", { name: "Recompute" }).click();
    await paper.getByRole("button", { name: "Cancel" }).click();
    const ended = paper.getByText(/^The map was cancelled$|^Stopped: the layout so far is shown/).first();
    await ended.waitFor({ timeout: 20_000 });
    const said = await ended.innerText();
    const status = await paper.locator(".grid-bar__range").innerText();
    assert((await paper.getByRole("button", { name: "Cancel" }).count()) === 0 && !/Reading|Laying out|Refining/.test(status), `Cancel or a busy status (${JSON.stringify(status)}) is left after the cancel`);
    console.error(`map: Cancel ended with ${JSON.stringify(said)}`);
    // the read cancelled: Retry reads again; the layout stopped: Recompute lays it out again
    await paper.getByRole("button", { name: said === "The map was cancelled" ? "Retry" : "Recompute", exact: true }).click();
    // Retry may find the layout kept from before (the cancelled run was a Recompute)
    await paper.getByRole("status").filter({ hasText: /^Layout (done \(UMAP\)|kept from before)/ }).first().waitFor({ timeout: 120_000 });
  } finally {
    for (const cls of ["MapNoVectors", "MapMixed", "MapNamed"]) await fetch(`http://${offAddr}/v1/schema/${cls}`, { method: "DELETE" });
  }
});
