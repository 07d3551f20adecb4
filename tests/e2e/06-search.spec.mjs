// 06-search (issue 23, item 3): the search panel of Article on the demo node: bm25, hybrid
// and a pasted nearVector, and the grid's filters narrowing them, each held to
// weaviate-server's own answer for the same request (uuids and order). Its setup opens
// Article of "Demo Weaviate" from the tree.
import { test } from "@playwright/test";
import { assert, need, showTab, useApp } from "./lib.mjs";
import { held as heldOn, openTable, runSearch, searchChecks, serverIds } from "./weaviate.mjs";

const demoAddr = need("APP_E2E_DEMO_ADDR");

let page, held, articlePanel, articleGrid;
/** takePage takes the spec's page and the locators its tests share. */
const takePage = async (p) => {
  page = p;
  articlePanel = page.locator('section.panel--table[aria-label="Article"]');
  articleGrid = articlePanel.getByRole("table", { name: "Rows of Article" });
  held = await heldOn(demoAddr);
};
useApp({
  setup: async (p, { first }) => {
    await takePage(p);
    if (first) await openTable(page, "Demo Weaviate", "Article");
  },
});

test("the search panel's bm25 (in title, scores explained), hybrid (ranked fusion, scores explained) and pasted nearVector answer weaviate-server's own matches in its order (issue 23)", async () => {
  await articlePanel.getByRole("button", { name: "Search…" }).click();
  const panel = page.locator('section.panel--search[aria-label="Search Article"]:visible');
  await panel.getByRole("search").waitFor({ timeout: 10_000 });
  const near = await panel.getByRole("search").getByRole("combobox", { name: "Search by" }).locator("option").allInnerTexts();
  assert(!near.includes("Near text"), `Article has no vectorizer, yet the modes are ${JSON.stringify(near)}`);
  await searchChecks(panel, "GraphQL node:", "e2e-search-panel.png", held);
});

test("the search panel narrows its matches by the grid's filters (wordCount > 1000) exactly as the server does", async () => {
  // The search tab of the check above, which the window does not remember (after a failure above the runner opened the page again).
  if ((await page.locator('section.panel--search[aria-label="Search Article"]:visible').count()) === 0) {
    await showTab(page, "Article — Demo Weaviate");
    await articlePanel.getByRole("button", { name: "Search…" }).click();
  }
  const panel = page.locator('section.panel--search[aria-label="Search Article"]:visible');
  await panel.getByRole("button", { name: "+ Filter" }).click();
  const editor = panel.getByRole("form", { name: "Edit filter" });
  await editor.getByRole("combobox", { name: "Column" }).selectOption("wordCount");
  await editor.getByRole("combobox", { name: "Operator" }).selectOption("greater_than");
  await editor.getByRole("textbox", { name: "Value" }).fill("1000");
  await editor.getByRole("textbox", { name: "Value" }).press("Enter");
  await editor.waitFor({ state: "detached", timeout: 5_000 });
  const got = await runSearch(panel, async (form) => {
    await form.getByRole("combobox", { name: "Search by" }).selectOption({ label: "Keyword (bm25)" });
    await form.getByRole("searchbox", { name: "Words" }).fill("programming");
    await form.getByRole("spinbutton", { name: "Limit" }).fill("25");
  });
  const want = await serverIds(demoAddr, `{ Get { Article(where: {path: ["wordCount"], operator: GreaterThan, valueInt: 1000}, bm25: {query: "programming"}, limit: 25) { _additional { id } } } }`);
  assert(want.length > 0, "the server matches nothing: the check would prove nothing");
  assert(JSON.stringify(got.ids) === JSON.stringify(want), `filtered bm25 ${JSON.stringify(got.ids)}, the server's ${JSON.stringify(want)}`);
  const wordCounts = new Map(held.map((o) => [o.id, o.wordCount]));
  assert(got.ids.every((id) => wordCounts.get(id) > 1000), `a match outside the filter: ${JSON.stringify(got.ids)}`);
  await page.getByRole("tab", { name: "Article", exact: true }).click();
});
