// 03-grid (issue 14): Article of the demo node opened from the tree, its typed filters (one of
// each operator family), sort, page size and vector cells, checked against what the real
// weaviate-server holds (read here with its own REST API, not through the app); the filters
// that cannot run say why, and Author's refusal links to its definition in words. Its setup
// opens "Demo Weaviate" from the tree.
import { test } from "@playwright/test";
import { join } from "node:path";
import { assert, need, useApp } from "./lib.mjs";
import { applyFilter, clearFilters, held as heldOn, openConnection, refusal, resetFilters, shownIds } from "./weaviate.mjs";

const artifacts = need("APP_E2E_ARTIFACTS");
const demoAddr = need("APP_E2E_DEMO_ADDR");

let page, list, demo, held, articlePanel, articleGrid;
useApp({
  setup: async (p, { first }) => {
    page = p;
    list = page.getByRole("tree", { name: "Saved connections" });
    demo = list.getByRole("treeitem", { name: "Demo Weaviate", exact: true });
    articlePanel = page.locator('section.panel--table[aria-label="Article"]');
    articleGrid = articlePanel.getByRole("table", { name: "Rows of Article" });
    held = await heldOn(demoAddr);
    if (first) await openConnection(page, "Demo Weaviate");
  },
});

test("opening Article shows a grid whose first column is uuid and last is vector", async () => {
  await list.focus();
  await page.keyboard.press("ArrowDown");
  const active = await list.getAttribute("aria-activedescendant");
  assert(active?.endsWith("-Article"), `active row is ${active}`);
  await page.keyboard.press("Enter");
  await page.getByRole("tab", { name: "Article", exact: true, selected: true }).waitFor({ timeout: 5_000 });
  const grid = page.getByRole("table", { name: "Rows of Article" });
  await grid.waitFor({ timeout: 30_000 });
  const headers = await grid.locator("thead th").evaluateAll((ths) =>
    ths.slice(1).map((th) => th.querySelector(".data-grid__name")?.textContent ?? ""),
  );
  assert(headers[0] === "uuid", `first column is ${JSON.stringify(headers[0])} (${headers.join(",")})`);
  assert(headers[headers.length - 1] === "vector", `last column is ${JSON.stringify(headers.at(-1))} (${headers.join(",")})`);
  for (const p of ["title", "summary", "published", "wordCount", "tags", "writtenBy"]) {
    assert(headers.includes(p), `no ${p} column in ${headers.join(",")}`);
  }
  const rows = grid.locator("tbody tr");
  const n = await rows.count();
  assert(n === 10, `${n} rows, want the 10 demo articles`);
  const cells = await rows.first().locator("td").allInnerTexts();
  assert(/^[0-9a-f-]{36}$/.test(cells[1]), `uuid cell is ${JSON.stringify(cells[1])}`);
  // The vector cell is a preview: its first numbers and its length (expanded below).
  assert(/^\[[-0-9., e]+\] \(4 values\)$/.test(cells[cells.length - 1].trim()), `vector cell is ${JSON.stringify(cells.at(-1))}`);
  const tags = JSON.parse(cells[headers.indexOf("tags") + 1]);
  assert(Array.isArray(tags), `tags cell is not a JSON array: ${JSON.stringify(cells[headers.indexOf("tags") + 1])}`);
  await page.getByText("Rows 1–10 of 10").waitFor({ timeout: 5_000 });
  await page.screenshot({ path: join(artifacts, "e2e-article.png") });
});

const expectIds = (pred) => held.filter(pred).map((o) => o.id).sort();
for (const [label, column, operator, values, pred] of [
  ["equals", "title", "equals", ["Jazz in Amsterdam"], (o) => o.title === "Jazz in Amsterdam"],
  ["greater than on a number", "wordCount", "greater_than", ["2000"], (o) => o.wordCount > 2000],
  ["less than on a date", "published", "less_than", ["2023-06-01T00:00:00Z"], (o) => Date.parse(o.published) < Date.parse("2023-06-01T00:00:00Z")],
  ["contains", "title", "contains", ["kernel"], (o) => /kernel/i.test(o.title)],
  ["in list on an array", "tags", "in", ["databases, ai"], (o) => (o.tags ?? []).some((t) => t === "databases" || t === "ai")],
  ["between, both bounds inclusive", "wordCount", "between", ["1200", "1600"], (o) => o.wordCount >= 1200 && o.wordCount <= 1600],
  ["is NULL", "summary", "is_null", [], (o) => o.summary === undefined || o.summary === null || o.summary === ""],
  ["is empty", "tags", "is_empty", [], (o) => !o.tags || o.tags.length === 0],
]) {
  test(`grid filter ${label}: ${column} shows exactly the rows weaviate-server holds`, async () => {
    const want = expectIds(pred);
    try {
      await applyFilter(articlePanel, column, operator, values);
      const got = await shownIds(articlePanel, articleGrid, want.length);
      assert(JSON.stringify(got) === JSON.stringify(want), `rows ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      await clearFilters(articlePanel);
      await shownIds(articlePanel, articleGrid, held.length);
    } finally {
      await resetFilters(articlePanel); // a failure here must not filter the next checks
    }
  });
}

test("grid filters combine with AND", async () => {
  const want = expectIds((o) => o.wordCount > 1000 && (o.tags ?? []).includes("programming"));
  try {
    await applyFilter(articlePanel, "wordCount", "greater_than", ["1000"]);
    await applyFilter(articlePanel, "tags", "in", ["programming"]);
    const got = await shownIds(articlePanel, articleGrid, want.length);
    assert(want.length > 0 && JSON.stringify(got) === JSON.stringify(want), `rows ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    await clearFilters(articlePanel);
    await shownIds(articlePanel, articleGrid, held.length);
  } finally {
    await resetFilters(articlePanel);
  }
});

test("grid: REGEX is explained as unavailable, and applied anyway it is refused with the reason and no rows", async () => {
  try {
    const why = await refusal(articlePanel, articleGrid, "title", "regex", ["^Rust"], /no regular-expression filter/);
    assert(/^Cannot run: Weaviate has no regular-expression filter/.test(why), `chip says ${JSON.stringify(why)}`);
    await page.screenshot({ path: join(artifacts, "e2e-grid-refused.png") });
    await clearFilters(articlePanel);
    await shownIds(articlePanel, articleGrid, held.length);
  } finally {
    await resetFilters(articlePanel);
  }
});

test("grid: a date that is not full RFC 3339 is refused with the reason and no rows", async () => {
  try {
    const why = await refusal(articlePanel, articleGrid, "published", "less_than", ["2024-01-01"], /RFC 3339/);
    assert(why.includes('"2024-01-01" is not a full RFC 3339 timestamp'), `chip says ${JSON.stringify(why)}`);
    await clearFilters(articlePanel);
    await shownIds(articlePanel, articleGrid, held.length);
  } finally {
    await resetFilters(articlePanel);
  }
});

test("grid: sort by header click (ascending, descending) follows the database's order", async () => {
  const counts = held.map((o) => o.wordCount).sort((a, b) => a - b);
  const header = articleGrid.locator("thead th").filter({ has: page.getByRole("button", { name: /^Sort by wordCount/ }) });
  const col = (await articleGrid.locator("thead th").evaluateAll((ths) => ths.map((th) => th.querySelector(".data-grid__name")?.firstChild?.textContent ?? ""))).indexOf("wordCount");
  const shown = async () => (await articleGrid.locator(`tbody tr.data-grid__row td:nth-child(${col + 1})`).allInnerTexts()).map(Number);
  await articlePanel.getByRole("button", { name: /^Sort by wordCount/ }).click();
  await header.and(page.locator('[aria-sort="ascending"]')).waitFor({ timeout: 10_000 });
  await articlePanel.locator(".grid-bar__range").filter({ hasText: /^Rows 1–10 of 10$/ }).waitFor({ timeout: 10_000 });
  let got = await shown();
  assert(JSON.stringify(got) === JSON.stringify(counts), `ascending ${JSON.stringify(got)}, want ${JSON.stringify(counts)}`);
  await articlePanel.getByRole("button", { name: /^Sort by wordCount/ }).press("Enter");
  await header.and(page.locator('[aria-sort="descending"]')).waitFor({ timeout: 10_000 });
  await articlePanel.locator(".grid-bar__range").filter({ hasText: /^Rows 1–10 of 10$/ }).waitFor({ timeout: 10_000 });
  got = await shown();
  assert(JSON.stringify(got) === JSON.stringify([...counts].reverse()), `descending ${JSON.stringify(got)}`);
  await articlePanel.getByRole("button", { name: /^Sort by wordCount/ }).click(); // off
  await header.and(page.locator('[aria-sort="none"]')).waitFor({ timeout: 10_000 });
});

test("grid: a page size choice reads the rows again from row 1, with the database's count", async () => {
  await articlePanel.getByRole("combobox", { name: "Rows per page" }).selectOption("50");
  await articlePanel.locator(".grid-bar__range").filter({ hasText: /^Rows 1–10 of 10$/ }).waitFor({ timeout: 10_000 });
  const next = articlePanel.getByRole("button", { name: "Next ›" });
  assert(await next.isDisabled(), "Next is enabled on the last page");
  await articlePanel.getByRole("combobox", { name: "Rows per page" }).selectOption("100");
});

test("grid: a vector cell shows a preview and expands to the full vector weaviate-server holds, read on demand", async () => {
  const first = articleGrid.locator("tbody tr.data-grid__row").first();
  const id = (await first.locator("td").nth(1).innerText()).trim();
  const cell = (await first.locator("td").last().innerText()).trim();
  const want0 = held.find((o) => o.id === id)?.vector;
  assert(cell.endsWith(`(${want0.length} values)`), `the vector cell shows ${JSON.stringify(cell)}`);
  await first.getByRole("button", { name: "Show the full vector of row 1" }).click();
  const viewer = articlePanel.getByRole("region", { name: "vector of row 1" });
  await viewer.locator("pre").filter({ hasText: /^\[/ }).waitFor({ timeout: 10_000 });
  const full = JSON.parse(await viewer.locator("pre").innerText());
  const want = held.find((o) => o.id === id)?.vector;
  assert(JSON.stringify(full) === JSON.stringify(want), `expanded ${JSON.stringify(full)}, the node holds ${JSON.stringify(want)}`);
  await viewer.getByRole("button", { name: "Close the full value" }).click();
  await viewer.waitFor({ state: "detached", timeout: 5_000 });
});

test("grid: on Author (no indexNullState) is NULL is explained as unavailable and refused with the reason", async () => {
  await demo.getByRole("group").getByRole("treeitem", { name: "Author" }).click();
  await page.getByRole("tab", { name: "Author", selected: true }).waitFor({ timeout: 5_000 });
  const panel = page.locator('section.panel--table[aria-label="Author"]');
  const grid = panel.getByRole("table", { name: "Rows of Author" });
  await grid.waitFor({ timeout: 30_000 });
  const why = await refusal(panel, grid, "name", "is_null", [], /needs indexNullState, which collection Author does not enable/);
  assert(why.includes("indexNullState") && why.includes("Author"), `chip says ${JSON.stringify(why)}`);
  await page.screenshot({ path: join(artifacts, "e2e-grid-author-refused.png") });
});

// Issue 23, item 2: the refusal above links to the setting behind it, in the collection's
// definition in words, held to the server's own schema and shards.
test("the refusal's See the setting opens Author's definition in words at indexNullState, as the server's schema and shards hold it (issue 23)", async () => {
  const panel = page.locator('section.panel--table[aria-label="Author"]');
  const schema = await fetch(`http://${demoAddr}/v1/schema/Author`).then((r) => r.json());
  await panel.getByRole("list", { name: "Filters" }).getByRole("button", { name: "See the setting" }).click();
  const details = panel.getByRole("region", { name: "Details of Author" });
  const marked = details.locator(".details__item[data-highlight]");
  await marked.waitFor({ timeout: 5_000 });
  const text = await marked.innerText();
  // The server leaves a false switch out of its schema document.
  assert(/Null state indexed/.test(text) && /no: the is null and is not null filters are refused/.test(text) && !schema.invertedIndexConfig.indexNullState,
    `the marked setting says ${JSON.stringify(text)}; the server's indexNullState is ${schema.invertedIndexConfig.indexNullState}`);
  assert(await marked.evaluate((el) => el === document.activeElement), "the marked setting does not have the focus");
  const item = async (label) => (await details.locator(".details__item").filter({ has: page.locator(`dt:text-is("${label}")`) }).first().locator("dd").innerText()).trim();
  assert((await item("Distance")).startsWith(schema.vectorIndexConfig.distance), `distance ${await item("Distance")}, the server's ${schema.vectorIndexConfig.distance}`);
  assert((await item("Index type")).startsWith(schema.vectorIndexType), `index type ${await item("Index type")}`);
  assert((await item("Replication factor")).startsWith(String(schema.replicationConfig.factor)), `replication ${await item("Replication factor")}`);
  for (const p of schema.properties) assert((await item(p.name)).startsWith(p.dataType[0]), `property ${p.name}: ${await item(p.name)}`);
  const shards = details.getByRole("table", { name: "Shards" });
  await shards.waitFor({ timeout: 10_000 });
  const rows = (await shards.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)))).map((r) => [r[0], r[1], Number(r[2].replace(/,/g, ""))]);
  const nodes = await fetch(`http://${demoAddr}/v1/nodes/Author?output=verbose`).then((r) => r.json());
  const want = nodes.nodes.flatMap((n) => n.shards.map((s) => [n.name, s.name, s.objectCount]));
  assert(JSON.stringify(rows) === JSON.stringify(want), `shards ${JSON.stringify(rows)}, the server's ${JSON.stringify(want)}`);
  await page.screenshot({ path: join(artifacts, "e2e-collection-details.png") });
  await details.getByRole("button", { name: "Back to rows" }).click();
  await clearFilters(panel);
  await panel.locator(".grid-bar__range").filter({ hasText: /^Rows 1–4 of 4$/ }).waitFor({ timeout: 20_000 });
});
