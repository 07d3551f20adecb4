// lib.mjs: what the e2e scripts (ui.mjs, postgres.mjs) share: their environment, the checks
// they print one JSON line each, and the answers xdotool gives the app's native dialogs on the
// Xvfb display of the dev app (APP_E2E_DISPLAY).
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";

/** need is the environment variable `name`; the script stops, saying which, when it is unset. */
export function need(name) {
  const v = process.env[name];
  if (!v) {
    console.error(`e2e: ${name} is not set`);
    process.exit(2);
  }
  return v;
}

let failures = 0;
/** onFailure, once the page exists, keeps a screenshot of the page as a failed check left it. */
let onFailure = async (_n) => {};
let shotName = "failed";

/** whenFailing sets what a failed check keeps: fn(n) saves the screenshot `${name}-${n}.png`. */
export function whenFailing(fn, name = "failed") {
  onFailure = fn;
  shotName = name;
}

/** failed is how many checks failed so far. */
export const failed = () => failures;

/** check runs one check and prints its JSON line; a failure keeps a screenshot and goes on. */
export async function check(name, fn) {
  try {
    await fn();
    console.log(JSON.stringify({ check: name, ok: true }));
  } catch (e) {
    failures++;
    await onFailure(failures).catch(() => {});
    console.log(JSON.stringify({ check: name, ok: false, error: `${String(e?.message ?? e)} (screenshot: ${shotName}-${failures}.png)` }));
  }
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
