// weaviate.mjs: what the specs on the Weaviate nodes share: the grid's filter steps (each
// result read back as the uuids shown), the search panel's runs held to weaviate-server's own
// answers, and the steps that bring the window to where a spec starts (a connection open, a
// table's tab).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { assert, need } from "./lib.mjs";

/** held is what the node at addr holds of Article (id, vector and properties), read with its own REST API. */
export const held = (addr) =>
  fetch(`http://${addr}/v1/objects?class=Article&limit=100&include=vector`)
    .then((r) => r.json())
    .then((d) => d.objects.map((o) => ({ id: o.id, vector: o.vector, ...o.properties })));

/** tree is the sidebar's tree of saved connections. */
export const tree = (page) => page.getByRole("tree", { name: "Saved connections" });

// Settings is a page of sections: Ctrl+, opens it (at the section last shown), and the
// section list shows the one a check needs.
export const openSettings = async (page, section) => {
  await page.keyboard.press("Control+,");
  await page.getByRole("tablist", { name: "Settings sections" }).getByRole("tab", { name: section, exact: true }).click();
};

/** addConnection saves a connection with the CLI while the window is open (args after `connection add`). */
export function addConnection(...args) {
  execFileSync(need("APP_E2E_CLI"), ["--config-dir", need("APP_E2E_CONFIG_DIR"), "connection", "add", ...args], {
    env: { ...process.env, APP_KEYRING_BACKEND: "file", APP_KEYRING_PASSWORD: "test" },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/**
 * ensureConnection is a spec's setup when it needs the saved connection `name` that an earlier
 * spec made (as when it runs alone): saved with the CLI (args) unless the tree lists it.
 */
export async function ensureConnection(page, name, ...args) {
  await tree(page).getByRole("treeitem", { name: "Demo Weaviate", exact: true }).waitFor({ timeout: 30_000 });
  const item = tree(page).getByRole("treeitem", { name, exact: true });
  if ((await item.count()) > 0) return;
  addConnection("--name", name, ...args);
  await item.waitFor({ timeout: 10_000 });
}

/** openConnection opens the connection `name` from the tree (a click, as a person does) and waits for its tables. */
export async function openConnection(page, name) {
  const item = tree(page).getByRole("treeitem", { name, exact: true });
  await item.locator(".conn-item").first().click();
  await item.getByRole("group").getByRole("treeitem").first().waitFor({ timeout: 30_000 });
}

/** openTable opens the table `table` of the connection `conn` in its tab, from the tree. */
export async function openTable(page, conn, table) {
  await openConnection(page, conn);
  await tree(page).getByRole("treeitem", { name: conn, exact: true }).getByRole("group").getByRole("treeitem", { name: table, exact: true }).click();
  await page.locator(`[role="tab"][title="${table} — ${conn}"][aria-selected="true"]`).waitFor({ timeout: 10_000 });
  await page.locator(`section.panel--table[aria-label="${table}"]:visible`).getByRole("table", { name: `Rows of ${table}` }).waitFor({ timeout: 30_000 });
}

/** shownIds waits until the range reads `want` rows of `want` and returns the uuids shown. */
export async function shownIds(panel, grid, want) {
  const range = want === 0 ? /^No rows( of 0)?$|^No rows: a filter cannot run$/ : new RegExp(`^Rows 1–${want} of ${want}$`);
  await panel.locator(".grid-bar__range").filter({ hasText: range }).waitFor({ timeout: 20_000 });
  return (await grid.locator("tbody tr.data-grid__row td:nth-child(2)").allInnerTexts()).map((t) => t.trim()).sort();
}

/** applyFilter opens the column's filter from its header, picks the operator, types the values and presses Enter. */
export async function applyFilter(panel, column, operator, values = []) {
  await panel.getByRole("button", { name: `Filter ${column}`, exact: true }).click();
  const form = panel.getByRole("form", { name: "Edit filter" });
  await form.getByRole("combobox", { name: "Operator" }).selectOption(operator);
  const boxes = await form.getByRole("textbox").all();
  for (let i = 0; i < values.length; i++) await boxes[i].fill(values[i]);
  if (values.length > 0) await boxes[values.length - 1].press("Enter");
  else await form.getByRole("button", { name: "Apply" }).click();
  await form.waitFor({ state: "detached", timeout: 5_000 });
  return form;
}

export async function clearFilters(panel) {
  await panel.getByRole("button", { name: "Clear filters" }).click();
}

/** resetFilters leaves the panel with no filter and no filter editor, whatever a failed check left. */
export async function resetFilters(panel) {
  const form = panel.getByRole("form", { name: "Edit filter" });
  if ((await form.count()) > 0) await form.getByRole("button", { name: "Cancel" }).click({ timeout: 5_000 }).catch(() => {});
  const clear = panel.getByRole("button", { name: "Clear filters" });
  if ((await clear.count()) > 0) await clear.click({ timeout: 5_000 }).catch(() => {});
}

/** refusal applies a filter that cannot run and returns the reason shown at its chip. */
export async function refusal(panel, grid, column, operator, values, editorSays) {
  await panel.getByRole("button", { name: `Filter ${column}`, exact: true }).click();
  const form = panel.getByRole("form", { name: "Edit filter" });
  await form.getByRole("combobox", { name: "Operator" }).selectOption(operator);
  const boxes = await form.getByRole("textbox").all();
  for (let i = 0; i < values.length; i++) await boxes[i].fill(values[i]);
  if (editorSays) {
    const said = await form.locator(".filter-editor__reason, .filter-editor__hint").allInnerTexts();
    assert(said.some((t) => editorSays.test(t)), `the editor says ${JSON.stringify(said)}`);
  }
  await form.getByRole("button", { name: "Apply" }).click();
  const alert = panel.getByRole("list", { name: "Filters" }).getByRole("alert");
  await alert.waitFor({ timeout: 20_000 });
  await panel.getByText("No rows: a filter cannot run", { exact: true }).waitFor({ timeout: 5_000 });
  const n = await grid.locator("tbody tr.data-grid__row").count();
  assert(n === 0, `${n} rows shown under a refused filter`);
  return alert.innerText();
}

// Issue 23, item 3: the search panel's answers, held to weaviate-server's own for the same
// request (uuids and order). runSearch fills the form of a search tab and reads the matches.
export const serverIds = async (addr, query) => {
  const d = await fetch(`http://${addr}/v1/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) }).then((r) => r.json());
  assert(!d.errors, `the server refused ${query}: ${JSON.stringify(d.errors)}`);
  return Object.values(d.data.Get)[0].map((o) => o._additional.id);
};
export const runSearch = async (panel, fill) => {
  const form = panel.getByRole("search");
  await fill(form);
  // Each search here differs from the one before, so its line (which says the search in
  // words) differs: wait for a line other than the last one.
  const last = panel.locator(".grid-bar__range");
  const prev = (await last.count()) > 0 ? await last.innerText() : "";
  await form.getByRole("button", { name: "Search" }).click();
  const range = prev ? last.filter({ hasText: /match(es)?, best first/, hasNotText: prev }) : last.filter({ hasText: /match(es)?, best first/ });
  await range.waitFor({ timeout: 20_000 });
  const grid = panel.getByRole("table");
  const heads = await grid.locator("thead th").evaluateAll((ths) => ths.map((th) => th.querySelector(".data-grid__name")?.textContent ?? ""));
  const ids = (await grid.locator("tbody tr.data-grid__row td:nth-child(2)").allInnerTexts()).map((t) => t.trim());
  const at = heads.indexOf("explainScore");
  const explained = at < 0 ? [] : (await grid.locator(`tbody tr.data-grid__row td:nth-child(${at + 1})`).allInnerTexts()).map((t) => t.trim());
  return { heads, ids, explained, said: await range.innerText() };
};
// The expected answers are the GraphQL node's (both nodes hold the same demo data); the
// GraphQL-off node's own answers, asked over gRPC, are held in app/explorer_search_test.go.
export const searchChecks = async (panel, label, shot, held) => {
  const page = panel.page();
  const demoAddr = need("APP_E2E_DEMO_ADDR");
  const artifacts = need("APP_E2E_ARTIFACTS");
  const probe = held.find((o) => Array.isArray(o.vector) && o.vector.length > 0);
  const bm25 = await runSearch(panel, async (form) => {
    await form.getByRole("combobox", { name: "Search by" }).selectOption({ label: "Keyword (bm25)" });
    await form.getByRole("checkbox", { name: "title", exact: true }).check();
    await form.getByRole("searchbox", { name: "Words" }).fill("rust");
    await form.getByRole("checkbox", { name: "Explain scores" }).check();
  });
  const wantBm25 = await serverIds(demoAddr, `{ Get { Article(bm25: {query: "rust", properties: ["title"]}, limit: 25) { _additional { id } } } }`);
  assert(wantBm25.length > 0 && JSON.stringify(bm25.ids) === JSON.stringify(wantBm25), `${label} bm25 ${JSON.stringify(bm25.ids)}, the server's ${JSON.stringify(wantBm25)}`);
  assert(bm25.heads[2] === "score" && bm25.heads[3] === "explainScore", `bm25 headers ${JSON.stringify(bm25.heads)}`);
  if (shot) await page.screenshot({ path: join(artifacts, shot) });
  const hybrid = await runSearch(panel, async (form) => {
    await form.getByRole("combobox", { name: "Search by" }).selectOption({ label: "Hybrid" });
    await form.getByRole("combobox", { name: "Fusion" }).selectOption("ranked");
    await form.getByRole("checkbox", { name: "title", exact: true }).uncheck();
    await form.getByRole("searchbox", { name: "Words" }).fill("programming language");
    await form.getByRole("checkbox", { name: "Explain scores" }).check();
  });
  assert(hybrid.heads[2] === "score" && hybrid.heads[3] === "explainScore" && hybrid.explained.length > 0 && hybrid.explained.every((t) => /keyword|bm25|hybrid/i.test(t)),
    `${label} hybrid headers ${JSON.stringify(hybrid.heads)}, explanations ${JSON.stringify(hybrid.explained.slice(0, 2))}`);
  const wantHybrid = await serverIds(demoAddr, `{ Get { Article(hybrid: {query: "programming language", alpha: 0, fusionType: rankedFusion}, limit: 25) { _additional { id } } } }`);
  assert(wantHybrid.length > 0 && JSON.stringify(hybrid.ids) === JSON.stringify(wantHybrid), `${label} hybrid ${JSON.stringify(hybrid.ids)}, the server's ${JSON.stringify(wantHybrid)}`);
  const near = await runSearch(panel, async (form) => {
    await form.getByRole("combobox", { name: "Search by" }).selectOption({ label: "Near vector" });
    await form.getByRole("textbox", { name: "Vector" }).fill(JSON.stringify(probe.vector));
    await form.getByRole("spinbutton", { name: "Limit" }).fill("5");
  });
  const wantNear = await serverIds(demoAddr, `{ Get { Article(nearVector: {vector: ${JSON.stringify(probe.vector)}}, limit: 5) { _additional { id } } } }`);
  assert(JSON.stringify(near.ids) === JSON.stringify(wantNear) && near.ids[0] === probe.id, `${label} nearVector ${JSON.stringify(near.ids)}, the server's ${JSON.stringify(wantNear)}`);
  assert(near.heads[2] === "distance", `nearVector headers ${JSON.stringify(near.heads)}`);
  return { bm25, hybrid, near };
};
