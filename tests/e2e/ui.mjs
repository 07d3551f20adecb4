// ui.mjs: drives the real UI served by `wails dev` (Go bindings over the dev server's
// websocket IPC) with headless Chromium, and prints one JSON line per check. Run by
// e2e_test.go, which starts wails dev and passes:
//   APP_E2E_URL          the wails dev server, e.g. http://127.0.0.1:34115
//   APP_E2E_CLI          an app binary, for `connection add` while the page is open
//   APP_E2E_CONFIG_DIR   the config dir the dev app uses
//   APP_E2E_ARTIFACTS    where screenshots go
//   APP_E2E_DEMO_ADDR    host:port of the real weaviate node with the demo data (Article,
//                        Author) that the saved connection "Demo Weaviate" points at
//   APP_E2E_UNREACHABLE_PORT  a loopback port nothing listens on
//   APP_E2E_APIKEY_ADDR  host:port of a real weaviate node that requires an API key
//   APP_E2E_DISPLAY      the Xvfb display of the dev app, whose native dialogs xdotool answers
// The dev app's plugin registry (a real signed registry published by the project's
// publisher) offers the Weaviate driver plugin, which is not installed when the page loads.
//   CHROMIUM             the browser (default /usr/bin/chromium)
import { launchChromium } from "./chromium.mjs";
import { answerDialog, answerOpenDialog, answerSaveDialog, assert, check, dialogGone, dialogShown, failed, need, whenFailing } from "./lib.mjs";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const url = need("APP_E2E_URL");
const cli = need("APP_E2E_CLI");
const configDir = need("APP_E2E_CONFIG_DIR");
const artifacts = need("APP_E2E_ARTIFACTS");
const demoAddr = need("APP_E2E_DEMO_ADDR");
const unreachablePort = need("APP_E2E_UNREACHABLE_PORT");
const apiKeyAddr = need("APP_E2E_APIKEY_ADDR");
need("APP_E2E_DISPLAY"); // read by lib.mjs's dialog answers
const offAddr = need("APP_E2E_NOGRAPHQL_ADDR");
const offGrpcPort = need("APP_E2E_NOGRAPHQL_GRPC_PORT");

/** mcpStatus sends tools/list to the running app's MCP endpoint, with a bearer token if given. */
async function mcpStatus(token, clientName = "") {
  const { port } = JSON.parse(readFileSync(join(configDir, "mcp-handshake.json"), "utf8"));
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/list",
    params: {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        ...(clientName ? { "io.modelcontextprotocol/clientInfo": { name: clientName, version: "9.9.9" } } : {}),
      },
    },
  });
  const r = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/json",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/list",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
  });
  return r.status;
}


const browser = await launchChromium();

try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: "light" });
  whenFailing((n) => page.screenshot({ path: join(artifacts, `failed-${n}.png`) }));
  const consoleErrors = [];
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    const where = m.location()?.url ?? "";
    consoleErrors.push(`${m.text()}${where ? ` (${where})` : ""}`);
  });
  page.on("pageerror", (e) => {
    const stack = String(e.stack ?? e);
    // Wails v2.16's browser IPC shim (served only by wails dev, never in the app) observes
    // document.body from <head> before the body exists; the real window does not load it.
    if (stack.includes("reading 'nodes'") && stack.includes("/wails/ipc.js")) return;
    consoleErrors.push(stack);
  });
  await page.goto(url, { waitUntil: "load", timeout: 60_000 });
  const list = page.getByRole("tree", { name: "Saved connections" });
  // Settings is a page of sections: Ctrl+, opens it (at the section last shown), and the
  // section list shows the one a check needs.
  const openSettings = async (section) => {
    await page.keyboard.press("Control+,");
    await page.getByRole("tablist", { name: "Settings sections" }).getByRole("tab", { name: section, exact: true }).click();
  };
  const connections = list.locator('[role="treeitem"][aria-level="1"]');
  const demo = list.getByRole("treeitem", { name: "Demo Weaviate", exact: true });
  const sidebar = page.getByRole("navigation", { name: "Connections" });
  const [demoHost, demoPort] = demoAddr.split(":");

  // SPEC A.3, install path 3: Settings, Plugins.
  await check("Settings, Plugins lists the registry's Weaviate plugin as not installed, with its version", async () => {
    await page.getByRole("tree", { name: "Saved connections" }).waitFor({ timeout: 30_000 });
    await openSettings("Plugins");
    const row = page.getByRole("listitem", { name: "Weaviate" });
    await row.waitFor({ timeout: 30_000 });
    const text = await row.innerText();
    assert(text.includes("not installed") && text.includes("Available: 1.0.0") && text.includes("Publisher: App"), `row is ${JSON.stringify(text)}`);
    await page.screenshot({ path: join(artifacts, "e2e-settings-plugins.png") });
    await page.getByRole("button", { name: "Close Settings" }).click();
  });

  // SPEC A.3, install path 1: the connection-type chooser offers the download first.
  await check("the chooser offers the Weaviate driver's download (version, size, publisher) before the form; Back returns", async () => {
    await sidebar.getByRole("button", { name: "New connection" }).click();
    await page.getByRole("list", { name: "Database types" }).waitFor({ timeout: 5_000 });
    await page.screenshot({ path: join(artifacts, "e2e-chooser.png") });
    await page.getByRole("list", { name: "Database types" }).getByRole("button", { name: /Weaviate/ }).click();
    const offer = page.getByRole("dialog", { name: "Download the Weaviate driver" });
    await offer.waitFor({ timeout: 15_000 });
    const text = await offer.innerText();
    assert(/Version\s*1\.0\.0/.test(text) && /Publisher\s*App/.test(text) && / MB/.test(text), `offer is ${JSON.stringify(text)}`);
    assert((await page.getByRole("textbox", { name: "Host" }).count()) === 0, "the form opened before the download");
    await page.screenshot({ path: join(artifacts, "e2e-offer.png") });
    await offer.getByRole("button", { name: "Back" }).click();
    await page.getByRole("list", { name: "Database types" }).waitFor({ timeout: 5_000 });
  });

  await check("accepting downloads and installs the plugin, then opens the connection form", async () => {
    await page.getByRole("list", { name: "Database types" }).getByRole("button", { name: /Weaviate/ }).click();
    await page.getByRole("button", { name: /Download \(.* MB\) and continue/ }).click();
    await page.getByRole("textbox", { name: "Host" }).waitFor({ timeout: 60_000 });
    assert((await page.getByRole("textbox", { name: /Database/ }).count()) === 0, "the form has a Database field");
    await page.screenshot({ path: join(artifacts, "e2e-form.png") });
  });

  await check("the form's Test reports each path of the demo node: REST with the server version, GraphQL on, gRPC", async () => {
    await page.getByRole("textbox", { name: "Name" }).fill("Form Weaviate");
    await page.getByRole("textbox", { name: "Host" }).fill(demoHost);
    await page.getByRole("textbox", { name: "Port" }).fill(demoPort);
    await page.getByRole("button", { name: "Test", exact: true }).click();
    // The form keeps the default gRPC port, where the demo node does not listen: reported,
    // not failed, since the node serves GraphQL.
    const line = page.locator(".conn-form .form-msg--ok").filter({ hasText: /^REST ok, server \d+\.\d+\.\d+; GraphQL on; gRPC / });
    await line.waitFor({ timeout: 30_000 });
    const text = await line.innerText();
    assert(/gRPC not reachable at .+:50051 \(needed only if the server turns GraphQL off\)$/.test(text), `the Test says ${JSON.stringify(text)}`);
  });

  await check("the form's Test shows the real Authentication failed: text of an API-key node", async () => {
    const [h, p] = apiKeyAddr.split(":");
    await page.getByRole("textbox", { name: "Host" }).fill(h);
    await page.getByRole("textbox", { name: "Port" }).fill(p);
    await page.getByRole("combobox", { name: "Auth Method" }).selectOption("API Key");
    await page.getByLabel("API Key", { exact: true }).fill("not-the-key");
    await page.getByRole("button", { name: "Test", exact: true }).click();
    const alert = page.locator(".conn-form").getByRole("alert");
    await alert.waitFor({ timeout: 30_000 });
    const text = await alert.innerText();
    assert(text.startsWith("Authentication failed:") && !text.includes("not-the-key"), `alert is ${JSON.stringify(text)}`);
    await page.screenshot({ path: join(artifacts, "e2e-form-auth-failed.png") });
  });

  await check("the form's Test shows Connection failed: for a closed port", async () => {
    await page.getByRole("combobox", { name: "Auth Method" }).selectOption("None");
    await page.getByRole("textbox", { name: "Host" }).fill("127.0.0.1");
    await page.getByRole("textbox", { name: "Port" }).fill(unreachablePort);
    await page.getByRole("button", { name: "Test", exact: true }).click();
    const alert = page.locator(".conn-form").getByRole("alert");
    await alert.waitFor({ timeout: 30_000 });
    const text = await alert.innerText();
    assert(text.startsWith("Connection failed:"), `alert is ${JSON.stringify(text)}`);
  });

  await check("Save adds the connection to the sidebar and opens it", async () => {
    await page.getByRole("textbox", { name: "Host" }).fill(demoHost);
    await page.getByRole("textbox", { name: "Port" }).fill(demoPort);
    await page.getByRole("button", { name: "Save" }).click();
    await list.getByRole("treeitem", { name: "Form Weaviate" }).waitFor({ timeout: 10_000 });
    await page.getByRole("tab", { name: "Form Weaviate", selected: true }).waitFor({ timeout: 10_000 });
    await page.getByRole("heading", { level: 2, name: "Form Weaviate" }).waitFor({ timeout: 10_000 });
  });

  await check("uninstall is refused while a connection of its type is open, with the reason", async () => {
    await list.getByRole("treeitem", { name: "Form Weaviate" }).locator('.status-dot[data-status="ready"]').waitFor({ timeout: 30_000 });
    await openSettings("Plugins");
    const row = page.getByRole("listitem", { name: "Weaviate" });
    await row.getByRole("button", { name: "Uninstall Weaviate" }).click();
    const alert = row.getByRole("alert");
    await alert.waitFor({ timeout: 15_000 });
    const text = await alert.innerText();
    assert(text.includes("cannot be uninstalled while a connection of that type is open"), `alert is ${JSON.stringify(text)}`);
  });

  // Issue 25, item 11: an uninstall asks natively; No keeps the plugin, Yes removes it.
  await check("after its connection is closed, Uninstall asks natively: No keeps the plugin, Yes removes it", async () => {
    await page.getByRole("tab", { name: "Form Weaviate" }).click();
    await page.getByRole("button", { name: "Disconnect", exact: true }).click();
    await page.getByRole("tab", { name: "Settings" }).click();
    const row = page.getByRole("listitem", { name: "Weaviate" });
    // exact: a name matches as a substring otherwise, and "Uninstall Weaviate" holds "install Weaviate".
    const install = row.getByRole("button", { name: "Install Weaviate", exact: true });
    const uninstall = row.getByRole("button", { name: "Uninstall Weaviate" });
    const title = "Uninstall the weaviate plugin";
    // The window drops the connection at once, while the backend's Disconnect still waits for
    // the plugin to close it; an Uninstall in that moment is refused as "in use", without a
    // question. Nothing on screen marks the end of that wait, so Uninstall is pressed again
    // until the question comes.
    let asked = false;
    for (let i = 0; i < 40 && !asked; i++) {
      await uninstall.click();
      asked = await dialogShown(title, 1_000);
    }
    assert(asked, "Uninstall never asked");
    answerDialog(title, "Escape"); // closing the dialog answers No
    await uninstall.waitFor({ timeout: 15_000 });
    await page.waitForFunction((el) => !el.disabled, await uninstall.elementHandle(), { timeout: 15_000 });
    assert((await install.count()) === 0 && (await row.innerText()).includes("Installed"), `after No the row is ${JSON.stringify(await row.innerText())}`);
    await uninstall.click();
    answerDialog(title, "alt+y");
    await install.waitFor({ timeout: 15_000 });
    const text = await row.innerText();
    assert(text.includes("not installed"), `row is ${JSON.stringify(text)}`);
    await page.getByRole("button", { name: "Close Settings" }).click();
  });

  // SPEC A.3, install path 2: opening a saved connection installs the plugin without asking.
  await check("the saved connection from the real backend is listed with type and host:port", async () => {
    const option = connections.filter({ hasText: "Demo Weaviate" });
    await option.waitFor({ timeout: 30_000 });
    const text = await option.innerText();
    assert(text.includes("Weaviate") && text.includes(demoAddr), `item text is ${JSON.stringify(text)}`);
    await page.screenshot({ path: join(artifacts, "e2e-list.png") });
  });

  await check("Enter on the focused tree opens the connection in a tab", async () => {
    await list.focus();
    await page.keyboard.press("Home");
    await page.keyboard.press("Enter");
    await page.getByRole("tab", { name: "Demo Weaviate", selected: true }).waitFor({ timeout: 5_000 });
    await page.getByRole("heading", { level: 2, name: "Demo Weaviate" }).waitFor({ timeout: 5_000 });
  });

  await check("opening the connection lists the demo collections Article and Author under it, with row counts", async () => {
    const tables = demo.getByRole("group").getByRole("treeitem");
    await tables.first().waitFor({ timeout: 30_000 });
    const names = await tables.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
    assert(JSON.stringify(names) === JSON.stringify(["Article", "Author"]), `collections are ${JSON.stringify(names)}`);
    await tables.filter({ hasText: "10" }).first().waitFor({ timeout: 15_000 });
    const article = await tables.nth(0).innerText();
    const author = await tables.nth(1).innerText();
    assert(/Article\s*10$/.test(article) && /Author\s*4$/.test(author), `rows are ${JSON.stringify([article, author])}`);
    const expanded = await demo.getAttribute("aria-expanded");
    assert(expanded === "true", `aria-expanded is ${expanded}`);
    await page.screenshot({ path: join(artifacts, "e2e-collections.png") });
  });

  await check("opening the saved connection installed the missing plugin without asking", async () => {
    const n = await page.getByRole("dialog", { name: /Download the/ }).count();
    assert(n === 0, "an offer was shown for a saved connection");
    await openSettings("Plugins");
    const row = page.getByRole("listitem", { name: "Weaviate" });
    await row.getByRole("button", { name: "Uninstall Weaviate" }).waitFor({ timeout: 15_000 });
    assert((await row.innerText()).includes("Installed: 1.0.0"), `row is ${JSON.stringify(await row.innerText())}`);
    await page.getByRole("button", { name: "Close Settings" }).click();
  });

  // Issue 44, item 4: "Connecting to Form Weaviate…" stayed in the tree after the plugin's
  // uninstall and reinstall, while nothing connected that connection (the tree drew a
  // connection without a state as connecting). It was disconnected before the uninstall: the
  // tree says Not connected, and its Connect, with the reinstalled plugin, ends connected.
  await check("after the plugin's uninstall and reinstall, the disconnected Form Weaviate says Not connected, and its Connect ends connected", async () => {
    const formItem = list.getByRole("treeitem", { name: "Form Weaviate" });
    const formPanel = page.locator('section.panel[aria-label="Form Weaviate"]');
    const connecting = page.getByText(/Connecting to Form Weaviate/);
    assert((await connecting.count()) === 0, "the tree says Connecting to Form Weaviate… while nothing connects it");
    await page.getByRole("tab", { name: "Form Weaviate", exact: true }).click();
    await formItem.getByRole("group").getByRole("status").filter({ hasText: /^Not connected$/ }).waitFor({ timeout: 10_000 });
    assert((await connecting.count()) === 0, "the tree says Connecting to Form Weaviate… while nothing connects it");
    await formPanel.getByRole("button", { name: "Connect", exact: true }).click();
    await formItem.locator('.status-dot[data-status="ready"]').waitFor({ timeout: 30_000 });
    await formItem.getByRole("group").getByRole("treeitem", { name: "Article" }).waitFor({ timeout: 15_000 });
    await connecting.waitFor({ state: "detached", timeout: 5_000 });
    // As it was: disconnected, and the demo's tab in front for the checks below.
    await formPanel.getByRole("button", { name: "Disconnect", exact: true }).click();
    await formItem.locator(".status-dot").waitFor({ state: "detached", timeout: 10_000 });
    await page.getByRole("tab", { name: "Demo Weaviate", exact: true }).click();
    await page.getByRole("heading", { level: 2, name: "Demo Weaviate" }).waitFor({ timeout: 5_000 });
  });

  await check("opening Article shows a grid whose first column is uuid and last is vector", async () => {
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

  // Issue 14, the grid: typed filters, sort, paging and count, checked against what the real
  // weaviate-server holds (read here with its own REST API, not through the app).
  const held = await fetch(`http://${demoAddr}/v1/objects?class=Article&limit=100&include=vector`)
    .then((r) => r.json())
    .then((d) => d.objects.map((o) => ({ id: o.id, vector: o.vector, ...o.properties })));
  const articlePanel = page.locator('section.panel--table[aria-label="Article"]');
  const articleGrid = articlePanel.getByRole("table", { name: "Rows of Article" });

  /** shownIds waits until the range reads `want` rows of `want` and returns the uuids shown. */
  async function shownIds(panel, grid, want) {
    const range = want === 0 ? /^No rows( of 0)?$|^No rows: a filter cannot run$/ : new RegExp(`^Rows 1–${want} of ${want}$`);
    await panel.locator(".grid-bar__range").filter({ hasText: range }).waitFor({ timeout: 20_000 });
    return (await grid.locator("tbody tr.data-grid__row td:nth-child(2)").allInnerTexts()).map((t) => t.trim()).sort();
  }

  /** applyFilter opens the column's filter from its header, picks the operator, types the values and presses Enter. */
  async function applyFilter(panel, column, operator, values = []) {
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

  async function clearFilters(panel) {
    await panel.getByRole("button", { name: "Clear filters" }).click();
  }

  /** resetFilters leaves the panel with no filter and no filter editor, whatever a failed check left. */
  async function resetFilters(panel) {
    const form = panel.getByRole("form", { name: "Edit filter" });
    if ((await form.count()) > 0) await form.getByRole("button", { name: "Cancel" }).click({ timeout: 5_000 }).catch(() => {});
    const clear = panel.getByRole("button", { name: "Clear filters" });
    if ((await clear.count()) > 0) await clear.click({ timeout: 5_000 }).catch(() => {});
  }

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
    await check(`grid filter ${label}: ${column} shows exactly the rows weaviate-server holds`, async () => {
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

  await check("grid filters combine with AND", async () => {
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

  /** refusal applies a filter that cannot run and returns the reason shown at its chip. */
  async function refusal(panel, grid, column, operator, values, editorSays) {
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

  await check("grid: REGEX is explained as unavailable, and applied anyway it is refused with the reason and no rows", async () => {
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

  await check("grid: a date that is not full RFC 3339 is refused with the reason and no rows", async () => {
    try {
      const why = await refusal(articlePanel, articleGrid, "published", "less_than", ["2024-01-01"], /RFC 3339/);
      assert(why.includes('"2024-01-01" is not a full RFC 3339 timestamp'), `chip says ${JSON.stringify(why)}`);
      await clearFilters(articlePanel);
      await shownIds(articlePanel, articleGrid, held.length);
    } finally {
      await resetFilters(articlePanel);
    }
  });

  await check("grid: sort by header click (ascending, descending) follows the database's order", async () => {
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

  await check("grid: a page size choice reads the rows again from row 1, with the database's count", async () => {
    await articlePanel.getByRole("combobox", { name: "Rows per page" }).selectOption("50");
    await articlePanel.locator(".grid-bar__range").filter({ hasText: /^Rows 1–10 of 10$/ }).waitFor({ timeout: 10_000 });
    const next = articlePanel.getByRole("button", { name: "Next ›" });
    assert(await next.isDisabled(), "Next is enabled on the last page");
    await articlePanel.getByRole("combobox", { name: "Rows per page" }).selectOption("100");
  });

  await check("grid: a vector cell shows a preview and expands to the full vector weaviate-server holds, read on demand", async () => {
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

  await check("grid: on Author (no indexNullState) is NULL is explained as unavailable and refused with the reason", async () => {
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
  await check("the refusal's See the setting opens Author's definition in words at indexNullState, as the server's schema and shards hold it (issue 23)", async () => {
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

  await check("a connection saved with the CLI while the window is open appears without a reload", async () => {
    execFileSync(cli, ["--config-dir", configDir, "connection", "add", "--name", "Added Later", "--host", "127.0.0.1", "--port", unreachablePort], {
      env: { ...process.env, APP_KEYRING_BACKEND: "file", APP_KEYRING_PASSWORD: "test" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await connections.filter({ hasText: "Added Later" }).waitFor({ timeout: 10_000 });
    const n = await connections.count();
    assert(n === 3, `${n} connections listed, want 3 (the CLI's, the form's and the new one)`);
  });

  await check("opening a connection to a closed port shows the driver's Connection failed message", async () => {
    await connections.filter({ hasText: "Added Later" }).locator(".conn-item").click();
    const alert = list.getByRole("treeitem", { name: "Added Later" }).getByRole("alert");
    await alert.waitFor({ timeout: 30_000 });
    const text = await alert.innerText();
    assert(text.includes("Could not connect") && text.includes("Connection failed:"), `alert is ${JSON.stringify(text)}`);
    assert(!text.includes("connection: "), `the code leaked into the message: ${JSON.stringify(text)}`);
  });

  await check("a table call on a connection that is not open is `unavailable: ...`", async () => {
    const reason = await page.evaluate(() =>
      window.go.app.ExplorerAPI.ListTables("no-such-connection").then(
        () => "resolved",
        (e) => (typeof e === "string" ? e : (e?.message ?? JSON.stringify(e))),
      ),
    );
    assert(/^unavailable: \S/.test(reason), `rejection was ${JSON.stringify(reason)}`);
  });

  await check("a backend error reaches the page as `code: message` text", async () => {
    const reason = await page.evaluate(() =>
      window.go.app.ConnectionsAPI.Remove("no-such-connection").then(
        () => "resolved",
        (e) => (typeof e === "string" ? e : (e?.message ?? JSON.stringify(e))),
      ),
    );
    assert(/^not_found: \S/.test(reason), `rejection was ${JSON.stringify(reason)}`);
  });

  // Issue 14, the query editor: GraphQL reads and REST lines on the demo node, each result
  // checked against what weaviate-server holds.
  const editorPanel = page.locator('section.panel--editor[aria-label="Query Demo Weaviate"]');
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
  const editorResult = editorPanel.locator(".editor-result");

  await check("Ctrl+E opens the connection's query editor; a Get shows as a grid with uuid from _additional.id", async () => {
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

  await check("a nearVector answers a grid with a distance column, the object itself nearest", async () => {
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

  await check("the hybrid template runs on a collection without a vectorizer, with the rows the server answers for its text (issue 23)", async () => {
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

  await check("an Aggregate shows as collapsible JSON with the count weaviate-server holds", async () => {
    await runInEditor("{ Aggregate { Article { meta { count } } } }");
    await editorPanel.getByRole("region", { name: "JSON result" }).waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(artifacts, "e2e-editor-json.png") });
    const json = editorPanel.getByRole("region", { name: "JSON result" });
    await json.waitFor({ timeout: 20_000 });
    const text = await json.innerText();
    assert(text.includes(`"count": ${held.length}`), `JSON ${JSON.stringify(text)}`);
    assert((await json.locator("details").count()) > 2, "no collapsible nodes");
  });

  await check("a REST GET line answers the JSON of the node with its status", async () => {
    await runInEditor("GET /schema");
    await editorResult.getByText(/^HTTP 200 · /).waitFor({ timeout: 20_000 });
    const text = await editorPanel.getByRole("region", { name: "JSON result" }).innerText();
    assert(text.includes('"Article"'), `JSON ${JSON.stringify(text.slice(0, 200))}`);
  });

  await check("a GraphQL mutation is refused inline with the spec's reason", async () => {
    await runInEditor("mutation { Add { id } }");
    const alert = editorResult.getByRole("alert");
    await alert.waitFor({ timeout: 20_000 });
    const text = await alert.innerText();
    assert(/GraphQL mutation is not available/.test(text) && /Writes go through REST/.test(text), `alert ${JSON.stringify(text)}`);
  });

  await check("a write REST line asks natively first; No sends nothing", async () => {
    const newId = "e2e00000-0000-4000-8000-000000000014";
    await runInEditor(`POST /v1/objects {"class": "Article", "id": "${newId}", "properties": {"title": "Not written"}}`);
    answerDialog("Run a write on “Demo Weaviate”", "Escape"); // closing the dialog answers No
    await editorResult.getByText(/^Not run/).waitFor({ timeout: 20_000 });
    const r = await fetch(`http://${demoAddr}/v1/objects/Article/${newId}`);
    assert(r.status === 404, `the object answers ${r.status}`);
  });

  await check("a write REST line answered Yes in the native dialog is written; a DELETE asks again (cannot be undone) and removes it", async () => {
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

  await check("the editor's history lists the runs, searchable", async () => {
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

  await check("the editor completes collections and a collection's properties from the live schema", async () => {
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
  const pendingBar = articlePanel.getByRole("region", { name: "Pending changes" });
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
  const gridRegion = articlePanel.getByRole("region", { name: "Grid of Article" });

  await check("grid: an edited cell is committed as a PATCH of that cell alone, read back from the server", async () => {
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

  await check("grid: a field clicked while a cell is being edited gets the keyboard; the edit is recorded, nothing typed goes to the grid", async () => {
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

  await check("grid: a commit where one row fails keeps that row pending with its reason and applies the others", async () => {
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

  await check("grid: Add row writes a new object; Delete row asks natively how many, No keeps it and Yes deletes it", async () => {
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

  await check("grid: Find similar opens the rows nearest the row's vector in a tab, with distance, in weaviate-server's order", async () => {
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

  // Issue 23, item 3: the search panel's answers, held to weaviate-server's own for the same
  // request (uuids and order). runSearch fills the form of a search tab and reads the matches.
  const serverIds = async (addr, query) => {
    const d = await fetch(`http://${addr}/v1/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) }).then((r) => r.json());
    assert(!d.errors, `the server refused ${query}: ${JSON.stringify(d.errors)}`);
    return Object.values(d.data.Get)[0].map((o) => o._additional.id);
  };
  const runSearch = async (panel, fill) => {
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
  const searchChecks = async (panel, label, shot) => {
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

  await check("the search panel's bm25 (in title, scores explained), hybrid (ranked fusion, scores explained) and pasted nearVector answer weaviate-server's own matches in its order (issue 23)", async () => {
    await articlePanel.getByRole("button", { name: "Search…" }).click();
    const panel = page.locator('section.panel--search[aria-label="Search Article"]:visible');
    await panel.getByRole("search").waitFor({ timeout: 10_000 });
    const near = await panel.getByRole("search").getByRole("combobox", { name: "Search by" }).locator("option").allInnerTexts();
    assert(!near.includes("Near text"), `Article has no vectorizer, yet the modes are ${JSON.stringify(near)}`);
    await searchChecks(panel, "GraphQL node:", "e2e-search-panel.png");
  });

  await check("the search panel narrows its matches by the grid's filters (wordCount > 1000) exactly as the server does", async () => {
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

  // Issue 21: Export… and Import… in the window, the native save and open dialogs answered
  // here with xdotool, the files read back, and the rows held to what weaviate-server holds.
  await check("grid: Export… writes every Article row with its vector to the file chosen in the native save dialog", async () => {
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
  await check("grid: Import… previews the file chosen in the native open dialog, marks the cell the table refuses, and writes the others", async () => {
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

  await check("the theme toggle switches the page to dark", async () => {
    const toggle = page.getByRole("button", { name: /theme \(click to change\)/ });
    await toggle.click(); // system -> light
    await toggle.click(); // light -> dark
    const theme = await page.evaluate(() => document.documentElement.dataset.theme);
    assert(theme === "dark", `data-theme is ${theme}`);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert(bg === "rgb(21, 22, 26)", `body background is ${bg}`);
    await page.screenshot({ path: join(artifacts, "e2e-dark.png") });
  });

  // Issue 24, item 5: the window's icons are SVGs that draw with the fonts this Linux machine
  // has (Chromium renders with the same fontconfig as the window): each icon button of the
  // sidebar and the header, hovered as a person would, differs from the same button with its
  // icon hidden (a missing-glyph box from a Unicode pictograph drew nothing an SVG would), in
  // the dark theme and in the light one; no button or tab carries a pictograph as text; and a
  // connection's name shows in full beside its actions.
  await check("no icon renders as a missing-glyph box: every icon button of the sidebar and header draws its SVG, dark and light", async () => {
    const toggle = page.getByRole("button", { name: /theme \(click to change\)/ });
    const themeNow = () => page.evaluate(() => document.documentElement.dataset.theme);
    const blank = [];
    let drawn = 0;
    for (const want of ["dark", "light"]) {
      for (let i = 0; i < 3 && (await themeNow()) !== want; i++) await toggle.click();
      assert((await themeNow()) === want, `theme is ${await themeNow()}, wanted ${want}`);
      const buttons = page.locator("nav.sidebar button:has(svg.icon), header.app-header button:has(svg.icon)");
      const n = await buttons.count();
      assert(n >= 6, `${n} icon buttons in the sidebar and header`);
      for (let i = 0; i < n; i++) {
        const b = buttons.nth(i);
        const row = b.locator("xpath=ancestor::*[contains(concat(' ', normalize-space(@class), ' '), ' conn-item ')][1]");
        if ((await row.count()) > 0) {
          if (!(await row.isVisible())) continue;
          await row.hover({ timeout: 5_000 }); // the row's actions show on hover
        }
        if (!(await b.isVisible())) continue;
        await b.hover({ timeout: 5_000 });
        const name = (await b.getAttribute("aria-label")) || (await b.getAttribute("title")) || `button ${i}`;
        const shot = await b.screenshot({ animations: "disabled" });
        await b.evaluate((e) => e.querySelectorAll("svg.icon").forEach((s) => (s.style.visibility = "hidden")));
        const without = await b.screenshot({ animations: "disabled" });
        await b.evaluate((e) => e.querySelectorAll("svg.icon").forEach((s) => (s.style.visibility = "")));
        if (shot.equals(without)) blank.push(`${want}: ${name}`);
        else drawn++;
      }
      await page.screenshot({ path: join(artifacts, `e2e-icons-${want}.png`) });
    }
    assert(blank.length === 0, `icons that drew nothing: ${blank.join("; ")}`);
    assert(drawn >= 12, `only ${drawn} icon buttons were checked`);
    const pictographs = await page.evaluate(() =>
      [...document.querySelectorAll("button, [role=tab]")]
        .map((e) => e.innerText.trim())
        .filter((t) => /\p{Extended_Pictographic}|[\u2300-\u23FF\u25A0-\u25FF\u2700-\u27BF\u2980-\u29FF\u2B00-\u2BFF]/u.test(t)),
    );
    assert(pictographs.length === 0, `Unicode pictographs as icons: ${JSON.stringify(pictographs)}`);
    const clipped = await page.locator(".conn-item__name").evaluateAll((els) =>
      els.filter((e) => e.textContent === "Demo Weaviate" && e.scrollWidth > e.clientWidth).map((e) => e.textContent),
    );
    assert(clipped.length === 0, `clipped names: ${clipped}`);
    for (let i = 0; i < 3 && (await themeNow()) !== "dark"; i++) await toggle.click(); // as the checks below expect
  });

  await check("the grid follows the dark theme (header, filter editor and a refusal use the theme's colours)", async () => {
    await page.getByRole("tab", { name: "Article", exact: true }).click();
    await articleGrid.waitFor({ timeout: 10_000 });
    const th = await articleGrid.locator("thead th").first().evaluate((e) => getComputedStyle(e).backgroundColor);
    assert(th === "rgb(17, 18, 22)", `header background is ${th}`);
    await applyFilter(articlePanel, "wordCount", "greater_or_equal", ["2000"]);
    await shownIds(articlePanel, articleGrid, held.filter((o) => o.wordCount >= 2000).length);
    await articlePanel.getByRole("button", { name: "Filter title", exact: true }).click();
    const form = articlePanel.getByRole("form", { name: "Edit filter" });
    await form.getByRole("combobox", { name: "Operator" }).selectOption("regex");
    const bg = await form.evaluate((e) => getComputedStyle(e).backgroundColor);
    assert(bg === "rgb(27, 28, 33)", `filter editor background is ${bg}`);
    await page.screenshot({ path: join(artifacts, "e2e-grid-dark.png") });
    await page.keyboard.press("Escape");
    await form.waitFor({ state: "detached", timeout: 5_000 });
    await clearFilters(articlePanel);
    await shownIds(articlePanel, articleGrid, held.length);
  });

  // Issue 11: Settings, MCP server.
  await check("Settings shows where the MCP server runs, and turning off Require a token applies at once", async () => {
    await openSettings("MCP server");
    const { port } = JSON.parse(readFileSync(join(configDir, "mcp-handshake.json"), "utf8"));
    const status = page.getByRole("status", { name: "MCP server status" });
    await status.waitFor({ timeout: 10_000 });
    const text = await status.innerText();
    assert(text === `Running on 127.0.0.1:${port}`, `status line is ${JSON.stringify(text)}, handshake port ${port}`);
    assert((await mcpStatus("")) === 401, "an anonymous request was not refused while a token is required");
    await page.getByRole("checkbox", { name: /Require a token/ }).uncheck();
    let code = 0;
    for (let i = 0; i < 50 && code !== 200; i++) {
      code = await mcpStatus("");
      if (code !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert(code === 200, `an anonymous request answered ${code} with Require a token off`);
    await page.getByRole("checkbox", { name: /Require a token/ }).check();
    for (let i = 0; i < 50 && code !== 401; i++) {
      code = await mcpStatus("");
      if (code !== 401) await new Promise((r) => setTimeout(r, 100));
    }
    assert(code === 401, `an anonymous request answered ${code} with Require a token on again`);
    await page.screenshot({ path: join(artifacts, "e2e-settings-mcp.png") });
    await page.getByRole("button", { name: "Close Settings" }).click();
  });

  // Issue 11: Settings, MCP tokens.
  let secret = "";
  await check("Settings creates a token, shows it once with a copy button, and the MCP endpoint accepts it", async () => {
    await openSettings("Tokens");
    const form = page.getByRole("form", { name: "Create a token" });
    await form.getByLabel("Token name").fill("e2e-client");
    await form.getByRole("button", { name: "Create token" }).click();
    const shown = page.getByRole("status", { name: "New token" });
    await shown.waitFor({ timeout: 10_000 });
    secret = (await shown.locator("code").innerText()).trim();
    assert(/^app_[A-Za-z0-9_-]{43}$/.test(secret), `token is ${JSON.stringify(secret)}`);
    await shown.getByRole("button", { name: "Copy token" }).click();
    await shown.getByRole("button", { name: "Copied" }).waitFor({ timeout: 5_000 });
    const row = page.getByRole("row", { name: "e2e-client" });
    const text = await row.innerText();
    assert(text.includes("readOnly") && !text.includes(secret), `row is ${JSON.stringify(text)}`);
    await page.screenshot({ path: join(artifacts, "e2e-settings-tokens.png") });
    const status = await mcpStatus(secret);
    assert(status === 200, `tools/list with the new token answered ${status}`);
  });

  await check("Revoke asks in the native dialog; after Yes the MCP endpoint refuses the token with 401", async () => {
    await page.getByRole("button", { name: "Revoke e2e-client" }).click();
    answerDialog("Revoke token", "alt+y");
    await page.getByRole("row", { name: "e2e-client" }).waitFor({ state: "detached", timeout: 10_000 });
    let status = 0;
    for (let i = 0; i < 50; i++) {
      status = await mcpStatus(secret);
      if (status === 401) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert(status === 401, `tools/list with the revoked token answered ${status}`);
    await page.getByRole("button", { name: "Close Settings" }).click();
  });

  // Issue 11: Settings, Connected clients.
  await check("a client that called appears under Connected clients; Disconnect (native dialog) revokes its token", async () => {
    await openSettings("Tokens");
    const form = page.getByRole("form", { name: "Create a token" });
    await form.getByLabel("Token name").fill("e2e-pair");
    await form.getByRole("button", { name: "Create token" }).click();
    const shown = page.getByRole("status", { name: "New token" });
    await shown.waitFor({ timeout: 10_000 });
    const token = (await shown.locator("code").innerText()).trim();
    await shown.getByRole("button", { name: "Done" }).click();
    assert((await mcpStatus(token, "e2e-peer")) === 200, "the peer's call was refused");
    await page.getByRole("tablist", { name: "Settings sections" }).getByRole("tab", { name: "Clients", exact: true }).click();
    const row = page.getByRole("row", { name: "e2e-peer" });
    await row.waitFor({ timeout: 10_000 });
    const text = await row.innerText();
    assert(text.includes("9.9.9") && text.includes("e2e-pair (readOnly)"), `row is ${JSON.stringify(text)}`);
    await page.screenshot({ path: join(artifacts, "e2e-settings-clients.png") });
    await row.getByRole("button", { name: "Disconnect e2e-peer" }).click();
    answerDialog("Disconnect client", "alt+y");
    await row.waitFor({ state: "detached", timeout: 10_000 });
    let code = 0;
    for (let i = 0; i < 50 && code !== 401; i++) {
      code = await mcpStatus(token, "e2e-peer");
      if (code !== 401) await new Promise((r) => setTimeout(r, 100));
    }
    assert(code === 401, `the disconnected client's call answered ${code}`);
    await page.getByRole("button", { name: "Close Settings" }).click();
  });

  // Issue 11: Settings, Connect a client.
  await check("Connect a client shows the client's configuration, whose token the MCP endpoint accepts", async () => {
    await openSettings("Clients");
    const pair = page.getByRole("group", { name: "Connect a client" });
    await pair.getByLabel("Client", { exact: true }).selectOption("other");
    await pair.getByRole("button", { name: /^Connect Other/ }).click();
    const shown = pair.getByRole("status", { name: "Client configuration" });
    await shown.waitFor({ timeout: 10_000 });
    const config = JSON.parse(await shown.locator("pre").innerText());
    const entry = config.mcpServers?.app;
    const { port } = JSON.parse(readFileSync(join(configDir, "mcp-handshake.json"), "utf8"));
    assert(entry?.url === `http://127.0.0.1:${port}/mcp`, `entry ${JSON.stringify(entry)}`);
    const token = String(entry.headers?.Authorization ?? "").replace(/^Bearer /, "");
    assert((await mcpStatus(token)) === 200, "the configured token was refused");
    await page.screenshot({ path: join(artifacts, "e2e-settings-connect-client.png") });
    await page.getByRole("button", { name: "Close Settings" }).click();
  });

  // Issue 41: every client, its file and the check that proves it; Codex's snippet is TOML.
  await check("Connect a client lists every client with its file and proof, and shows Codex's configuration as TOML", async () => {
    await openSettings("Clients");
    const pair = page.getByRole("group", { name: "Connect a client" });
    const table = pair.getByRole("table", { name: "Clients the app configures" });
    await table.waitFor({ timeout: 10_000 });
    for (const title of ["Claude Code", "Claude Code (this project)", "Claude Desktop", "Codex", "Gemini CLI", "GitHub Copilot CLI",
      "VS Code", "Cursor", "Windsurf", "Zed", "Goose", "LM Studio"]) {
      const row = table.getByRole("row", { name: title, exact: true });
      assert((await row.count()) === 1, `no row for ${title}`);
    }
    const codex = table.getByRole("row", { name: "Codex", exact: true });
    const text = await codex.innerText();
    assert(text.includes("config.toml (TOML)") && text.includes("codex mcp get app --json"), `Codex's row: ${text}`);
    await codex.getByRole("button", { name: "Codex" }).click();
    await pair.getByRole("button", { name: "Connect Codex" }).click();
    const shown = pair.getByRole("status", { name: "Client configuration" });
    await shown.waitFor({ timeout: 10_000 });
    const toml = await shown.getByLabel("Configuration (TOML)").innerText();
    assert(toml.startsWith("[mcp_servers.app]") && /APP_MCP_TOKEN = "app_/.test(toml), `TOML: ${toml}`);
    await page.screenshot({ path: join(artifacts, "e2e-settings-clients.png") });
    await page.getByRole("button", { name: "Close Settings" }).click();
  });

  // Issue 11: Settings, Activity log.
  await check("the activity log lists the requests made above, filters them, opens one, checks the chain and exports CSV", async () => {
    await openSettings("Activity");
    const log = page.getByRole("group", { name: "Activity log" });
    await log.getByText(/^\d[\d,]* entries$/).waitFor({ timeout: 10_000 });
    await log.getByLabel("Search").fill("tools/list");
    await log.getByLabel("Client").fill("e2e-peer");
    await log.getByRole("button", { name: "Apply filters" }).click();
    // The peer called with its token before the Disconnect (a refused call names no client).
    // The filter's answer is certain once every row on the page is the peer's tools/list and
    // the grid counts what the note says (the unfiltered list holds other clients' calls): reading
    // the count before that read the unfiltered one (issue 25, a flake on a loaded machine).
    await page.waitForFunction(
      () => {
        const note = [...document.querySelectorAll(".activity .panel__note")].map((e) => e.textContent ?? "").find((x) => /^\d[\d,]* entr(y|ies)$/.test(x));
        const grid = document.querySelector('[role="grid"][aria-label="Activity entries"]');
        if (!note || !grid) return false;
        const rows = [...grid.querySelectorAll('[role="row"]')];
        const cells = (r) => [...r.querySelectorAll('[role="gridcell"]')].map((c) => c.textContent ?? "");
        return (
          rows.length > 0 &&
          grid.getAttribute("aria-rowcount") === String(Number(note.replace(/[^\d]/g, ""))) &&
          rows.every((r) => (r.getAttribute("aria-label") ?? "").startsWith("entry ") && cells(r)[1] === "e2e-peer" && cells(r)[3].startsWith("tools/list"))
        );
      },
      undefined,
      { timeout: 15_000 },
    );
    const countText = await log.getByText(/^\d[\d,]* entr(y|ies)$/).innerText();
    const n = Number(countText.replace(/[^\d]/g, ""));
    assert(n >= 1, `${n} entries of e2e-peer's tools/list, want at least 1`);
    const rows = log.getByRole("grid", { name: "Activity entries" }).getByRole("row");
    await rows.first().click();
    const detail = await log.locator(".activity-detail").innerText();
    assert(detail.includes("e2e-peer 9.9.9") && detail.includes("tools/list"), `detail is ${JSON.stringify(detail)}`);
    await log.getByRole("button", { name: "Check the chain" }).click();
    const chain = await log.getByRole("status", { name: "Chain check" }).innerText();
    assert(/^The chain is intact: \d+ entries checked/.test(chain), `chain check says ${JSON.stringify(chain)}`);
    await page.screenshot({ path: join(artifacts, "e2e-settings-activity.png") });
    const out = join(artifacts, "activity-export.csv");
    // A file left by an earlier run would make the GTK save dialog ask about replacing it.
    rmSync(out, { force: true });
    await log.getByRole("button", { name: "Export CSV…" }).click();
    answerSaveDialog("Export the activity log", out);
    const said = await log.getByRole("status", { name: "Export" }).innerText();
    assert(said === `Exported to ${out}` && existsSync(out), `export says ${JSON.stringify(said)}`);
    const csv = readFileSync(out, "utf8").trim().split("\n");
    assert(csv[0].startsWith("id,time,client_name") && csv.length === n + 1 && csv[1].includes("e2e-peer"), `csv is ${JSON.stringify(csv)}`);
    await page.getByRole("button", { name: "Close Settings" }).click();
  });

  // Issue 19: a node with GraphQL off, as new Weaviate Cloud clusters are (the same demo data):
  // counts, filters, sorts and Find similar go over gRPC, checked against what the node holds.
  const offName = "GraphQL off";
  const offItem = list.getByRole("treeitem", { name: offName });
  const offPanel = page.locator('section.panel--table[aria-label="Article"]:visible');
  const offGrid = offPanel.getByRole("table", { name: "Rows of Article" });
  const offHeld = await fetch(`http://${offAddr}/v1/objects?class=Article&limit=100&include=vector`)
    .then((r) => r.json())
    .then((d) => d.objects.map((o) => ({ id: o.id, vector: o.vector, ...o.properties })));

  await check("GraphQL off: the node refuses /v1/graphql, and its connection lists Article with the count read over gRPC", async () => {
    const refused = await fetch(`http://${offAddr}/v1/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"query":"{ __typename }"}' });
    assert(refused.status === 422 && /graphql api is disabled/.test(await refused.text()), `the node answered /v1/graphql with ${refused.status}`);
    const [host, port] = offAddr.split(":");
    execFileSync(cli, ["--config-dir", configDir, "connection", "add", "--name", offName, "--host", host, "--port", port, "--grpc-port", offGrpcPort], {
      env: { ...process.env, APP_KEYRING_BACKEND: "file", APP_KEYRING_PASSWORD: "test" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await connections.filter({ hasText: offName }).locator(".conn-item").click();
    const article = offItem.getByRole("group").getByRole("treeitem", { name: "Article" });
    await article.filter({ hasText: String(offHeld.length) }).waitFor({ timeout: 30_000 });
    const text = await article.innerText();
    assert(new RegExp(`Article\\s*${offHeld.length}$`).test(text), `the sidebar says ${JSON.stringify(text)}, the node holds ${offHeld.length}`);
    await article.click();
    await page.getByRole("tab", { name: "Article", exact: true, selected: true }).waitFor({ timeout: 5_000 });
    await offGrid.waitFor({ timeout: 30_000 });
    await shownIds(offPanel, offGrid, offHeld.length);
  });

  await check("GraphQL off: filters combined with AND show exactly the rows the node holds, with their count", async () => {
    const want = offHeld.filter((o) => o.wordCount > 1000 && (o.tags ?? []).includes("programming")).map((o) => o.id).sort();
    try {
      await applyFilter(offPanel, "wordCount", "greater_than", ["1000"]);
      await applyFilter(offPanel, "tags", "in", ["programming"]);
      const got = await shownIds(offPanel, offGrid, want.length);
      assert(want.length > 0 && JSON.stringify(got) === JSON.stringify(want), `rows ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      const alerts = await offPanel.getByRole("alert").count();
      assert(alerts === 0, "an error is shown beside the filtered rows");
      await page.screenshot({ path: join(artifacts, "e2e-graphql-off-filter.png") });
      await clearFilters(offPanel);
      await shownIds(offPanel, offGrid, offHeld.length);
    } finally {
      await resetFilters(offPanel);
    }
  });

  await check("GraphQL off: the word between two filters switches to or, and the rows are the node's (a or b) set (issue 23)", async () => {
    const want = offHeld.filter((o) => o.wordCount > 2000 || (o.tags ?? []).includes("programming")).map((o) => o.id).sort();
    try {
      await applyFilter(offPanel, "wordCount", "greater_than", ["2000"]);
      await applyFilter(offPanel, "tags", "in", ["programming"]);
      const both = offHeld.filter((o) => o.wordCount > 2000 && (o.tags ?? []).includes("programming")).length;
      await shownIds(offPanel, offGrid, both);
      await offPanel.getByRole("button", { name: /^and: combine wordCount greater than 2000 and tags/ }).click();
      await offPanel.getByRole("button", { name: /^or: combine/ }).waitFor({ timeout: 5_000 });
      const got = await shownIds(offPanel, offGrid, want.length);
      assert(want.length > both && JSON.stringify(got) === JSON.stringify(want), `rows ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      await page.screenshot({ path: join(artifacts, "e2e-graphql-off-or.png") });
      await clearFilters(offPanel);
      await shownIds(offPanel, offGrid, offHeld.length);
    } finally {
      await resetFilters(offPanel);
    }
  });

  await check("GraphQL off: a sort by header click follows the node's order", async () => {
    const counts = offHeld.map((o) => o.wordCount).sort((a, b) => a - b);
    const col = (await offGrid.locator("thead th").evaluateAll((ths) => ths.map((th) => th.querySelector(".data-grid__name")?.firstChild?.textContent ?? ""))).indexOf("wordCount");
    const header = offGrid.locator("thead th").filter({ has: page.getByRole("button", { name: /^Sort by wordCount/ }) });
    await offPanel.getByRole("button", { name: /^Sort by wordCount/ }).click();
    await header.and(page.locator('[aria-sort="ascending"]')).waitFor({ timeout: 10_000 });
    await offPanel.locator(".grid-bar__range").filter({ hasText: new RegExp(`^Rows 1–${offHeld.length} of ${offHeld.length}$`) }).waitFor({ timeout: 10_000 });
    const got = (await offGrid.locator(`tbody tr.data-grid__row td:nth-child(${col + 1})`).allInnerTexts()).map(Number);
    assert(JSON.stringify(got) === JSON.stringify(counts), `ascending ${JSON.stringify(got)}, want ${JSON.stringify(counts)}`);
    await offPanel.getByRole("button", { name: /^Sort by wordCount/ }).click();
    await header.and(page.locator('[aria-sort="descending"]')).waitFor({ timeout: 10_000 });
    await offPanel.getByRole("button", { name: /^Sort by wordCount/ }).click();
    await header.and(page.locator('[aria-sort="none"]')).waitFor({ timeout: 10_000 });
  });

  await check("GraphQL off: Find similar opens the rows nearest the row's vector, in the order the GraphQL node gives for the same data", async () => {
    const probe = offHeld.find((o) => Array.isArray(o.vector) && o.vector.length > 0);
    const row = offGrid.locator("tbody tr.data-grid__row").filter({ has: page.locator(`td:text-is("${probe.id}")`) });
    await row.locator("td").nth(2).click();
    await offPanel.getByRole("button", { name: "Row details" }).click();
    const detail = offPanel.getByRole("complementary", { name: `Details of ${probe.id}` });
    await detail.getByRole("button", { name: "Find similar" }).click();
    const panel = page.locator(`section.panel--similar[aria-label="Similar to ${probe.id}"]:visible`);
    const grid = panel.getByRole("table");
    await grid.locator("tbody tr.data-grid__row").first().waitFor({ timeout: 20_000 });
    const heads = await grid.locator("thead th").evaluateAll((ths) => ths.map((th) => th.querySelector(".data-grid__name")?.textContent ?? ""));
    const ids = (await grid.locator("tbody tr.data-grid__row td:nth-child(2)").allInnerTexts()).map((t) => t.trim());
    // The demo data is the same on both nodes: the GraphQL node's answer is the order to expect.
    const want = await fetch(`http://${demoAddr}/v1/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `{ Get { Article(nearVector: {vector: ${JSON.stringify(probe.vector)}}, limit: 25) { _additional { id } } } }` }),
    }).then((r) => r.json());
    const wantIds = want.data.Get.Article.map((o) => o._additional.id);
    assert(heads.includes("distance"), `headers ${JSON.stringify(heads)}`);
    assert(JSON.stringify(ids) === JSON.stringify(wantIds), `matches ${JSON.stringify(ids)}, want ${JSON.stringify(wantIds)}`);
    await page.screenshot({ path: join(artifacts, "e2e-graphql-off-similar.png") });
  });

  await check("GraphQL off: the search panel's bm25, hybrid and nearVector answer what the GraphQL node answers for the same data (issue 23)", async () => {
    await page.locator(`[role="tab"][title="Article — ${offName}"]`).click();
    await offPanel.getByRole("button", { name: "Search…" }).click();
    const panel = page.locator('section.panel--search[aria-label="Search Article"]:visible');
    await panel.getByRole("search").waitFor({ timeout: 10_000 });
    await searchChecks(panel, "GraphQL off:");
    await page.screenshot({ path: join(artifacts, "e2e-graphql-off-search.png") });
  });

  await check("GraphQL off: the editor's Get is translated to gRPC, says so, and answers the rows the node holds in the node's order", async () => {
    await page.keyboard.press("Control+e");
    const offEditor = page.locator(`section.panel--editor[aria-label="Query ${offName}"]`);
    await offEditor.waitFor({ timeout: 10_000 });
    const content = offEditor.locator(".cm-content");
    await content.click();
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Delete");
    await page.keyboard.insertText(
      '{ Get { Article(where: {path: ["wordCount"], operator: GreaterThan, valueInt: 1000}, sort: [{path: ["wordCount"], order: desc}], limit: 100) { title wordCount _additional { id } } } }',
    );
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+Enter");
    const grid = offEditor.getByRole("table", { name: "Rows of Article" });
    await grid.waitFor({ timeout: 20_000 });
    const notice = await offEditor.locator(".editor-result__notice").innerText();
    assert(/GraphQL off: the query was translated to its gRPC API/.test(notice), `the notice says ${JSON.stringify(notice)}`);
    const want = offHeld.filter((o) => o.wordCount > 1000);
    const ids = (await grid.locator("tbody tr.data-grid__row td:nth-child(2)").allInnerTexts()).map((t) => t.trim());
    assert(want.length > 0 && JSON.stringify([...ids].sort()) === JSON.stringify(want.map((o) => o.id).sort()), `uuids ${JSON.stringify(ids)}, want ${JSON.stringify(want.map((o) => o.id))}`);
    const counts = ids.map((id) => offHeld.find((o) => o.id === id).wordCount);
    assert(counts.every((c, i) => i === 0 || counts[i - 1] >= c), `wordCount order ${JSON.stringify(counts)}`);
    await page.screenshot({ path: join(artifacts, "e2e-graphql-off-editor.png") });
  });

  await check("GraphQL off: the hybrid template runs on a collection without a vectorizer, translated to gRPC, with the rows the GraphQL node answers for the same data (issue 23)", async () => {
    const offEditor = page.locator(`section.panel--editor[aria-label="Query ${offName}"]`);
    const content = offEditor.locator(".cm-content");
    await content.click();
    await page.keyboard.press("Control+a");
    await page.keyboard.press("Delete");
    await offEditor.getByRole("combobox", { name: "Insert a template" }).selectOption("hybrid");
    await content.filter({ hasText: "has no vectorizer" }).waitFor({ timeout: 10_000 });
    await content.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Control+Enter");
    const grid = offEditor.getByRole("table", { name: "Rows of Article" });
    await grid.locator("thead th").filter({ hasText: /^score/ }).waitFor({ timeout: 20_000 });
    const notice = await offEditor.locator(".editor-result__notice").innerText();
    assert(/translated to its gRPC API/.test(notice), `the notice says ${JSON.stringify(notice)}`);
    const ids = (await grid.locator("tbody tr.data-grid__row td:nth-child(2)").allInnerTexts()).map((t) => t.trim());
    const query = await offEditor.evaluate((el) => [...el.querySelectorAll(".cm-line")].map((l) => l.textContent).join("\n"));
    const want = await fetch(`http://${demoAddr}/v1/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) }).then((r) => r.json());
    assert(!want.errors, `the GraphQL node refuses the template: ${JSON.stringify(want.errors)}`);
    const wantIds = want.data.Get.Article.map((o) => o._additional.id);
    assert(wantIds.length > 0 && JSON.stringify(ids) === JSON.stringify(wantIds), `rows ${JSON.stringify(ids)}, the GraphQL node answers ${JSON.stringify(wantIds)}`);
  });

  // Issue 23, item 1: tenants, on the GraphQL-off node (fixtures.LoadTenants): Shop has the
  // tenants north, south and an inactive west; Crowd has 50,000 inactive tenants.
  const offTables = offItem.getByRole("group");
  const tenantsHeld = async (tenant) =>
    fetch(`http://${offAddr}/v1/objects?class=Shop&tenant=${tenant}&limit=100`)
      .then((r) => r.json())
      .then((d) => d.objects.map((o) => o.id).sort());
  const tenantStatus = async (tenant) =>
    fetch(`http://${offAddr}/v1/schema/Shop/tenants`)
      .then((r) => r.json())
      .then((ts) => ts.find((t) => t.name === tenant)?.activityStatus);

  await check("Tenants: a collection with 50,000 tenants shows its tenant list within a second, a window of rows, filtered from the keyboard", async () => {
    const crowd = offTables.getByRole("treeitem", { name: "Crowd, multi-tenant" });
    await crowd.filter({ hasText: "50,000 tenants" }).waitFor({ timeout: 30_000 });
    const t0 = Date.now();
    await crowd.locator(".table-item").click();
    await crowd.getByRole("option").first().waitFor({ timeout: 10_000 });
    const took = Date.now() - t0;
    const rendered = await crowd.getByRole("option").count();
    assert(took < 1000, `the list of 50,000 tenants took ${took} ms to appear`);
    assert(rendered > 0 && rendered < 40, `${rendered} tenant rows are in the page`);
    const box = crowd.getByRole("combobox", { name: "Filter the tenants of Crowd" });
    await box.click();
    await page.keyboard.type("tenant-4999");
    // The filtered window has come when the first row matches and no 11th row is left.
    await crowd.locator(".tenant-item__name").first().filter({ hasText: /^tenant-4999/ }).waitFor({ timeout: 10_000 });
    await crowd.getByRole("option").nth(10).waitFor({ state: "detached", timeout: 10_000 });
    const names = await crowd.locator(".tenant-item__name").allInnerTexts();
    assert(names.length === 10 && names.every((n) => n.startsWith("tenant-4999")), `filtered to ${JSON.stringify(names)}`);
    await page.screenshot({ path: join(artifacts, "e2e-tenants-crowd.png") });
    await crowd.locator(".table-item").click();
    await crowd.getByRole("listbox").waitFor({ state: "detached", timeout: 5_000 });
    console.error(`tenants: 50,000 listed in ${took} ms`);
  });

  await check("Tenants: a tenant opens as a table holding the rows the node holds for that tenant only", async () => {
    const shop = offTables.getByRole("treeitem", { name: "Shop, multi-tenant" });
    await shop.filter({ hasText: "3 tenants" }).waitFor({ timeout: 10_000 });
    await shop.locator(".table-item").click();
    await shop.getByRole("option", { name: /^south/ }).click();
    await page.getByRole("tab", { name: "Shop@south", selected: true }).waitFor({ timeout: 10_000 });
    const panel = page.locator('section.panel--table[aria-label="Shop@south"]:visible');
    const grid = panel.getByRole("table", { name: "Rows of Shop@south" });
    const want = await tenantsHeld("south");
    const got = await shownIds(panel, grid, want.length);
    assert(want.length === 3 && JSON.stringify(got) === JSON.stringify(want), `rows ${JSON.stringify(got)}, the node holds ${JSON.stringify(want)} in south`);
    await page.screenshot({ path: join(artifacts, "e2e-tenants-shop.png") });
  });

  await check("F5 in a table tab reads again a row written outside the app, as the node holds it (issue 23)", async () => {
    const panel = page.locator('section.panel--table[aria-label="Shop@south"]:visible');
    const grid = panel.getByRole("table", { name: "Rows of Shop@south" });
    const id = "00000023-0000-4000-8000-0000000000f5";
    const put = await fetch(`http://${offAddr}/v1/objects`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ class: "Shop", id, tenant: "south", properties: { title: "written outside", price: 1 } }),
    });
    assert(put.ok, `the node refused the write: ${put.status}`);
    const want = await tenantsHeld("south");
    await grid.locator("tbody td").first().click();
    await page.keyboard.press("F5");
    const got = await shownIds(panel, grid, want.length);
    assert(want.length === 4 && JSON.stringify(got) === JSON.stringify(want), `rows ${JSON.stringify(got)}, the node holds ${JSON.stringify(want)}`);
  });

  await check("a property added to Shop outside the app is noticed when the window gets the focus back, and Refresh shows its column (issue 23)", async () => {
    const panel = page.locator('section.panel--table[aria-label="Shop@south"]:visible');
    const add = await fetch(`http://${offAddr}/v1/schema/Shop/properties`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "addedOutside", dataType: ["text"] }),
    });
    assert(add.ok, `the node refused the property: ${add.status} ${await add.text()}`);
    // The window coming back to the front is a focus event on it: the person changed the
    // collection in another tool and returns.
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    const line = panel.locator(".notice-line").filter({ hasText: "definition changed outside this tab" });
    await line.waitFor({ timeout: 10_000 });
    await line.getByRole("button", { name: "Refresh" }).click();
    await line.waitFor({ state: "detached", timeout: 10_000 });
    await panel.getByRole("table", { name: "Rows of Shop@south" }).locator("thead th .data-grid__name").filter({ hasText: /^addedOutside/ }).waitFor({ timeout: 10_000 });
  });

  await check("Tenants: on Shop@south a filter, its count, a sort, a cell edit, Find similar and Export… each act on that tenant alone, read back from the node (issue 23)", async () => {
    const panel = page.locator('section.panel--table[aria-label="Shop@south"]:visible');
    const grid = panel.getByRole("table", { name: "Rows of Shop@south" });
    const objs = async (tenant) =>
      fetch(`http://${offAddr}/v1/objects?class=Shop&tenant=${tenant}&limit=100&include=vector`)
        .then((r) => r.json())
        .then((d) => d.objects);
    const south = await objs("south");
    const northBefore = JSON.stringify((await objs("north")).map((o) => [o.id, o.properties]).sort());
    // a filter, and the count the range line gives, are the node's for south
    const want = south.filter((o) => o.properties.price > 35).map((o) => o.id).sort();
    try {
      await applyFilter(panel, "price", "greater_than", ["35"]);
      const got = await shownIds(panel, grid, want.length);
      assert(want.length === 2 && JSON.stringify(got) === JSON.stringify(want), `filtered rows ${JSON.stringify(got)}, the node holds ${JSON.stringify(want)} in south`);
      await clearFilters(panel);
      await shownIds(panel, grid, south.length);
    } finally {
      await resetFilters(panel);
    }
    // a sort follows the node's order of south's prices
    const heads = async () => grid.locator("thead th").evaluateAll((ths) => ths.map((th) => th.querySelector(".data-grid__name")?.firstChild?.textContent ?? ""));
    const priceCol = (await heads()).indexOf("price");
    const header = grid.locator("thead th").filter({ has: page.getByRole("button", { name: /^Sort by price/ }) });
    await panel.getByRole("button", { name: /^Sort by price/ }).click();
    await header.and(page.locator('[aria-sort="ascending"]')).waitFor({ timeout: 10_000 });
    await panel.locator(".grid-bar__range").filter({ hasText: new RegExp(`^Rows 1–${south.length} of ${south.length}$`) }).waitFor({ timeout: 10_000 });
    const prices = (await grid.locator(`tbody tr.data-grid__row td:nth-child(${priceCol + 1})`).allInnerTexts()).map(Number);
    const wantPrices = south.map((o) => o.properties.price).sort((a, b) => a - b);
    assert(JSON.stringify(prices) === JSON.stringify(wantPrices), `sorted prices ${JSON.stringify(prices)}, the node's ${JSON.stringify(wantPrices)}`);
    await panel.getByRole("button", { name: /^Sort by price/ }).click();
    await panel.getByRole("button", { name: /^Sort by price/ }).click();
    await header.and(page.locator('[aria-sort="none"]')).waitFor({ timeout: 10_000 });
    // a cell edit is written to south's object only (and put back whatever happens)
    const target = south.find((o) => o.properties.title === "south item 1");
    try {
      const row = grid.locator("tbody tr.data-grid__row").filter({ has: page.locator(`td:text-is("${target.id}")`) });
      await row.locator("td").nth((await heads()).indexOf("title")).dblclick();
      const input = panel.getByRole("textbox", { name: /^Edit title of row/ });
      await input.fill("south item 1, edited");
      await input.press("Enter");
      const pending = panel.getByRole("region", { name: "Pending changes" });
      await pending.getByText("1 row changed, not yet written").waitFor({ timeout: 10_000 });
      await panel.getByRole("region", { name: "Grid of Shop@south" }).press("Control+s");
      await pending.getByText("1 row written").waitFor({ timeout: 20_000 });
      const after = await fetch(`http://${offAddr}/v1/objects/Shop/${target.id}?tenant=south`).then((r) => r.json());
      assert(after.properties.title === "south item 1, edited" && after.properties.price === target.properties.price, `south's object reads ${JSON.stringify(after.properties)}`);
      const inNorth = await fetch(`http://${offAddr}/v1/objects/Shop/${target.id}?tenant=north`);
      assert(inNorth.status === 404, `north answers ${inNorth.status} for south's object`);
      assert(JSON.stringify((await objs("north")).map((o) => [o.id, o.properties]).sort()) === northBefore, "north's objects changed");
      // Find similar: south's rows with a vector, nearest first by cosine distance as the node holds them
      const probe = south.find((o) => o.id === target.id);
      const cos = (a, b) => 1 - a.reduce((s, x, i) => s + x * b[i], 0) / (Math.hypot(...a) * Math.hypot(...b));
      const near = south.filter((o) => Array.isArray(o.vector) && o.vector.length > 0).map((o) => [o.id, cos(probe.vector, o.vector)]).sort((a, b) => a[1] - b[1]).map(([id]) => id);
      await row.locator("td").nth(2).click();
      await panel.getByRole("button", { name: "Row details" }).click();
      await panel.getByRole("complementary", { name: `Details of ${target.id}` }).getByRole("button", { name: "Find similar" }).click();
      const similar = page.locator(`section.panel--similar[aria-label="Similar to ${target.id}"]:visible`);
      await similar.getByRole("table").locator("tbody tr.data-grid__row").nth(near.length - 1).waitFor({ timeout: 20_000 });
      const ids = (await similar.getByRole("table").locator("tbody tr.data-grid__row td:nth-child(2)").allInnerTexts()).map((t) => t.trim());
      assert(near.length === 3 && JSON.stringify(ids) === JSON.stringify(near), `similar ${JSON.stringify(ids)}, south's by distance ${JSON.stringify(near)}`);
      await page.getByRole("button", { name: `Close Similar · ${target.id.slice(0, 8)}` }).click();
      await page.getByRole("tab", { name: "Shop@south", exact: true }).click();
      await panel.getByRole("button", { name: "Row details" }).click();
      // Export… writes south's rows with their vectors
      const out = join(artifacts, "e2e-tenant-export.jsonl");
      rmSync(out, { force: true });
      await panel.getByRole("button", { name: "Export…" }).click();
      const dialog = page.getByRole("dialog", { name: "Export Shop@south" });
      await dialog.getByRole("radio", { name: /JSON Lines/ }).check();
      await dialog.getByRole("checkbox", { name: "Include the vectors" }).check();
      await dialog.getByRole("button", { name: "Export…" }).click();
      answerSaveDialog("Export Shop@south", out);
      await dialog.getByRole("status", { name: "Export" }).waitFor({ timeout: 30_000 });
      await dialog.getByRole("button", { name: "Close" }).click();
      const rows = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l));
      const now = await objs("south");
      const byId = new Map(now.map((o) => [o.id, o]));
      assert(rows.length === now.length && rows.every((r) => byId.get(r.uuid) && r.title === byId.get(r.uuid).properties.title && JSON.stringify(r.vector ?? null) === JSON.stringify(byId.get(r.uuid).vector ?? null)),
        `the file holds ${JSON.stringify(rows.map((r) => [r.uuid, r.title]))}, south holds ${JSON.stringify(now.map((o) => [o.id, o.properties.title]))}`);
    } finally {
      const put = await fetch(`http://${offAddr}/v1/objects/Shop/${target.id}?tenant=south`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ class: "Shop", tenant: "south", properties: { title: "south item 1" } }),
      });
      assert(put.ok, `south item 1 was not put back: ${put.status}`);
    }
  });

  await check("a connection's page lists the cluster's nodes as the node reports them (issue 23)", async () => {
    await offItem.locator(".conn-item").click();
    const page1 = page.locator(`section.panel[aria-label="${offName}"]:visible`);
    const table = page1.getByRole("table", { name: "Nodes" });
    await table.waitFor({ timeout: 20_000 });
    const nodes = await fetch(`http://${offAddr}/v1/nodes`).then((r) => r.json());
    const rows = (await table.locator("tbody tr").allInnerTexts()).map((t) => t.split("\t").map((c) => c.trim()));
    assert(rows.length === nodes.nodes.length && rows[0][0] === nodes.nodes[0].name && rows[0][1] === "healthy" && rows[0][2] === nodes.nodes[0].version,
      `rows ${JSON.stringify(rows)}, the node reports ${JSON.stringify(nodes.nodes.map((n) => [n.name, n.status, n.version]))}`);
    // its objects as the node counts them (on disk: a flush between the two reads can move the
    // count, so the page's Refresh and the node are read again until they agree)
    const objectsCell = table.locator("tbody tr").first().locator("th, td").nth(3);
    let held = -1, agreed = false;
    for (let tries = 0; tries < 5 && !agreed; tries++) {
      held = (await fetch(`http://${offAddr}/v1/nodes?output=verbose`).then((r) => r.json())).nodes[0].stats.objectCount;
      const want = new RegExp(`^${held.toLocaleString("en-US")}$`);
      agreed = await objectsCell.filter({ hasText: want }).waitFor({ timeout: 5_000 }).then(() => true, () => false);
      if (!agreed) await page1.getByRole("button", { name: "Refresh" }).first().click();
    }
    assert(agreed, `the page says ${await objectsCell.innerText()} objects, the node counts ${held}`);
    await page1.getByText(`What each collection keeps on ${nodes.nodes[0].name}`).click();
    const shop = page1.getByRole("table", { name: `Collections on ${nodes.nodes[0].name}` }).getByRole("row", { name: /^Shop/ });
    const cells = (await shop.innerText()).split("\t").map((c) => c.trim());
    // The node lists the shards it has loaded: an inactive tenant's is not among them.
    const verbose = await fetch(`http://${offAddr}/v1/nodes?output=verbose`).then((r) => r.json());
    const shards = verbose.nodes[0].shards.filter((sh) => sh.class === "Shop").length;
    assert(shards > 0 && cells[0] === "Shop" && cells[2] === String(shards), `Shop's row says ${JSON.stringify(cells)}, the node lists ${shards} shards of Shop`);
    await page.screenshot({ path: join(artifacts, "e2e-nodes.png") });
  });

  await check("Tenants: an inactive tenant is explained, and Activate asks natively before anything changes", async () => {
    const shop = offTables.getByRole("treeitem", { name: "Shop, multi-tenant" });
    await shop.getByRole("option", { name: /^west/ }).click();
    const panel = page.locator('section.panel--table[aria-label="Shop@west"]:visible');
    await panel.getByRole("alert").filter({ hasText: "not active" }).waitFor({ timeout: 20_000 });
    const title = "Set tenant west to active";
    await shop.getByRole("button", { name: "Activate tenant west", exact: true }).click();
    assert(await dialogShown(title, 20_000), "no native question before activating");
    answerDialog(title, "Escape"); // closing the dialog answers No
    assert(await dialogGone(title, 10_000), "the question stayed up after No");
    await shop.getByRole("button", { name: "Activate tenant west", exact: true }).and(page.locator(":enabled")).waitFor({ timeout: 10_000 });
    const after = await tenantStatus("west");
    assert(after === "COLD" || after === "INACTIVE", `west is ${after} after a No`);
    await shop.getByRole("button", { name: "Activate tenant west", exact: true }).click();
    assert(await dialogShown(title, 20_000), "no native question the second time");
    answerDialog(title, "alt+y");
    await shop.getByRole("button", { name: "Deactivate tenant west" }).waitFor({ timeout: 20_000 });
    const now = await tenantStatus("west");
    assert(now === "HOT" || now === "ACTIVE", `west is ${now} after a Yes`);
    await page.getByRole("button", { name: "Close Shop@west" }).click();
    await shop.getByRole("option", { name: /^west/ }).click();
    const grid = panel.getByRole("table", { name: "Rows of Shop@west" });
    const want = await tenantsHeld("west");
    const got = await shownIds(panel, grid, want.length);
    assert(want.length === 1 && JSON.stringify(got) === JSON.stringify(want), `rows ${JSON.stringify(got)}, the node holds ${JSON.stringify(want)} in west`);
    // Deactivate asks natively too, and Yes makes west cold on the node
    const off = "Set tenant west to inactive";
    await shop.getByRole("button", { name: "Deactivate tenant west", exact: true }).click();
    assert(await dialogShown(off, 20_000), "no native question before deactivating");
    answerDialog(off, "alt+y");
    const west = shop.getByRole("option", { name: /^west/ });
    const shows = (word, button) =>
      west.filter({ has: page.locator(".tenant-item__status", { hasText: new RegExp(`^${word}$`) }) }).filter({ has: page.getByRole("button", { name: `${button} tenant west`, exact: true }) }).waitFor({ timeout: 20_000 });
    await shows("cold", "Activate");
    const cold = await tenantStatus("west");
    assert(cold === "COLD" || cold === "INACTIVE", `west is ${cold} after Deactivate's Yes`);
    // west made hot outside the app: F5 reads the open tenant list again, which says so
    const put = await fetch(`http://${offAddr}/v1/schema/Shop/tenants`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([{ name: "west", activityStatus: "ACTIVE" }]),
    });
    assert(put.ok, `the node refused the status: ${put.status}`);
    assert((await west.locator(".tenant-item__status").innerText()) === "cold", "west is not shown cold before F5");
    await grid.locator("tbody td").first().click();
    await page.keyboard.press("F5");
    await shows("hot", "Deactivate");
  });

  // Issue 22: the Map tab on the GraphQL-off node's Paper (3,000 papers in 8 topic clusters,
  // read over gRPC). The layout is read back through Export layout… (the native save dialog)
  // and held to the topics the node holds; the points' places on the screen are computed from
  // it as the map draws them (mapModel.fit, then regl-scatterplot's projection), so hover,
  // click and the lasso aim at real points.
  await check("Map: Paper's layout keeps each topic together (silhouette above 0.70, a random baseline near 0); hover and click name the row; a lasso around one topic opens exactly its rows as a grid tab (issue 22)", async () => {
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
      const during = await canvas.evaluate((c) => c.style.transform);
      await page.mouse.move(sx + dx, sy + dy, { steps: 4 });
      await page.mouse.up();
      assert(during === `translate(${dx / 2}px, ${dy / 2}px)`, `while dragging, the canvas is moved by ${JSON.stringify(during)}`);
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

  await check("Map: from the keyboard, the focused map selects all (Ctrl+A), clears (Escape), and an arrow and Space pick one point, whose row opens beside the map (issue 22)", async () => {
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

  await check("Map: Save picture… writes the drawn map as a PNG of the canvas's size to the file chosen in the native save dialog (issue 22)", async () => {
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

  await check("Map: a collection without vectors and one with vectors of two lengths each say why with Retry and no spinner; one with only named vectors maps the first and names it, the others a choice away; a Cancel ends in a sentence, not a spinner (issue 22)", async () => {
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

  await check("no errors in the page console", async () => {
    assert(consoleErrors.length === 0, consoleErrors.join(" | "));
  });
} finally {
  await browser.close();
}
process.exit(failed() === 0 ? 0 : 1);
