// 21-sqlite (issue 39): the window on a SQLite file, and every value held to what Debian's
// sqlite3 (with sqlite-vec's extension) reads from the file, never to what the app says. It
// runs after the other specs (or alone), on the same dev app, whose registry offers the SQLite
// plugin (not installed when it starts); it starts from an empty workspace. e2e_test.go
// passes, besides APP_E2E_URL, _CLI, _CONFIG_DIR, _ARTIFACTS, _DISPLAY and CHROMIUM:
//   APP_E2E_SQLITE_FILE   a SQLite file holding items (40 rows), docs (300 rows with a
//                         float[768] column in three topics) and vecs (a vec0 table)
//   APP_E2E_SQLITE_VEC    sqlite-vec's loadable extension, for sqlite3's .load
import { test } from "@playwright/test";
import { answerDialog, answerOpenDialog, answerSaveDialog, assert, consoleErrors, dialogShown, need, showTab, useApp } from "./lib.mjs";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const configDir = need("APP_E2E_CONFIG_DIR");
const artifacts = need("APP_E2E_ARTIFACTS");
const file = need("APP_E2E_SQLITE_FILE");
const vec = need("APP_E2E_SQLITE_VEC");

/** sqlite3At runs sql on the file at path with sqlite-vec loaded: rows one a line, columns split at "|". */
function sqlite3At(path, sql) {
  return execFileSync("sqlite3", ["-bail", "-batch", "-noheader", "-cmd", `.load ${vec}`, path], { input: sql + ";\n", timeout: 30_000 })
    .toString()
    .replace(/\n$/, "");
}
const sqlite3 = (sql) => sqlite3At(file, sql);
const lines = (text) => (text === "" ? [] : text.split("\n"));

let page, list, sidebar, form, fileItem, itemsPanel, itemsGrid, editorPanel, editorResult, docsPanel;
useApp({
  group: "sqlite",
  setup: async (p) => {
    page = p;
    list = page.getByRole("tree", { name: "Saved connections" });
    sidebar = page.getByRole("navigation", { name: "Connections" });
    form = page.locator(".conn-form");
    fileItem = list.getByRole("treeitem", { name: "Shop file" });
    itemsPanel = page.locator('section.panel--table[aria-label="items"]');
    itemsGrid = itemsPanel.getByRole("table", { name: "Rows of items" });
    editorPanel = page.locator('section.panel--editor[aria-label="Query Shop file"]');
    editorResult = editorPanel.locator(".editor-result");
    docsPanel = page.locator('section.panel--table[aria-label="docs"]');
  },
});

test("the chooser offers SQLite's download; accepting it opens the plugin's own form: a file, its access, and whether to create it", async () => {
  await sidebar.getByRole("button", { name: "New connection" }).click();
  const types = page.getByRole("list", { name: "Database types" });
  await types.getByRole("button", { name: /SQLite/ }).click();
  await page.getByRole("dialog", { name: "Download the SQLite driver" }).waitFor({ timeout: 15_000 });
  await page.getByRole("button", { name: /Download \(.* MB\) and continue/ }).click();
  await page.getByRole("textbox", { name: "File", exact: true }).waitFor({ timeout: 60_000 });
  assert((await page.getByRole("combobox", { name: "Access", exact: true }).inputValue()) === "read-write", "the access is not read-write by default");
  assert((await page.getByRole("textbox", { name: "Host" }).count()) === 0, "a file's form asks for a host");
  await page.screenshot({ path: join(artifacts, "e2e-sqlite-form.png") });
});

test("Choose… picks the file in the native open dialog; Test opens it; Save keeps the path", async () => {
  // The form the check above opened, which the window does not remember (after a failure above the runner opened the page again).
  if ((await page.getByRole("textbox", { name: "File", exact: true }).count()) === 0) {
    await sidebar.getByRole("button", { name: "New connection" }).click();
    await page.getByRole("list", { name: "Database types" }).getByRole("button", { name: /SQLite/ }).click();
    await page.getByRole("textbox", { name: "File", exact: true }).waitFor({ timeout: 60_000 });
  }
  await page.getByRole("textbox", { name: "Name" }).fill("Shop file");
  await page.getByRole("button", { name: "Choose File" }).click();
  await answerOpenDialog("File", file);
  await page.waitForFunction((el) => el.value !== "", await page.getByRole("textbox", { name: "File", exact: true }).elementHandle(), { timeout: 10_000 });
  const chosen = await page.getByRole("textbox", { name: "File", exact: true }).inputValue();
  assert(chosen === file, `the form holds ${JSON.stringify(chosen)}, the dialog was given ${JSON.stringify(file)}`);
  await page.getByRole("button", { name: "Test", exact: true }).click();
  await form.locator(".form-msg--ok").waitFor({ timeout: 30_000 });
  await page.getByRole("button", { name: "Save" }).click();
  await list.getByRole("treeitem", { name: "Shop file" }).waitFor({ timeout: 10_000 });
  const saved = readFileSync(join(configDir, "connections.json"), "utf8");
  assert(saved.includes('"sqlite"') && saved.includes(file), "connections.json holds no SQLite connection to the file");
});

test("the tree lists the file's tables, the vec0 table said so, no shadow table, with the rows sqlite3 counts", async () => {
  const tables = fileItem.getByRole("group").getByRole("treeitem");
  await tables.first().waitFor({ timeout: 30_000 });
  const names = await tables.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
  assert(JSON.stringify(names) === JSON.stringify(["docs", "items", "vecs, virtual table (vec0)"]), `tables are ${JSON.stringify(names)}`);
  const count = sqlite3("SELECT count(*) FROM items");
  await tables.nth(1).filter({ hasText: new RegExp(`${count}$`) }).waitFor({ timeout: 15_000 });
  await page.screenshot({ path: join(artifacts, "e2e-sqlite-tree.png") });
});

const columnOf = async (grid, name) =>
  (await grid.locator("thead th").evaluateAll((ths) => ths.map((th) => th.querySelector(".data-grid__name")?.firstChild?.textContent ?? ""))).indexOf(name);
const shownColumn = async (grid, name) => (await grid.locator(`tbody tr.data-grid__row td:nth-child(${(await columnOf(grid, name)) + 1})`).allInnerTexts()).map((t) => t.trim());
const range = (panel, n) => panel.locator(".grid-bar__range").filter({ hasText: new RegExp(`^Rows 1–${n} of ${n}$`) });

test("grid: a filter (price > 30) shows exactly sqlite3's rows", async () => {
  await fileItem.getByRole("group").getByRole("treeitem", { name: "items" }).click();
  await itemsGrid.waitFor({ timeout: 30_000 });
  await itemsPanel.getByRole("button", { name: "Filter price", exact: true }).click();
  const edit = itemsPanel.getByRole("form", { name: "Edit filter" });
  await edit.getByRole("combobox", { name: "Operator" }).selectOption("greater_than");
  await edit.getByRole("textbox").first().fill("30");
  await edit.getByRole("textbox").first().press("Enter");
  const want = lines(sqlite3("SELECT id FROM items WHERE price > 30 ORDER BY id"));
  await range(itemsPanel, want.length).waitFor({ timeout: 20_000 });
  const got = await shownColumn(itemsGrid, "id");
  assert(JSON.stringify(got) === JSON.stringify(want), `ids ${JSON.stringify(got)}, sqlite3 ${JSON.stringify(want)}`);
  await page.screenshot({ path: join(artifacts, "e2e-sqlite-grid.png") });
  await itemsPanel.getByRole("button", { name: "Clear filters" }).click();
  await range(itemsPanel, 40).waitFor({ timeout: 20_000 });
});

test("grid: an edited cell is committed, and sqlite3 reads it from the file", async () => {
  const pendingBar = itemsPanel.getByRole("region", { name: "Pending changes" });
  const gridRegion = itemsPanel.getByRole("region", { name: "Grid of items" });
  const row = itemsGrid.locator("tbody tr.data-grid__row").filter({ has: page.locator('td:nth-child(2):text-is("2")') });
  await row.locator("td").nth(await columnOf(itemsGrid, "title")).dblclick();
  const input = itemsPanel.getByRole("textbox", { name: /^Edit title of row/ });
  await input.fill("edited in the grid");
  await input.press("Enter");
  await pendingBar.getByText("1 row changed, not yet written").waitFor({ timeout: 10_000 });
  await gridRegion.press("Control+s");
  await pendingBar.getByText("1 row written").waitFor({ timeout: 20_000 });
  const after = sqlite3("SELECT title || '|' || price FROM items WHERE id = 2");
  assert(after === "edited in the grid|3.0", `sqlite3 reads ${JSON.stringify(after)}`);
});

const typeInEditor = async (text) => {
  await editorPanel.locator(".cm-content").click();
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
};
test("editor: SQLite's SQL completes the file's tables, columns and sqlite-vec's functions; a SELECT answers sqlite3's rows", async () => {
  await page.keyboard.press("Control+e");
  await editorPanel.waitFor({ timeout: 10_000 });
  const options = page.locator(".cm-tooltip-autocomplete");
  const completes = async (text, option) => {
    for (let i = 0; ; i++) {
      await typeInEditor(text);
      await page.keyboard.press("Control+Space");
      const shown = await options.getByText(option, { exact: true }).waitFor({ timeout: 1_000 }).then(() => true, () => false);
      await page.keyboard.press("Escape");
      if (shown) return;
      assert(i < 15, `${JSON.stringify(text)} never completed ${option}`);
    }
  };
  await completes("SELECT * FROM ", "docs");
  await completes("SELECT items.", "price");
  await completes("SELECT vec_dist", "vec_distance_l2");
  await typeInEditor("SELECT id, title FROM items WHERE id <= 3 ORDER BY id");
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+Enter");
  const grid = editorResult.getByRole("table");
  await grid.waitFor({ timeout: 20_000 });
  const got = (await grid.locator("tbody tr.data-grid__row").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].slice(1).map((td) => td.textContent.trim()).join("|")))).join("\n");
  const want = sqlite3("SELECT id, title FROM items WHERE id <= 3 ORDER BY id");
  assert(got === want, `rows ${JSON.stringify(got)}, sqlite3 ${JSON.stringify(want)}`);
  await page.screenshot({ path: join(artifacts, "e2e-sqlite-editor.png") });
});

test("Find similar on a float[768] row lists the rows nearest it in the order sqlite-vec gives", async () => {
  await fileItem.getByRole("group").getByRole("treeitem", { name: "docs" }).click();
  const grid = docsPanel.getByRole("table", { name: "Rows of docs" });
  await grid.waitFor({ timeout: 30_000 });
  const row = grid.locator("tbody tr.data-grid__row").filter({ has: page.locator('td:nth-child(2):text-is("7")') });
  await row.locator("td").nth(2).click();
  await docsPanel.getByRole("button", { name: "Row details" }).click();
  const detail = docsPanel.getByRole("complementary", { name: /^Details of / });
  await detail.getByText("768 dimensions").waitFor({ timeout: 10_000 });
  await detail.getByRole("button", { name: "Find similar" }).click();
  const similar = page.locator("section.panel--similar:visible");
  const sgrid = similar.getByRole("table");
  await sgrid.locator("tbody tr.data-grid__row").first().waitFor({ timeout: 30_000 });
  const ids = await shownColumn(sgrid, "id");
  const want = lines(sqlite3(`SELECT id FROM docs ORDER BY vec_distance_l2(emb, (SELECT emb FROM docs WHERE id = 7)), id LIMIT ${ids.length}`));
  assert(ids.length >= 10 && JSON.stringify(ids) === JSON.stringify(want), `matches ${JSON.stringify(ids)}, sqlite3 ${JSON.stringify(want)}`);
  await page.screenshot({ path: join(artifacts, "e2e-sqlite-similar.png") });
  await page.getByRole("tab", { name: "docs", exact: true }).click();
  await docsPanel.getByRole("button", { name: "Row details" }).click();
});

test("Map: the float[768] column's layout holds every row sqlite3 counts, each topic together", async () => {
  await showTab(page, "docs — Shop file"); // as the check above leaves it (after a failure above the runner opened the page again)
  await docsPanel.getByRole("button", { name: "Map" }).click();
  const panel = page.locator('section.panel--map[aria-label="Map of docs"]:visible');
  await panel.getByRole("status").filter({ hasText: "Layout done (UMAP)" }).first().waitFor({ timeout: 240_000 });
  const out = join(artifacts, "e2e-sqlite-layout.csv");
  rmSync(out, { force: true });
  await panel.getByRole("button", { name: "Export layout…" }).click();
  const dialog = page.getByRole("dialog", { name: "Export docs layout" });
  await dialog.getByRole("button", { name: "Export…" }).click();
  answerSaveDialog("Export docs layout", out);
  await dialog.getByRole("status", { name: "Export" }).waitFor({ timeout: 30_000 });
  await dialog.getByRole("button", { name: "Close" }).click();
  const points = readFileSync(out, "utf8").trim().split("\n").slice(1).map((l) => l.split(",")).map(([id, x, y]) => ({ id, x: Number(x), y: Number(y) }));
  const topic = new Map(lines(sqlite3("SELECT id || '|' || topic FROM docs")).map((l) => l.split("|")));
  assert(points.length === topic.size && points.every((p) => topic.has(p.id)), `${points.length} points, sqlite3 counts ${topic.size}`);
  let same = 0;
  for (const p of points) {
    let best = null;
    for (const q of points) if (q !== p && (!best || Math.hypot(p.x - q.x, p.y - q.y) < Math.hypot(p.x - best.x, p.y - best.y))) best = q;
    if (topic.get(best.id) === topic.get(p.id)) same++;
  }
  assert(same / points.length > 0.95, `${same} of ${points.length} points lie nearest one of their own topic`);
  await page.screenshot({ path: join(artifacts, "e2e-sqlite-map.png") });
});
test("Test of a file that is not there asks natively to create it: No makes nothing, Yes makes an empty database the form then saves with", async () => {
  const fresh = join(artifacts, "e2e-sqlite-new.db");
  rmSync(fresh, { force: true });
  await sidebar.getByRole("button", { name: "New connection" }).click();
  await page.getByRole("list", { name: "Database types" }).getByRole("button", { name: /SQLite/ }).click();
  await page.getByRole("textbox", { name: "File", exact: true }).waitFor({ timeout: 30_000 });
  await page.getByRole("textbox", { name: "Name" }).fill("New file");
  await page.getByRole("textbox", { name: "File", exact: true }).fill(fresh);
  const title = "Change the connection’s settings";
  await page.getByRole("button", { name: "Test", exact: true }).click();
  assert(await dialogShown(title, 20_000), "Test did not ask to create the file");
  answerDialog(title, "Escape"); // closing the dialog answers No
  await form.getByText(/there is no file/).first().waitFor({ timeout: 20_000 });
  assert(!existsSync(fresh), "No made the file");
  await page.getByRole("button", { name: "Test", exact: true }).click();
  assert(await dialogShown(title, 20_000), "the second Test did not ask");
  answerDialog(title, "alt+y");
  await form.locator(".form-msg--ok").waitFor({ timeout: 30_000 });
  assert(sqlite3At(fresh, "SELECT count(*) FROM sqlite_schema") === "0", "the file made is not an empty database");
  assert(await page.getByRole("checkbox", { name: "Create the file if it is missing" }).isChecked(), "the form did not take the change");
  await page.getByRole("button", { name: "Save" }).click();
  await list.getByRole("treeitem", { name: "New file" }).waitFor({ timeout: 10_000 });
});

test("no errors in the page console", async () => {
  const errors = consoleErrors("sqlite");
  assert(errors.length === 0, errors.join(" | "));
});
