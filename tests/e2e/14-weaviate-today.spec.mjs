// 14-weaviate-today (issue 40): what Weaviate 1.36 to 1.39 brought, in the window, on the
// round's release (make test runs the Weaviate specs on 1.35.2 and again on 1.39.0): a key
// whose role lacks a permission told so in words, and the connection's "Who you are"; a
// backup of a ticked table, and its restore behind a native question; the search panel's
// query profile (1.36.9+; hidden before); and on a release with namespaces (1.38+) a
// namespaced user's connection and an operator's tree of namespaces. Every value is held to
// what the node itself answers over REST with the key in question. The nodes are started by
// weaviate_today_test.go; its setup saves the connections with the CLI.
import { test } from "@playwright/test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { answerDialog, assert, dialogGone, dialogShown, need, useApp } from "./lib.mjs";
import { ensureConnection, openConnection, runSearch, serverIds, shownIds, tree } from "./weaviate.mjs";

const artifacts = need("APP_E2E_ARTIFACTS");
const version = need("APP_E2E_WEAVIATE_VERSION");
const demoAddr = need("APP_E2E_DEMO_ADDR");
const rbacAddr = need("APP_E2E_RBAC_ADDR");
const rbacGrpc = need("APP_E2E_RBAC_GRPC_PORT");
const backupDir = need("APP_E2E_RBAC_BACKUPS");
// Set on a release with namespaces only (weaviate_today_test.go).
const nsAddr = process.env.APP_E2E_NS_ADDR ?? "";

/** atLeast says whether the round's release is major.minor.patch or later. */
const atLeast = (...want) => {
  const got = version.split(".").map((p) => parseInt(p, 10));
  for (let i = 0; i < 3; i++) if (got[i] !== want[i]) return got[i] > want[i];
  return true;
};

// The keys of the RBAC node's users (RBACOptions in internal/testkit/weaviatetest) and of the
// namespaced node's operator and acme user; the CLI reads them from the environment.
process.env.APP_E2E_READER_KEY = "reader-key";
process.env.APP_E2E_ADMIN_KEY = "admin-key";
const keyArgs = (host, port, grpc, keyVar) => ["--host", host, "--port", port, "--grpc-port", grpc, "--auth-method", "API Key", "--api-key-env", keyVar];
const [rbacHost, rbacPort] = rbacAddr.split(":");
const reader = "RBAC reader";
const admin = "RBAC admin";

/** rest asks the node at addr with key, as the key's own client would: the answer's status and JSON. */
const rest = async (addr, key, method, path) => {
  const r = await fetch(`http://${addr}${path}`, { method, headers: { authorization: `Bearer ${key}` } });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
};

let page;
useApp({
  setup: async (p) => {
    page = p;
    await ensureConnection(page, reader, ...keyArgs(rbacHost, rbacPort, rbacGrpc, "APP_E2E_READER_KEY"));
    await ensureConnection(page, admin, ...keyArgs(rbacHost, rbacPort, rbacGrpc, "APP_E2E_ADMIN_KEY"));
  },
});

/**
 * connectionPage shows the page of the connection `name` and returns it: its tab when it has
 * one (a click on a connection in the tree lands on the table it last showed), else a click on
 * it in the tree.
 */
const connectionPage = async (name) => {
  const tab = page.getByRole("tablist", { name: "Open tabs" }).locator(`[role="tab"][title="${name}"]`);
  if ((await tab.count()) > 0) await tab.first().click();
  else await tree(page).getByRole("treeitem", { name, exact: true }).locator(".conn-item").first().click();
  const p = page.locator(`section.panel[aria-label="${name}"]:visible`);
  await p.getByText(/^Connected/).first().waitFor({ timeout: 30_000 });
  return p;
};

test("RBAC: a table the key may not read says, in words, what it lacks (not permitted: reading rows on Author needs read_data), and a table it may read pages as the node gives that key (issue 40, item 4)", async () => {
  await openConnection(page, reader);
  const tables = tree(page).getByRole("treeitem", { name: reader, exact: true }).getByRole("group");
  // The node's own answer to the key: Author's rows refused, Article's given.
  const refused = await rest(rbacAddr, "reader-key", "GET", "/v1/objects?class=Author&limit=1");
  assert(refused.status === 403, `the node answers the reader's read of Author with ${refused.status}: the check would prove nothing`);
  await tables.getByRole("treeitem", { name: "Author", exact: true }).click();
  const author = page.locator('section.panel--table[aria-label="Author"]:visible');
  await author.getByText("not permitted: reading rows on Author needs read_data").first().waitFor({ timeout: 30_000 });
  const rows = await author.locator("tbody tr.data-grid__row").count();
  assert(rows === 0, `${rows} rows of Author shown to a key the node refuses them`);
  await page.screenshot({ path: join(artifacts, "e2e-rbac-refused.png") });
  await tables.getByRole("treeitem", { name: "Article", exact: true }).click();
  const article = page.locator('section.panel--table[aria-label="Article"]:visible');
  const given = await rest(rbacAddr, "reader-key", "GET", "/v1/objects?class=Article&limit=100");
  const want = given.body.objects.map((o) => o.id).sort();
  const got = await shownIds(article, article.getByRole("table", { name: "Rows of Article" }), Math.min(want.length, 10));
  assert(want.length > 0 && got.every((id) => want.includes(id)) && got.length === Math.min(want.length, 10), `Article shows ${JSON.stringify(got)}; the node gives the key ${want.length} rows`);
});

test("RBAC: the connection's page says who the key is, its role and each permission, as the node tells that key, and the database's roles only where the key may read them (issue 40, item 4)", async () => {
  const own = (await rest(rbacAddr, "reader-key", "GET", "/v1/users/own-info")).body;
  const p = await connectionPage(reader);
  const who = p.getByRole("region", { name: "Who you are" });
  await who.getByLabel("The connection's user").filter({ hasText: `User ${own.username}` }).waitFor({ timeout: 20_000 });
  const roleNames = own.roles.map((r) => r.name).sort();
  const shown = (await who.getByLabel("Its roles").locator("details > summary").allInnerTexts()).map((t) => t.split(" · ")[0].replace(/ built-in$/, "").trim()).sort();
  assert(JSON.stringify(shown) === JSON.stringify(roleNames), `roles shown ${JSON.stringify(shown)}, the node tells the key ${JSON.stringify(roleNames)}`);
  const role = own.roles.find((r) => r.name === "article-reader");
  await who.getByText(/^article-reader/).first().click();
  const perms = who.getByRole("table", { name: "Permissions of article-reader" });
  const actions = (await perms.locator("tbody tr td:nth-child(2)").allInnerTexts()).map((t) => t.trim()).sort();
  const wantActions = role.permissions.map((x) => x.action).sort();
  assert(JSON.stringify(actions) === JSON.stringify(wantActions), `permissions shown ${JSON.stringify(actions)}, the node's ${JSON.stringify(wantActions)}`);
  const words = await perms.locator("tbody tr td:first-child").allInnerTexts();
  assert(words.every((w) => w.trim().length > 0), `a permission without words: ${JSON.stringify(words)}`);
  const allRoles = await rest(rbacAddr, "reader-key", "GET", "/v1/authz/roles");
  const section = who.getByRole("region", { name: "The database's roles" });
  // The node lists to a key the roles it may read: none (an empty list or a refusal) to one
  // without read_roles, whose page then shows no such section.
  const readable = allRoles.status === 200 ? allRoles.body.map((r) => r.name).sort() : [];
  if (readable.length > 0) {
    await section.waitFor({ timeout: 5_000 });
    const listed = (await section.locator("details > summary").allInnerTexts()).map((t) => t.split(" · ")[0].replace(/ built-in$/, "").trim()).sort();
    assert(JSON.stringify(listed) === JSON.stringify(readable), `the database's roles shown ${JSON.stringify(listed)}, the node lists ${JSON.stringify(readable)} to the key`);
  } else assert((await section.count()) === 0, `the database's roles are shown to a key the node lists none (${allRoles.status} ${JSON.stringify(allRoles.body)})`);
  await page.screenshot({ path: join(artifacts, "e2e-rbac-who.png") });
});

test("Backups: a backup of the ticked table is followed to its end, as the node and its backup directory hold it; Restore… asks natively, No sends nothing, Yes brings the table back as it was (issue 40, item 5)", async () => {
  const before = (await rest(rbacAddr, "admin-key", "GET", "/v1/objects?class=Note&limit=100")).body.objects.map((o) => [o.id, o.properties.text]).sort();
  assert(before.length === 3, `Note holds ${before.length} rows before the backup`);
  await openConnection(page, admin);
  const p = await connectionPage(admin);
  const section = p.getByRole("region", { name: "Backups" });
  await section.getByText(`(${backupDir})`, { exact: false }).waitFor({ timeout: 20_000 });
  await section.getByRole("form", { name: "New backup" }).getByRole("checkbox", { name: "Note", exact: true }).check();
  await section.getByRole("button", { name: "Back up" }).click();
  const finished = section.getByText(/^Backup \S+ finished/);
  await finished.waitFor({ timeout: 60_000 });
  const id = (await finished.innerText()).split(" ")[1].replace(/[.:]$/, "");
  const status = (await rest(rbacAddr, "admin-key", "GET", `/v1/backups/filesystem/${id}`)).body;
  assert(status.status === "SUCCESS" && existsSync(join(backupDir, id)), `the node says ${JSON.stringify(status)}; its directory ${existsSync(join(backupDir, id)) ? "holds" : "lacks"} ${id}`);
  const row = section.getByRole("table", { name: "Backups" }).getByRole("row", { name: new RegExp(`^${id}`) });
  const cells = (await row.innerText()).split("\t").map((c) => c.trim());
  assert(cells[1] === "succeeded" && cells[2] === "Note", `the backup's row says ${JSON.stringify(cells)}`);
  await page.screenshot({ path: join(artifacts, "e2e-backups.png") });

  // The table is lost outside the app; the backup brings it back.
  const gone = await rest(rbacAddr, "admin-key", "DELETE", "/v1/schema/Note");
  assert(gone.status === 200, `the node did not drop Note: ${gone.status}`);
  const title = `Restore a backup of “${admin}”`;
  await row.getByRole("button", { name: `Restore ${id}` }).click();
  assert(await dialogShown(title, 20_000), "no native question before the restore");
  answerDialog(title, "Escape"); // closing the dialog answers No
  assert(await dialogGone(title, 10_000), "the question stayed up after No");
  await section.getByText("Not restored: nothing was sent.").waitFor({ timeout: 10_000 });
  const still = await rest(rbacAddr, "admin-key", "GET", "/v1/schema/Note");
  assert(still.status === 404, `after No the node has Note again (${still.status})`);
  await row.getByRole("button", { name: `Restore ${id}` }).click();
  answerDialog(title, "alt+y");
  await section.getByText(new RegExp(`^Restore of ${id} finished`)).waitFor({ timeout: 60_000 });
  const after = (await rest(rbacAddr, "admin-key", "GET", "/v1/objects?class=Note&limit=100")).body.objects.map((o) => [o.id, o.properties.text]).sort();
  assert(JSON.stringify(after) === JSON.stringify(before), `Note after the restore: ${JSON.stringify(after)}; before: ${JSON.stringify(before)}`);
});

test(`Query profile: the search panel shows the node's own profile of a search, shard by shard with a bar a phase, on a release that profiles (1.36.9+), and no Profile on one that does not (issue 40, item 6; this round: ${version})`, async () => {
  await openConnection(page, "Demo Weaviate");
  await tree(page).getByRole("treeitem", { name: "Demo Weaviate", exact: true }).getByRole("group").getByRole("treeitem", { name: "Article", exact: true }).click();
  const articlePanel = page.locator('section.panel--table[aria-label="Article"]:visible');
  await articlePanel.getByRole("button", { name: "Search…" }).click();
  const panel = page.locator('section.panel--search[aria-label="Search Article"]:visible');
  const form = panel.getByRole("search");
  await form.waitFor({ timeout: 10_000 });
  const profile = form.getByRole("checkbox", { name: "Profile" });
  if (!atLeast(1, 36, 9)) {
    await form.getByRole("button", { name: "Search" }).waitFor();
    assert((await profile.count()) === 0, `Profile is offered on ${version}, which profiles no search`);
    return;
  }
  const probe = (await fetch(`http://${demoAddr}/v1/objects?class=Article&limit=1&include=vector`).then((r) => r.json())).objects[0];
  const got = await runSearch(panel, async (f) => {
    await f.getByRole("combobox", { name: "Search by" }).selectOption({ label: "Near vector" });
    await f.getByRole("textbox", { name: "Vector" }).fill(JSON.stringify(probe.vector));
    await f.getByRole("spinbutton", { name: "Limit" }).fill("5");
    await profile.check();
  });
  const want = await serverIds(demoAddr, `{ Get { Article(nearVector: {vector: ${JSON.stringify(probe.vector)}}, limit: 5) { _additional { id } } } }`);
  assert(JSON.stringify(got.ids) === JSON.stringify(want), `the profiled search ${JSON.stringify(got.ids)}, the server's ${JSON.stringify(want)}`);
  const view = panel.getByRole("region", { name: "Query profile" });
  await view.waitFor({ timeout: 10_000 });
  const shards = (await fetch(`http://${demoAddr}/v1/nodes?output=verbose`).then((r) => r.json())).nodes.flatMap((n) => n.shards ?? []).filter((s) => s.class === "Article").map((s) => s.name);
  const captions = await view.locator("caption").allInnerTexts();
  // The profile names a shard as the server's index does: "<collection in lower case>_<shard>".
  const named = captions.map((c) => /· shard (\S+)/.exec(c)?.[1] ?? "");
  const known = (s) => shards.some((sh) => s === sh || s === `article_${sh}`);
  assert(captions.length > 0 && named.every(known), `the profile's tables ${JSON.stringify(captions)}; the node's shards of Article ${JSON.stringify(shards)}`);
  const phases = await view.locator("tbody th").count();
  const bars = await view.getByRole("img", { name: /% of the longest phase$/ }).count();
  assert(phases > 0 && bars > 0, `${phases} phases and ${bars} bars in the profile`);
  await page.screenshot({ path: join(artifacts, "e2e-query-profile.png") });
});

// Namespaces exist from 1.38: on an older round these checks are not declared (the round on
// 1.39.0 runs them), rather than passed without running.
if (nsAddr) {
  const [nsHost, nsPort] = nsAddr.split(":");
  const nsGrpc = need("APP_E2E_NS_GRPC_PORT");
  process.env.APP_E2E_NS_USER_KEY = need("APP_E2E_NS_USER_KEY");
  const userConn = "Namespace acme";
  const operatorConn = "Namespaces (operator)";

  test("Namespaces: a namespaced user's key lists its namespace's collections by their short names and pages Article as the node holds acme's (issue 40, item 3)", async () => {
    await ensureConnection(page, userConn, ...keyArgs(nsHost, nsPort, nsGrpc, "APP_E2E_NS_USER_KEY"));
    await openConnection(page, userConn);
    const tables = tree(page).getByRole("treeitem", { name: userConn, exact: true }).getByRole("group");
    const listed = (await tables.getByRole("treeitem").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")))).sort();
    const theirs = (await rest(nsAddr, process.env.APP_E2E_NS_USER_KEY, "GET", "/v1/schema")).body.classes.map((c) => c.class).sort();
    assert(JSON.stringify(listed) === JSON.stringify(theirs) && JSON.stringify(theirs) === JSON.stringify(["Article", "Author"]), `the tree lists ${JSON.stringify(listed)}; the node gives the key ${JSON.stringify(theirs)}`);
    await tables.getByRole("treeitem", { name: "Article", exact: true }).click();
    const panel = page.locator('section.panel--table[aria-label="Article"]:visible');
    const held = (await rest(nsAddr, "admin-key", "GET", "/v1/objects?class=acme:Article&limit=100")).body.objects.map((o) => o.id).sort();
    const got = await shownIds(panel, panel.getByRole("table", { name: "Rows of Article" }), held.length);
    assert(held.length === 3 && JSON.stringify(got) === JSON.stringify(held), `Article shows ${JSON.stringify(got)}; the node holds ${JSON.stringify(held)} in acme:Article`);
    await page.screenshot({ path: join(artifacts, "e2e-namespace-user.png") });
  });

  test("Namespaces: an operator's key sees each namespace as a folded level of the tree, its collections under it by their short names (issue 40, item 3)", async () => {
    await ensureConnection(page, operatorConn, ...keyArgs(nsHost, nsPort, nsGrpc, "APP_E2E_ADMIN_KEY"));
    const conn = tree(page).getByRole("treeitem", { name: operatorConn, exact: true });
    await conn.locator(".conn-item").first().click();
    await conn.getByRole("group").getByRole("treeitem").first().waitFor({ timeout: 30_000 });
    const classes = (await rest(nsAddr, "admin-key", "GET", "/v1/schema")).body.classes.map((c) => c.class);
    const byNs = new Map();
    for (const c of classes) {
      const [ns, short] = c.split(":");
      byNs.set(ns, [...(byNs.get(ns) ?? []), short].sort());
    }
    assert(byNs.size === 2 && byNs.get("acme")?.length === 2, `the node's collections ${JSON.stringify(classes)}`);
    for (const [ns, members] of byNs) {
      const group = conn.getByRole("treeitem", { name: `${ns}, ${members.length} ${members.length === 1 ? "table" : "tables"}`, exact: true });
      await group.waitFor({ timeout: 10_000 });
      assert((await group.getAttribute("aria-expanded")) === "false", `${ns} is not folded at first`);
    }
    const acme = conn.getByRole("treeitem", { name: "acme, 2 tables", exact: true });
    await acme.locator(".table-item--group").click();
    await acme.getByRole("treeitem", { name: "Article", exact: true }).waitFor({ timeout: 10_000 });
    const under = (await acme.getByRole("group").getByRole("treeitem").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")))).sort();
    assert(JSON.stringify(under) === JSON.stringify(byNs.get("acme")), `under acme: ${JSON.stringify(under)}; the node's ${JSON.stringify(byNs.get("acme"))}`);
    await page.screenshot({ path: join(artifacts, "e2e-namespaces-tree.png") });
  });
}
