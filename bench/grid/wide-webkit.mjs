// wide-webkit.mjs: the wide table's scroll (wide-page.mjs) in the app's real window, WebKitGTK
// 4.1 under Xvfb, the window `wails dev` opens. The page is reached through WebKitGTK's own
// remote inspector: bench/grid starts wails dev with WEBKIT_INSPECTOR_HTTP_SERVER=127.0.0.1:PORT
// (WebKit's variable; the app has no hook for it), whose HTTP page lists the inspectable web
// views and whose WebSocket speaks WebKit's inspector protocol (Target.sendMessageToTarget
// wrapping Runtime.evaluate). Run with wide.mjs's environment plus
//   GRIDBENCH_INSPECTOR  127.0.0.1:PORT
// It prints one JSON line (or {"error": ...}); progress goes to stderr.
import { openWide, scrollWide } from "./wide-page.mjs";

const need = (name) => {
  const v = process.env[name];
  if (!v) {
    console.log(JSON.stringify({ error: `wide-webkit.mjs: ${name} is not set` }));
    process.exit(2);
  }
  return v;
};
const inspector = need("GRIDBENCH_INSPECTOR");
const production = process.env.GRIDBENCH_URL;
const connection = need("GRIDBENCH_CONNECTION");
const table = need("GRIDBENCH_WIDE_TABLE");
const rows = Number(need("GRIDBENCH_WIDE_ROWS"));
const vPx = Number(need("GRIDBENCH_WIDE_V_PX"));
const hPx = Number(need("GRIDBENCH_WIDE_H_PX"));
const log = (s) => process.stderr.write(s + "\n");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** socketPath finds the app window's inspector socket on the server's target list page. */
async function socketPath() {
  let last = "";
  for (let i = 0; i < 120; i++) {
    try {
      const html = await (await fetch(`http://${inspector}/`)).text();
      last = html;
      const m = /\/socket\/\d+\/\d+\/[A-Za-z]+/.exec(html);
      if (m) return m[0];
    } catch (e) {
      last = String(e);
    }
    await sleep(500);
  }
  throw new Error(`no inspectable page at http://${inspector}/: ${last.slice(0, 2000)}`);
}

/** connect opens the inspector socket and answers send(method, params) against the page. */
async function connect(path) {
  const ws = new WebSocket(`ws://${inspector}${path}`);
  await new Promise((ok, fail) => {
    ws.onopen = ok;
    ws.onerror = () => fail(new Error(`WebSocket ws://${inspector}${path} did not open`));
  });
  let id = 0;
  const waiting = new Map();
  let pageTarget = null;
  const settle = (msg) => {
    const w = waiting.get(msg.id);
    if (!w) return;
    waiting.delete(msg.id);
    if (msg.error) w.fail(new Error(JSON.stringify(msg.error)));
    else w.ok(msg.result);
  };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(typeof ev.data === "string" ? ev.data : Buffer.from(ev.data).toString());
    if (msg.method === "Target.targetCreated" && (msg.params.targetInfo.type === "page" || !pageTarget)) pageTarget = msg.params.targetInfo.targetId;
    else if (msg.method === "Target.didCommitProvisionalTarget") pageTarget = msg.params.newTargetId;
    else if (msg.method === "Target.dispatchMessageFromTarget") settle(JSON.parse(msg.params.message));
    else if (msg.id !== undefined) settle(msg);
  };
  await sleep(1000); // Target.targetCreated comes first when the page is a multi-target one
  const send = (method, params = {}) =>
    new Promise((ok, fail) => {
      const msgId = ++id;
      waiting.set(msgId, { ok, fail });
      const inner = JSON.stringify({ id: msgId, method, params });
      if (pageTarget) ws.send(JSON.stringify({ id: ++id, method: "Target.sendMessageToTarget", params: { targetId: pageTarget, message: inner } }));
      else ws.send(inner);
    });
  return { send, close: () => ws.close(), target: () => pageTarget };
}

/**
 * run runs fn(arg) in the page and answers its value. The promise is not awaited through the
 * protocol: its outcome goes into window.__wideBench, read once a second (an evaluate of a
 * few microseconds on the page's main thread).
 */
async function run(send, fn, arg) {
  const start = `window.__wideBench = null; Promise.resolve().then(() => (${fn})(${JSON.stringify(arg)})).then((v) => { window.__wideBench = { v }; }, (e) => { window.__wideBench = { e: String(e && e.message) + " " + String(e && e.stack) }; }); 0`;
  const r0 = await send("Runtime.evaluate", { expression: start, returnByValue: true });
  if (r0.wasThrown) throw new Error(`in the window: ${JSON.stringify(r0.result)}`);
  for (;;) {
    await sleep(1000);
    const r = await send("Runtime.evaluate", { expression: 'window.__wideBench === undefined ? "reloaded" : JSON.stringify(window.__wideBench)', returnByValue: true });
    if (r.result?.value === "reloaded") throw new Error("the window's page reloaded mid-measure (Vite's hot reload: someone edited frontend/src)");
    const out = JSON.parse(r.result?.value ?? "null");
    if (out?.e) throw new Error(`in the window: ${out.e}`);
    if (out) return out.v;
  }
}

let exitCode = 0;
try {
  const path = await socketPath();
  const c = await connect(path);
  log(`inspector socket ${path}, page target ${c.target() ?? "(the socket itself)"}`);
  // The window shows Vite's dev server (React's development build, reloaded whenever anyone
  // edits frontend/src); the page Chromium measures is the production build. The window is
  // sent there, its Go bindings served through wails dev as they are for Chromium; where that
  // does not come up, the window's own page is measured and said so.
  const first = await run(c.send, async () => location.href, null);
  let where = null;
  if (production && production !== first) {
    try {
      await c.send("Runtime.evaluate", { expression: `location.href = ${JSON.stringify(production)}; 0` });
      await sleep(3000);
      where = await run(c.send, async () => {
        for (let i = 0; i < 300 && !document.querySelector('[role="tree"][aria-label="Saved connections"] .conn-item'); i++) await new Promise((r) => setTimeout(r, 100));
        if (!document.querySelector('[role="tree"][aria-label="Saved connections"] .conn-item')) throw new Error("no connection list");
        return { href: location.href, ua: navigator.userAgent, width: innerWidth, height: innerHeight };
      }, null);
    } catch (e) {
      log(`the production page did not come up in the window (${e.message}): measuring ${first}`);
      await c.send("Runtime.evaluate", { expression: `location.href = ${JSON.stringify(first)}; 0` }).catch(() => {});
      await sleep(3000);
    }
  }
  where ??= await run(c.send, async () => ({ href: location.href, ua: navigator.userAgent, width: innerWidth, height: innerHeight }), null);
  log(`the window's page: ${where.href} (${where.width}x${where.height}), ${where.ua}`);
  // Vite's hot reload reloads the window's page when anyone edits frontend/src (this is a shared
  // tree): a measure cut short by a reload is taken again, up to three times in all.
  let opened, vertical, horizontal;
  for (let attempt = 1; ; attempt++) {
    try {
      opened = await run(c.send, openWide, { connection, table, rows });
      log(`${table} open in the window: ${opened.columns} columns, all ${rows} rows loaded in ${Math.round(opened.allRowsMs)} ms`);
      await sleep(1000);
      vertical = { ...(await run(c.send, scrollWide, { table, direction: "vertical", step: vPx })), stepPx: vPx };
      log(`vertical: ${Math.round(vertical.scrollPx)} px in ${vertical.frames.length} frames`);
      horizontal = { ...(await run(c.send, scrollWide, { table, direction: "horizontal", step: hPx })), stepPx: hPx };
      log(`horizontal: ${Math.round(horizontal.scrollPx)} px across and back in ${horizontal.frames.length} frames`);
      break;
    } catch (e) {
      if (attempt >= 3 || !/reloaded mid-measure/.test(String(e))) throw e;
      log(`attempt ${attempt}: ${e.message}; again`);
      await sleep(5000);
    }
  }
  c.close();
  console.log(JSON.stringify({ engine: where.ua, page: where.href, window: [where.width, where.height], ...opened, vertical, horizontal }));
} catch (e) {
  console.log(JSON.stringify({ error: String(e?.stack ?? e) }));
  exitCode = 1;
}
process.exit(exitCode);
