// 05-editing (issue 14): editing Article in the grid of the demo node: every change is read
// back from weaviate-server's own REST API, and Article is left as the demo loaded it (the
// specs after this one do not depend on it); Find similar from a row's details. Its setup
// opens Article of "Demo Weaviate" from the tree.
import { test } from "@playwright/test";
import { join } from "node:path";
import { answerDialog, assert, need, useApp } from "./lib.mjs";
import { held as heldOn, openTable, shownIds } from "./weaviate.mjs";

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
let pendingBar, gridRegion;
useApp({
  setup: async (p, { first }) => {
    await takePage(p);
    pendingBar = articlePanel.getByRole("region", { name: "Pending changes" });
    gridRegion = articlePanel.getByRole("region", { name: "Grid of Article" });
    if (first) await openTable(page, "Demo Weaviate", "Article");
  },
});

// Issue 14, editing in the grid: every change is read back from weaviate-server's own REST
// API, and Article is left as the demo loaded it (later checks do not depend on it).
const objectOf = async (id) => {
  const r = await fetch(`http://${demoAddr}/v1/objects/Article/${id}?include=vector`);
  return r.status === 200 ? r.json() : null;
};
/** setTitle writes an Article's title straight through weaviate-server's REST API (to put a row back). */
const setTitle = (id, title) =>
  fetch(`http://${demoAddr}/v1/objects/Article/${id}?class=Article`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ class: "Article", properties: { title } }),
  });
/** discardPending drops whatever a check left pending (nothing to do when nothing is). */
async function discardPending() {
  const discard = pendingBar.getByRole("button", { name: "Discard all" });
  if ((await discard.count()) > 0 && (await discard.isEnabled())) await discard.click({ timeout: 5_000 }).catch(() => {});
}
/** rowOf is the grid row of the object with uuid `id`. */
const rowOf = (id) => articleGrid.locator("tbody tr.data-grid__row").filter({ has: page.locator(`td:text-is("${id}")`) });
/** openTitle opens the cell editor on the title of the row with uuid `id` and returns its input. */
async function openTitle(id) {
  const heads = await articleGrid.locator("thead th").evaluateAll((ths) => ths.map((th) => th.querySelector(".data-grid__name")?.textContent ?? ""));
  await rowOf(id).locator("td").nth(heads.indexOf("title")).dblclick();
  return articlePanel.getByRole("textbox", { name: /^Edit title of row/ });
}
/** editTitle makes the title cell of the row with uuid `id` active and types `text` into it. */
async function editTitle(id, text) {
  const input = await openTitle(id);
  await input.fill(text);
  await input.press("Enter");
}

test("grid: an edited cell is committed as a PATCH of that cell alone, read back from the server", async () => {
  await page.getByRole("tab", { name: "Article", exact: true }).click();
  await shownIds(articlePanel, articleGrid, held.length);
  const target = held[0];
  try {
    await editTitle(target.id, "Edited in the grid");
    await pendingBar.getByText("1 row changed, not yet written").waitFor({ timeout: 10_000 });
    await gridRegion.press("Control+s");
    await pendingBar.getByText("1 row written").waitFor({ timeout: 20_000 });
    const after = await objectOf(target.id);
    assert(after?.properties.title === "Edited in the grid", `title on the server is ${JSON.stringify(after?.properties.title)}`);
    for (const k of ["summary", "wordCount", "tags", "published"]) {
      assert(JSON.stringify(after.properties[k]) === JSON.stringify(target[k]), `${k} changed: ${JSON.stringify(after.properties[k])} vs ${JSON.stringify(target[k])}`);
    }
    await editTitle(target.id, target.title);
    await gridRegion.press("Control+s");
    await pendingBar.getByText("1 row written").waitFor({ timeout: 20_000 });
    assert((await objectOf(target.id))?.properties.title === target.title, "the title was not restored");
  } finally {
    // Whatever happened, nothing of this check stays pending, and the row is as the demo
    // loaded it, for the next checks.
    await discardPending();
    if ((await objectOf(target.id))?.properties.title !== target.title) await setTitle(target.id, target.title);
  }
});

test("grid: a field clicked while a cell is being edited gets the keyboard; the edit is recorded, nothing typed goes to the grid", async () => {
  await articlePanel.getByRole("button", { name: "+ Filter" }).click();
  const form = articlePanel.getByRole("form", { name: "Edit filter" });
  const field = form.getByRole("textbox").first();
  await field.waitFor({ timeout: 5_000 });
  try {
    await (await openTitle(held[3].id)).fill("Typed mid-edit");
    await field.click();
    await page.keyboard.type("abc");
    const typed = await field.inputValue();
    assert(typed === "abc", `the filter field holds ${JSON.stringify(typed)}`);
    const editors = await articlePanel.getByRole("textbox", { name: /^Edit / }).count();
    assert(editors === 0, `${editors} cell editors open after typing into the filter field`);
    await pendingBar.getByText("1 row changed, not yet written").waitFor({ timeout: 5_000 });
    await rowOf(held[3].id).getByText("Typed mid-edit", { exact: true }).waitFor({ timeout: 5_000 });
  } finally {
    await form.getByRole("button", { name: "Cancel" }).click({ timeout: 5_000 }).catch(() => {});
    await discardPending();
  }
  await pendingBar.waitFor({ state: "detached", timeout: 5_000 });
});

test("grid: a commit where one row fails keeps that row pending with its reason and applies the others", async () => {
  const [ok, gone] = [held[1], held[2]];
  await editTitle(ok.id, "Applied");
  await editTitle(gone.id, "Never applied");
  await pendingBar.getByText("2 rows changed, not yet written").waitFor({ timeout: 10_000 });
  await page.screenshot({ path: join(artifacts, "e2e-grid-pending.png") });
  // Another client deletes one of the rows before the commit.
  const saved = await objectOf(gone.id);
  const del = await fetch(`http://${demoAddr}/v1/objects/Article/${gone.id}`, { method: "DELETE" });
  assert(del.status === 204, `DELETE answered ${del.status}`);
  try {
    await pendingBar.getByRole("button", { name: "Commit" }).click();
    await pendingBar.getByText(/^1 row written; 1 row not: it stays pending/).waitFor({ timeout: 20_000 });
    assert((await objectOf(ok.id))?.properties.title === "Applied", "the row that could be written was not");
    // The failed row is gone from the page (re-read after the commit), so the bar names it.
    const failures = pendingBar.getByRole("list", { name: "Rows not applied" });
    await failures.getByText(new RegExp(`^${gone.id}: object ${gone.id} does not exist in Article`)).waitFor({ timeout: 5_000 });
    await pendingBar.getByText("1 row changed, not yet written").waitFor({ timeout: 5_000 });
    await page.screenshot({ path: join(artifacts, "e2e-grid-commit-failed.png") });
  } finally {
    // Whatever happened, nothing of this check stays pending for the next one.
    await discardPending();
    const back = await fetch(`http://${demoAddr}/v1/objects`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ class: "Article", id: saved.id, properties: saved.properties, vector: saved.vector }),
    });
    assert(back.status === 200, `restoring the deleted row answered ${back.status}`);
    await setTitle(ok.id, ok.title);
  }
});

test("grid: Add row writes a new object; Delete row asks natively how many, No keeps it and Yes deletes it", async () => {
  await articlePanel.getByRole("button", { name: "+ Add row" }).click();
  const added = articleGrid.locator("tbody tr.data-grid__row--new");
  await added.waitFor({ timeout: 5_000 });
  const heads = await articleGrid.locator("thead th").evaluateAll((ths) => ths.map((th) => th.querySelector(".data-grid__name")?.textContent ?? ""));
  await added.locator("td").nth(heads.indexOf("title")).dblclick();
  await articlePanel.getByRole("textbox", { name: "Edit title of row new" }).fill("Added in the grid");
  await articlePanel.getByRole("textbox", { name: "Edit title of row new" }).press("Enter");
  await pendingBar.getByRole("button", { name: "Commit" }).click();
  await pendingBar.getByText("1 row written").waitFor({ timeout: 20_000 });
  const found = await fetch(`http://${demoAddr}/v1/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: '{ Get { Article(where: {path: ["title"], operator: Equal, valueText: "Added in the grid"}) { _additional { id } } } }' }),
  }).then((r) => r.json());
  const id = found.data.Get.Article[0]?._additional.id;
  assert(id, `the added row is not on the server: ${JSON.stringify(found)}`);

  const row = articleGrid.locator("tbody tr.data-grid__row").filter({ has: page.locator(`td:text-is("${id}")`) });
  await row.waitFor({ timeout: 20_000 });
  await row.locator("td.data-grid__gutter").click();
  await articlePanel.getByRole("button", { name: "Delete row" }).click();
  await pendingBar.getByText("1 row changed, not yet written").waitFor({ timeout: 5_000 });
  await pendingBar.getByRole("button", { name: "Commit" }).click();
  answerDialog("Delete 1 row from Article", "Escape"); // closing the dialog answers No
  await pendingBar.getByText("Nothing was written: the deletion was not confirmed.").waitFor({ timeout: 20_000 });
  assert((await objectOf(id)) !== null, "the row was deleted although the dialog answered No");
  await pendingBar.getByRole("button", { name: "Commit" }).click();
  answerDialog("Delete 1 row from Article", "alt+y");
  await pendingBar.getByText("1 row written").waitFor({ timeout: 20_000 });
  assert((await objectOf(id)) === null, "the row still exists after Yes");
  await page.screenshot({ path: join(artifacts, "e2e-grid-edit.png") });
});

test("grid: Find similar opens the rows nearest the row's vector in a tab, with distance, in weaviate-server's order", async () => {
  const probe = held.find((o) => Array.isArray(o.vector) && o.vector.length > 0);
  const row = articleGrid.locator("tbody tr.data-grid__row").filter({ has: page.locator(`td:text-is("${probe.id}")`) });
  await row.locator("td").nth(2).click();
  await articlePanel.getByRole("button", { name: "Row details" }).click();
  const detail = articlePanel.getByRole("complementary", { name: `Details of ${probe.id}` });
  await detail.getByText(`${probe.vector.length} dimensions`).waitFor({ timeout: 5_000 });
  await detail.getByRole("button", { name: "Find similar" }).click();
  const panel = page.locator(`section.panel--similar[aria-label="Similar to ${probe.id}"]`);
  const grid = panel.getByRole("table");
  await grid.locator("tbody tr.data-grid__row").first().waitFor({ timeout: 20_000 });
  const heads = await grid.locator("thead th").evaluateAll((ths) => ths.map((th) => th.querySelector(".data-grid__name")?.textContent ?? ""));
  const ids = (await grid.locator("tbody tr.data-grid__row td:nth-child(2)").allInnerTexts()).map((t) => t.trim());
  const dists = (await grid.locator(`tbody tr.data-grid__row td:nth-child(${heads.indexOf("distance") + 1})`).allInnerTexts()).map(Number);
  const want = await fetch(`http://${demoAddr}/v1/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: `{ Get { Article(nearVector: {vector: ${JSON.stringify(probe.vector)}}, limit: 25) { _additional { id } } } }` }),
  }).then((r) => r.json());
  const wantIds = want.data.Get.Article.map((o) => o._additional.id);
  assert(heads.includes("distance"), `headers ${JSON.stringify(heads)}`);
  assert(JSON.stringify(ids) === JSON.stringify(wantIds), `matches ${JSON.stringify(ids)}, weaviate-server says ${JSON.stringify(wantIds)}`);
  assert(ids[0] === probe.id && Math.abs(dists[0]) < 1e-6 && dists.every((d, i) => i === 0 || d >= dists[i - 1]), `distances ${JSON.stringify(dists)}`);
  await page.screenshot({ path: join(artifacts, "e2e-find-similar.png") });
  await page.getByRole("tab", { name: "Article", exact: true }).click();
  await articlePanel.getByRole("button", { name: "Row details" }).click();
});
