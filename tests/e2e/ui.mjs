// ui.mjs: drives the real UI served by `wails dev` (Go bindings over the dev server's
// websocket IPC) with headless Chromium, and prints one JSON line per check. Run by
// e2e_test.go, which starts wails dev and passes:
//   APP_E2E_URL          the wails dev server, e.g. http://127.0.0.1:34115
//   APP_E2E_CLI          an app binary, for `connection add` while the page is open
//   APP_E2E_CONFIG_DIR   the config dir the dev app uses
//   APP_E2E_ARTIFACTS    where screenshots go
//   CHROMIUM             the browser (default /usr/bin/chromium)
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { join } from "node:path";

const url = need("APP_E2E_URL");
const cli = need("APP_E2E_CLI");
const configDir = need("APP_E2E_CONFIG_DIR");
const artifacts = need("APP_E2E_ARTIFACTS");

function need(name) {
  const v = process.env[name];
  if (!v) {
    console.error(`ui.mjs: ${name} is not set`);
    process.exit(2);
  }
  return v;
}

let failed = 0;
async function check(name, fn) {
  try {
    await fn();
    console.log(JSON.stringify({ check: name, ok: true }));
  } catch (e) {
    failed++;
    console.log(JSON.stringify({ check: name, ok: false, error: String(e?.message ?? e) }));
  }
}

function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
  // playwright gives every launch a fresh temporary profile (--user-data-dir) itself.
});

try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: "light" });
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
  const list = page.getByRole("listbox", { name: "Saved connections" });

  await check("the saved connection from the real backend is listed with type and host:port", async () => {
    const option = list.getByRole("option").filter({ hasText: "Demo Weaviate" });
    await option.waitFor({ timeout: 30_000 });
    const text = await option.innerText();
    assert(text.includes("Weaviate") && text.includes("127.0.0.1:8080"), `option text is ${JSON.stringify(text)}`);
    await page.screenshot({ path: join(artifacts, "e2e-list.png") });
  });

  await check("Enter on the focused list opens the connection in a tab", async () => {
    await list.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("tab", { name: "Demo Weaviate", selected: true }).waitFor({ timeout: 5_000 });
    await page.getByRole("heading", { level: 2, name: "Demo Weaviate" }).waitFor({ timeout: 5_000 });
  });

  await check("a connection saved with the CLI while the window is open appears without a reload", async () => {
    execFileSync(cli, ["--config-dir", configDir, "connection", "add", "--name", "Added Later", "--host", "localhost", "--port", "8099"], {
      env: { ...process.env, APP_KEYRING_BACKEND: "file", APP_KEYRING_PASSWORD: "test" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await list.getByRole("option").filter({ hasText: "Added Later" }).waitFor({ timeout: 10_000 });
    const n = await list.getByRole("option").count();
    assert(n === 2, `${n} options listed, want 2`);
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

  await check("no errors in the page console", async () => {
    assert(consoleErrors.length === 0, consoleErrors.join(" | "));
  });
} finally {
  await browser.close();
}
process.exit(failed === 0 ? 0 : 1);
