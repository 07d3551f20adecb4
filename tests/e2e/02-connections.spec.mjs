// 02-connections: the tree follows the connections file (a connection saved with the CLI
// while the window is open appears), a connection to a closed port says the driver's reason,
// and the bindings' errors reach the page as `code: message`. Its setup saves "Form Weaviate"
// (made with the form by 01-plugins) when it runs alone.
import { test } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { assert, need, useApp } from "./lib.mjs";
import { ensureConnection } from "./weaviate.mjs";

const cli = need("APP_E2E_CLI");
const configDir = need("APP_E2E_CONFIG_DIR");
const demoAddr = need("APP_E2E_DEMO_ADDR");
const unreachablePort = need("APP_E2E_UNREACHABLE_PORT");

let page, list, connections;
useApp({
  setup: async (p, { first }) => {
    page = p;
    list = page.getByRole("tree", { name: "Saved connections" });
    connections = list.locator('[role="treeitem"][aria-level="1"]');
    if (first) await ensureConnection(page, "Form Weaviate", "--host", demoAddr.split(":")[0], "--port", demoAddr.split(":")[1]);
  },
});

test("a connection saved with the CLI while the window is open appears without a reload", async () => {
  execFileSync(cli, ["--config-dir", configDir, "connection", "add", "--name", "Added Later", "--host", "127.0.0.1", "--port", unreachablePort], {
    env: { ...process.env, APP_KEYRING_BACKEND: "file", APP_KEYRING_PASSWORD: "test" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await connections.filter({ hasText: "Added Later" }).waitFor({ timeout: 10_000 });
  const n = await connections.count();
  assert(n === 3, `${n} connections listed, want 3 (the CLI's, the form's and the new one)`);
});

test("opening a connection to a closed port shows the driver's Connection failed message", async () => {
  await connections.filter({ hasText: "Added Later" }).locator(".conn-item").click();
  const alert = list.getByRole("treeitem", { name: "Added Later" }).getByRole("alert");
  await alert.waitFor({ timeout: 30_000 });
  const text = await alert.innerText();
  assert(text.includes("Could not connect") && text.includes("Connection failed:"), `alert is ${JSON.stringify(text)}`);
  assert(!text.includes("connection: "), `the code leaked into the message: ${JSON.stringify(text)}`);
});

test("a table call on a connection that is not open is `unavailable: ...`", async () => {
  const reason = await page.evaluate(() =>
    window.go.app.ExplorerAPI.ListTables("no-such-connection").then(
      () => "resolved",
      (e) => (typeof e === "string" ? e : (e?.message ?? JSON.stringify(e))),
    ),
  );
  assert(/^unavailable: \S/.test(reason), `rejection was ${JSON.stringify(reason)}`);
});

test("a backend error reaches the page as `code: message` text", async () => {
  const reason = await page.evaluate(() =>
    window.go.app.ConnectionsAPI.Remove("no-such-connection").then(
      () => "resolved",
      (e) => (typeof e === "string" ? e : (e?.message ?? JSON.stringify(e))),
    ),
  );
  assert(/^not_found: \S/.test(reason), `rejection was ${JSON.stringify(reason)}`);
});
