// 04-editor (issue 14): the query editor of the demo node, opened with Ctrl+E: GraphQL reads
// and REST lines, each result checked against what weaviate-server holds; writes ask natively
// first; the history and the completion from the live schema. Its setup opens Article of
// "Demo Weaviate" from the tree.
import { test } from "@playwright/test";
import { join } from "node:path";
import { answerDialog, assert, need, useApp } from "./lib.mjs";
import { held as heldOn, openTable } from "./weaviate.mjs";

const artifacts = need("APP_E2E_ARTIFACTS");
const demoAddr = need("APP_E2E_DEMO_ADDR");

let page, held, articlePanel, articleGrid;
/** takePage takes the spec's page and the locators its tests share. */
const takePage = async (p) => {
  page = p;
  articlePanel = page.locator('section.panel--table[aria-label="Article"]');
  articleGrid = articlePanel.getByRole("table", { name: "Rows of Article" });
  held = await heldOn(demoAddr);
};
let editorPanel, editorResult;
useApp({
  setup: async (p, { first }) => {
    await takePage(p);
    editorPanel = page.locator('section.panel--editor[aria-label="Query Demo Weaviate"]');
    editorResult = editorPanel.locator(".editor-result");
    if (first) await openTable(page, "Demo Weaviate", "Article");
  },
});

/** runInEditor replaces the editor's text with `text` and runs it with Ctrl+Enter. */
async function runInEditor(text) {
  const content = editorPanel.locator(".cm-content");
  await content.click();
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
  await page.keyboard.press("Escape"); // closes the completion list, if open
  await page.keyboard.press("Control+Enter");
}

test("Ctrl+E opens the connection's query editor; a Get shows as a grid with uuid from _additional.id", async () => {
  await page.getByRole("tab", { name: "Article", exact: true }).click();
  await articleGrid.waitFor({ timeout: 10_000 });
  await page.keyboard.press("Control+e");
  await editorPanel.waitFor({ timeout: 10_000 });
  await runInEditor("{ Get { Article(limit: 3) { title wordCount _additional { id } } } }");
  const grid = editorPanel.getByRole("table", { name: "Rows of Article" });
  await grid.waitFor({ timeout: 20_000 });
  const heads = (await grid.locator("thead th").allInnerTexts()).map((t) => t.trim().split(/\s/)[0]).filter(Boolean);
  assert(heads.includes("uuid") && heads.includes("title") && heads.includes("wordCount") && !heads.includes("_additional"), `headers ${JSON.stringify(heads)}`);
  const ids = (await grid.locator("tbody tr.data-grid__row td:nth-child(2)").allInnerTexts()).map((t) => t.trim());
  assert(ids.length === 3 && ids.every((id) => held.some((o) => o.id === id)), `uuids ${JSON.stringify(ids)}`);
});

test("a nearVector answers a grid with a distance column, the object itself nearest", async () => {
  const probe = held.find((o) => Array.isArray(o.vector) && o.vector.length > 0);
  assert(probe, "no Article with a vector");
  await runInEditor(`{ Get { Article(nearVector: { vector: ${JSON.stringify(probe.vector)} }, limit: 3) { title _additional { id distance } } } }`);
  const grid = editorPanel.getByRole("table", { name: "Rows of Article" });
  await grid.locator("thead th").filter({ hasText: /^distance/ }).waitFor({ timeout: 20_000 });
  const heads = (await grid.locator("thead th").allInnerTexts()).map((t) => t.trim().split(/\s/)[0]).filter(Boolean);
  assert(heads.includes("distance") && heads.includes("uuid"), `headers ${JSON.stringify(heads)}`);
  const first = (await grid.locator("tbody tr.data-grid__row").first().locator("td:nth-child(2)").innerText()).trim();
  // Articles of one topic may share a vector: the nearest is the probe or one just as near.
  const same = held.filter((o) => JSON.stringify(o.vector) === JSON.stringify(probe.vector)).map((o) => o.id);
  assert(same.includes(first), `nearest is ${first}, want one of ${JSON.stringify(same)}`);
  await page.screenshot({ path: join(artifacts, "e2e-editor-nearvector.png") });
});

test("the hybrid template runs on a collection without a vectorizer, with the rows the server answers for its text (issue 23)", async () => {
  const content = editorPanel.locator(".cm-content");
  await content.click();
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Delete");
  await editorPanel.getByRole("combobox", { name: "Insert a template" }).selectOption("hybrid");
  await content.filter({ hasText: "has no vectorizer" }).waitFor({ timeout: 10_000 });
  const text = await page.evaluate(() => document.querySelector(".panel--editor .cm-content")?.textContent ?? "");
  await content.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Control+Enter");
  const grid = editorPanel.getByRole("table", { name: "Rows of Article" });
  await grid.locator("thead th").filter({ hasText: /^score/ }).waitFor({ timeout: 20_000 });
  const ids = (await grid.locator("tbody tr.data-grid__row td:nth-child(2)").allInnerTexts()).map((t) => t.trim());
  const query = (await page.evaluate(() => [...document.querySelectorAll(".panel--editor .cm-line")].map((l) => l.textContent).join("\n")));
  const want = await fetch(`http://${demoAddr}/v1/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) }).then((r) => r.json());
  assert(!want.errors, `the server refuses the template: ${JSON.stringify(want.errors)} (${JSON.stringify(text)})`);
  const wantIds = want.data.Get.Article.map((o) => o._additional.id);
  assert(JSON.stringify(ids) === JSON.stringify(wantIds), `rows ${JSON.stringify(ids)}, the server answers ${JSON.stringify(wantIds)}`);
});

test("an Aggregate shows as collapsible JSON with the count weaviate-server holds", async () => {
  await runInEditor("{ Aggregate { Article { meta { count } } } }");
  await editorPanel.getByRole("region", { name: "JSON result" }).waitFor({ timeout: 20_000 });
  await page.screenshot({ path: join(artifacts, "e2e-editor-json.png") });
  const json = editorPanel.getByRole("region", { name: "JSON result" });
  await json.waitFor({ timeout: 20_000 });
  const text = await json.innerText();
  assert(text.includes(`"count": ${held.length}`), `JSON ${JSON.stringify(text)}`);
  assert((await json.locator("details").count()) > 2, "no collapsible nodes");
});

test("a REST GET line answers the JSON of the node with its status", async () => {
  await runInEditor("GET /schema");
  await editorResult.getByText(/^HTTP 200 · /).waitFor({ timeout: 20_000 });
  const text = await editorPanel.getByRole("region", { name: "JSON result" }).innerText();
  assert(text.includes('"Article"'), `JSON ${JSON.stringify(text.slice(0, 200))}`);
});

test("a GraphQL mutation is refused inline with the spec's reason", async () => {
  await runInEditor("mutation { Add { id } }");
  const alert = editorResult.getByRole("alert");
  await alert.waitFor({ timeout: 20_000 });
  const text = await alert.innerText();
  assert(/GraphQL mutation is not available/.test(text) && /Writes go through REST/.test(text), `alert ${JSON.stringify(text)}`);
});

test("a write REST line asks natively first; No sends nothing", async () => {
  const newId = "e2e00000-0000-4000-8000-000000000014";
  await runInEditor(`POST /v1/objects {"class": "Article", "id": "${newId}", "properties": {"title": "Not written"}}`);
  answerDialog("Run a write on “Demo Weaviate”", "Escape"); // closing the dialog answers No
  await editorResult.getByText(/^Not run/).waitFor({ timeout: 20_000 });
  const r = await fetch(`http://${demoAddr}/v1/objects/Article/${newId}`);
  assert(r.status === 404, `the object answers ${r.status}`);
});

test("a write REST line answered Yes in the native dialog is written; a DELETE asks again (cannot be undone) and removes it", async () => {
  const newId = "e2e00000-0000-4000-8000-000000000015";
  await runInEditor(`POST /v1/objects {"class": "Article", "id": "${newId}", "properties": {"title": "Written from the editor"}}`);
  answerDialog("Run a write on “Demo Weaviate”", "alt+y");
  await editorResult.getByText(/^HTTP 200 · /).waitFor({ timeout: 20_000 });
  let r = await fetch(`http://${demoAddr}/v1/objects/Article/${newId}`);
  assert(r.status === 200, `after Yes the object answers ${r.status}`);
  await runInEditor(`DELETE /v1/objects/Article/${newId}`);
  answerDialog("Run a write on “Demo Weaviate”", "alt+y");
  await editorResult.getByText(/^HTTP 204 · /).waitFor({ timeout: 20_000 });
  r = await fetch(`http://${demoAddr}/v1/objects/Article/${newId}`);
  assert(r.status === 404, `after the DELETE the object answers ${r.status}`);
});

test("the editor's history lists the runs, searchable", async () => {
  await editorPanel.getByRole("button", { name: "History" }).click();
  const hist = editorPanel.getByRole("complementary", { name: "History" });
  await hist.getByText("GET /schema").waitFor({ timeout: 10_000 });
  await hist.getByRole("searchbox").fill("aggregate");
  // The search is read from the backend: wait for its answer (GET /schema leaves the list),
  // not for the Aggregate entry, which the unfiltered list already shows.
  await hist.getByText("GET /schema").waitFor({ state: "detached", timeout: 10_000 });
  await hist.getByText("{ Aggregate { Article { meta { count } } } }").waitFor({ timeout: 10_000 });
  await editorPanel.getByRole("button", { name: "History" }).click();
});

test("the editor completes collections and a collection's properties from the live schema", async () => {
  const content = editorPanel.locator(".cm-content");
  await content.click();
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText("{ Get { Art");
  await page.keyboard.press("Control+Space");
  const list = page.locator(".cm-tooltip-autocomplete");
  await list.getByText("Article", { exact: true }).waitFor({ timeout: 10_000 });
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText("{ Get { Article { ");
  await page.keyboard.press("Control+Space");
  await list.getByText("_additional", { exact: true }).waitFor({ timeout: 10_000 });
  const options = (await list.locator("li").allInnerTexts()).map((t) => t.trim());
  assert(options.includes("title") && options.includes("wordCount"), `options ${JSON.stringify(options)}`);
  await page.keyboard.press("Escape");
});
