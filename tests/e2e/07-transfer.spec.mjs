// 07-transfer (issue 21): Export… and Import… of Article on the demo node, the native save
// and open dialogs answered with xdotool, the files read back, and the rows held to what
// weaviate-server holds. Its setup opens Article of "Demo Weaviate" from the tree.
import { test } from "@playwright/test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { answerDialog, answerOpenDialog, answerSaveDialog, assert, dialogShown, need, useApp } from "./lib.mjs";
import { openTable } from "./weaviate.mjs";

const artifacts = need("APP_E2E_ARTIFACTS");
const demoAddr = need("APP_E2E_DEMO_ADDR");

let page, articlePanel;
useApp({
  setup: async (p, { first }) => {
    page = p;
    articlePanel = page.locator('section.panel--table[aria-label="Article"]');
    if (first) await openTable(page, "Demo Weaviate", "Article");
  },
});

const objectOf = async (id) => {
  const r = await fetch(`http://${demoAddr}/v1/objects/Article/${id}?include=vector`);
  return r.status === 200 ? r.json() : null;
};

// Issue 21: Export… and Import… in the window, the native save and open dialogs answered
// here with xdotool, the files read back, and the rows held to what weaviate-server holds.
test("grid: Export… writes every Article row with its vector to the file chosen in the native save dialog", async () => {
  const out = join(artifacts, "e2e-article-export.jsonl");
  rmSync(out, { force: true });
  await articlePanel.getByRole("button", { name: "Export…" }).click();
  const dialog = page.getByRole("dialog", { name: "Export Article" });
  await dialog.getByRole("radio", { name: /JSON Lines/ }).check();
  await dialog.getByRole("checkbox", { name: "Include the vectors" }).check();
  await dialog.getByRole("button", { name: "Export…" }).click();
  answerSaveDialog("Export Article", out);
  const said = dialog.getByRole("status", { name: "Export" });
  await said.waitFor({ timeout: 30_000 });
  const held = await fetch(`http://${demoAddr}/v1/objects?class=Article&limit=1000&include=vector`).then((r) => r.json());
  const text = await said.innerText();
  assert(text === `Exported ${held.objects.length} rows to ${out}`, `the dialog says ${JSON.stringify(text)}`);
  const rows = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const byId = new Map(held.objects.map((o) => [o.id, o]));
  assert(rows.length === held.objects.length, `${rows.length} rows in the file, the server holds ${held.objects.length}`);
  for (const r of rows) {
    const o = byId.get(r.uuid);
    assert(o && r.title === (o.properties.title ?? null), `row ${JSON.stringify(r.uuid)}: ${JSON.stringify(r.title)}`);
    assert(JSON.stringify(r.vector) === JSON.stringify(o.vector), `row ${r.uuid}: vector ${JSON.stringify(r.vector)}, the server holds ${JSON.stringify(o.vector)}`);
  }
  await page.screenshot({ path: join(artifacts, "e2e-export.png") });
  await dialog.getByRole("button", { name: "Close" }).click();
});
test("grid: Import… previews the file chosen in the native open dialog, marks the cell the table refuses, and writes the others", async () => {
  const file = join(artifacts, "e2e-article-import.csv");
  const ids = [1, 2, 3].map((i) => `0e200000-0000-4000-8000-00000000000${i}`);
  writeFileSync(file, `uuid,title,wordCount\n${ids[0]},Imported one,120\n${ids[1]},Imported two,many\n${ids[2]},Imported three,300\n`);
  try {
    await articlePanel.getByRole("button", { name: "Import…" }).click();
    await answerOpenDialog("Import a file", file);
    const dialog = page.getByRole("dialog", { name: "Import into Article" });
    const preview = dialog.getByRole("table", { name: "The file's first rows" });
    await preview.waitFor({ timeout: 30_000 });
    const bad = preview.locator("td.transfer__cell--bad");
    assert((await bad.count()) === 1 && (await bad.innerText()) === "many", `marked cells: ${await bad.allInnerTexts()}`);
    await page.screenshot({ path: join(artifacts, "e2e-import-preview.png") });
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    const summary = dialog.getByRole("status", { name: "Import" });
    await summary.waitFor({ timeout: 30_000 });
    const text = await summary.innerText();
    assert(text.includes("2 written, 1 skipped, 0 failed") && text.includes("Line 3:"), `the summary says ${JSON.stringify(text)}`);
    const one = await objectOf(ids[0]);
    const two = await objectOf(ids[1]);
    const three = await objectOf(ids[2]);
    assert(one?.properties.title === "Imported one" && one.properties.wordCount === 120 && two === null && three?.properties.wordCount === 300,
      `the server holds ${JSON.stringify([one?.properties, two, three?.properties])}`);
    await dialog.getByRole("button", { name: "Close" }).click();
  } finally {
    for (const id of ids) await fetch(`http://${demoAddr}/v1/objects/Article/${id}`, { method: "DELETE" });
    // A failure leaves the window as later checks need it: no dialog open.
    if (await dialogShown("Import a file", 100)) answerDialog("Import a file", "Escape");
    const left = page.getByRole("dialog", { name: "Import into Article" });
    if (await left.isVisible()) await left.getByRole("button", { name: "Close" }).click({ timeout: 5_000 }).catch(() => {});
  }
});
