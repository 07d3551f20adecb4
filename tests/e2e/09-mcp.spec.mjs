// 09-mcp (issue 11, 41): Settings of the MCP server against the running app's endpoint:
// where it runs and Require a token, tokens created, shown once and revoked (native dialog),
// a client that called listed under Connected clients and disconnected, Connect a client's
// configurations (Codex's as TOML), and the activity log of the requests made here.
import { test } from "@playwright/test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { answerDialog, answerSaveDialog, assert, need, useApp } from "./lib.mjs";
import { openSettings as settings } from "./weaviate.mjs";

const configDir = need("APP_E2E_CONFIG_DIR");
const artifacts = need("APP_E2E_ARTIFACTS");

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

let page;
const openSettings = (section) => settings(page, section);
useApp({
  setup: async (p) => {
    page = p;
  },
});

// Issue 11: Settings, MCP server.
test("Settings shows where the MCP server runs, and turning off Require a token applies at once", async () => {
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
test("Settings creates a token, shows it once with a copy button, and the MCP endpoint accepts it", async () => {
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

test("Revoke asks in the native dialog; after Yes the MCP endpoint refuses the token with 401", async () => {
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
test("a client that called appears under Connected clients; Disconnect (native dialog) revokes its token", async () => {
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
test("Connect a client shows the client's configuration, whose token the MCP endpoint accepts", async () => {
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
test("Connect a client lists every client with its file and proof, and shows Codex's configuration as TOML", async () => {
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
test("the activity log lists the requests made above, filters them, opens one, checks the chain and exports CSV", async () => {
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
