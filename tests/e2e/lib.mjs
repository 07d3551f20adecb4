// lib.mjs: what the e2e specs (*.spec.mjs) share: their environment, the page each spec
// opens on the dev app (useApp: its console errors kept for the spec's "no errors in the page
// console", a screenshot of a failed test), and the answers xdotool gives the app's native
// dialogs on the Xvfb display of the dev app (APP_E2E_DISPLAY).
import { test } from "@playwright/test";
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

/** need is the environment variable `name`; it throws, saying which, when it is unset. */
export function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`e2e: ${name} is not set (e2e_test.go sets it; see README.md)`);
  return v;
}

/** runDir is this run's scratch directory (global-setup.mjs makes it, for every worker). */
const runDir = () => need("APP_E2E_RUN_DIR");

/**
 * firstStart says whether the spec `file` starts for the first time in this run: false when
 * the runner started its worker again after a failed test (the page then comes back with the
 * tabs the app remembered, which the spec's later tests build on).
 */
function firstStart(file) {
  const marker = join(runDir(), `started-${basename(file)}`);
  if (existsSync(marker)) return false;
  writeFileSync(marker, "");
  return true;
}

/** consoleErrors is what the pages of `group` ("ui", "postgres", "sqlite") logged as errors in this run. */
export function consoleErrors(group) {
  const f = join(runDir(), `console-${group}.log`);
  return existsSync(f) ? readFileSync(f, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
}

/**
 * useApp gives the spec its own page on the dev app (APP_E2E_URL), opened before its first
 * test and again, by the runner, after a failed one: `app.page` in the tests. The page's
 * console errors are kept for the "no errors in the page console" check of `group`. On the
 * spec's first start the tabs the app remembered from the specs before it are forgotten, so
 * the spec starts from an empty workspace, alone (APP_E2E_ONLY) or after any other; setup(page,
 * { first }) then brings the window to where the spec's tests start. On a start again after a
 * failed test `first` is false: the window comes back with the tabs it remembered (tables,
 * editors, connections, Settings; not a map, a search or a form), and the tab the failed test
 * ended on is selected again, so the spec's next tests go on from about where it stopped. A
 * failed test keeps a screenshot of the page as it left it, named in its error.
 */
export function useApp({ group = "ui", setup } = {}) {
  const app = { page: null };
  test.beforeAll(async ({ browser }, info) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: "light" });
    // As playwright-core's library defaults, which the scripts before the specs ran with.
    page.setDefaultTimeout(30_000);
    page.on("console", (m) => {
      if (m.type() !== "error") return;
      const where = m.location()?.url ?? "";
      appendFileSync(join(runDir(), `console-${group}.log`), JSON.stringify(`${m.text()}${where ? ` (${where})` : ""}`) + "\n");
    });
    page.on("pageerror", (e) => {
      const stack = String(e.stack ?? e);
      // Wails v2.16's browser IPC shim (served only by wails dev, never in the app) observes
      // document.body from <head> before the body exists; the real window does not load it.
      if (stack.includes("reading 'nodes'") && stack.includes("/wails/ipc.js")) return;
      appendFileSync(join(runDir(), `console-${group}.log`), JSON.stringify(stack) + "\n");
    });
    const first = firstStart(info.file);
    const remembered = rememberedTabs(first);
    await page.goto(need("APP_E2E_URL"), { waitUntil: "load", timeout: 60_000 });
    await page.getByRole("tree", { name: "Saved connections" }).waitFor({ timeout: 30_000 });
    app.page = page;
    if (first) await closeTabs(page);
    else {
      // The window reopens its tabs once their connections are connected: wait for them (a
      // tab whose connection fails is not reopened, hence the limit).
      const tabs = page.getByRole("tablist", { name: "Open tabs" }).getByRole("tab");
      for (const end = Date.now() + 15_000; (await tabs.count()) < remembered && Date.now() < end; ) await page.waitForTimeout(200);
      await showTab(page, lastTab(info.file));
    }
    if (setup) await setup(page, { first });
  });
  test.afterEach(async ({}, info) => {
    if (!app.page) return;
    const selected = await selectedTab(app.page).catch(() => null);
    if (selected) writeFileSync(join(runDir(), `tab-${basename(info.file)}`), selected);
    if (info.status === info.expectedStatus) return;
    // Named by the test's line: the runner starts the spec's worker again after a failure.
    const name = `failed-${basename(info.file).replace(/\.spec\.mjs$/, "")}-line${info.line}.png`;
    const path = join(need("APP_E2E_ARTIFACTS"), name);
    if (await app.page.screenshot({ path }).then(() => true, () => false)) info.attachments.push({ name: "screenshot", path, contentType: "image/png" });
  });
  test.afterAll(async () => {
    await app.page?.context().close();
  });
  return app;
}

/**
 * rememberedTabs is how many tabs the app remembers (layout.json in its config dir) for the
 * page about to open. On a spec's first start it first forgets them, so that the page opens
 * on an empty workspace (closing them on the page instead would race the window, which reopens
 * them only once their connections are connected); what else the layout holds stays.
 */
function rememberedTabs(forget) {
  const f = join(need("APP_E2E_CONFIG_DIR"), "layout.json");
  if (!existsSync(f)) return 0;
  const layout = JSON.parse(readFileSync(f, "utf8"));
  if (!forget) return layout.tabs?.length ?? 0;
  writeFileSync(`${f}.e2e`, JSON.stringify({ ...layout, tabs: [], active: "" }, null, 2) + "\n", { mode: 0o600 });
  renameSync(`${f}.e2e`, f);
  return 0;
}

/** selectedTab is the title (the tooltip) of the window's selected tab, null when none is. */
export async function selectedTab(page) {
  const tab = page.getByRole("tablist", { name: "Open tabs" }).locator('[role="tab"][aria-selected="true"]');
  return (await tab.count()) > 0 ? tab.first().getAttribute("title", { timeout: 5_000 }) : null;
}

/** lastTab is the title of the tab the spec `file`'s last test ended on ("" before its first). */
function lastTab(file) {
  const f = join(runDir(), `tab-${basename(file)}`);
  return existsSync(f) ? readFileSync(f, "utf8") : "";
}

/**
 * showTab selects the tab titled `title` when there is one and it is not selected: a step of
 * a test that works in a tab the test before it left selected, so that it works there too on
 * a page the runner opened again after a failure (nothing to do otherwise).
 */
export async function showTab(page, title) {
  if (!title) return;
  const tab = page.getByRole("tablist", { name: "Open tabs" }).locator(`[role="tab"][title="${title}"]`);
  if ((await tab.count()) > 0 && (await tab.first().getAttribute("aria-selected")) !== "true") await tab.first().click();
}

/** closeTabs closes every open tab of the window. */
export async function closeTabs(page) {
  const tabs = page.getByRole("tablist", { name: "Open tabs" }).getByRole("button", { name: /^Close / });
  for (let left = await tabs.count(); left > 0; left = await tabs.count()) await tabs.first().click();
}

export function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

/** focusDialog waits for the app's native dialog titled `title`, focuses it, and returns xdotool's env. */
export function focusDialog(title) {
  const env = { ...process.env, DISPLAY: need("APP_E2E_DISPLAY") };
  const ids = execFileSync("xdotool", ["search", "--sync", "--onlyvisible", "--name", `^${title}$`], { env, timeout: 30_000 })
    .toString()
    .trim()
    .split(/\s+/);
  execFileSync("xdotool", ["windowfocus", "--sync", ids[ids.length - 1]], { env, timeout: 10_000 });
  return env;
}

/** answerDialog presses `keys` in the app's native dialog titled `title`. */
export function answerDialog(title, keys) {
  const env = focusDialog(title);
  execFileSync("xdotool", ["key", "--clearmodifiers", keys], { env, timeout: 10_000 });
}

/**
 * dialogUp says whether the app's native dialog titled `title` is up: true or false when
 * xdotool could tell, null when it could not. A search that meets a window being destroyed
 * (a GTK entry's completion popup comes and goes with each key) dies of an X error with
 * exit status 1, the same status as "no window matches"; only a clean exit, nothing on
 * stderr, means no match.
 */
export function dialogUp(title) {
  const r = spawnSync("xdotool", ["search", "--onlyvisible", "--name", `^${title}$`], { env: { ...process.env, DISPLAY: need("APP_E2E_DISPLAY") }, timeout: 5_000 });
  if (r.status === 0 && r.stdout.toString().trim()) return true;
  if (r.status === 1 && !r.stdout.toString().trim() && !r.stderr.toString().trim()) return false;
  return null;
}

/** dialogShown polls, for up to ms, whether the app's native dialog titled `title` is up. */
export async function dialogShown(title, ms) {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    if (dialogUp(title)) return true;
  }
  return false;
}

/** dialogGone polls, for up to ms, until the app's native dialog titled `title` is seen gone twice running. */
export async function dialogGone(title, ms) {
  let gone = 0;
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    gone = dialogUp(title) === false ? gone + 1 : 0;
    if (gone === 2) return true;
  }
  return false;
}

/**
 * answerSaveDialog saves at path in the app's native save dialog titled `title`. As with the
 * open dialog (answerOpenDialog), the first keys a GTK dialog gets can be lost under load, so
 * the name is typed, selected and typed again whole before Return.
 */
export function answerSaveDialog(title, path) {
  const env = focusDialog(title);
  execFileSync("xdotool", ["key", "--clearmodifiers", "ctrl+a"], { env, timeout: 10_000 });
  execFileSync("xdotool", ["type", "--clearmodifiers", "--delay", "20", path], { env, timeout: 30_000 });
  execFileSync("xdotool", ["key", "--clearmodifiers", "ctrl+a"], { env, timeout: 10_000 });
  execFileSync("xdotool", ["type", "--clearmodifiers", "--delay", "20", path], { env, timeout: 30_000 });
  execFileSync("xdotool", ["key", "--clearmodifiers", "Return"], { env, timeout: 10_000 });
}

/**
 * answerOpenDialog opens path in the app's native open dialog titled `title`. Typing "/"
 * in a GTK file chooser pops up its location entry, but under load the keys that follow
 * at once can arrive before the entry has focus and are lost (measured: 14 of 30 answers
 * lost a character with two busy cores). So the path is typed once to bring the entry up,
 * then selected in the entry and typed again whole, and only then Return: 40 of 40 under
 * the same load. No key is sent again blindly: a second Return could land on whatever
 * the dialog left focused.
 */
export async function answerOpenDialog(title, path) {
  const env = focusDialog(title);
  execFileSync("xdotool", ["type", "--clearmodifiers", "--delay", "20", path], { env, timeout: 30_000 });
  execFileSync("xdotool", ["key", "--clearmodifiers", "ctrl+a"], { env, timeout: 10_000 });
  execFileSync("xdotool", ["type", "--clearmodifiers", "--delay", "20", path], { env, timeout: 30_000 });
  execFileSync("xdotool", ["key", "--clearmodifiers", "Return"], { env, timeout: 10_000 });
  if (await dialogGone(title, 20_000)) return;
  execFileSync("import", ["-window", "root", join(need("APP_E2E_ARTIFACTS"), "e2e-open-dialog.png")], { env, timeout: 10_000 });
  throw new Error(`the native dialog ${title} is still open after the answer (screen: e2e-open-dialog.png)`);
}
