// stdio-inspector.mjs: the MCP Inspector CLI 2.12.0 in stdio mode, launching app-mcp (the stdio
// bridge) against the running app: `inspector --cli <app-mcp> --config-dir DIR --no-start
// --method ...`, in the legacy era (the CLI's default for a command target) and with
// --protocol-era modern, and through a config file with stdio entries
// (interop/clients/inspector-stdio.mcp.json: APP_MCP and CONFIG_DIR are filled in, and
// --no-start is added so a failing check cannot leave a detached app behind). Each run lists
// tools, calls list_connections, and calls tools WITH ARGUMENTS (--tool-arg) on the weaviate
// fixture ($APP_MCP_FIXTURE): describe_table, and browse_table with limit=2 (a number). The
// result's era is read off it (a modern result carries _meta serverInfo, a legacy one never
// does). app-mcp authenticates with the handshake file's bridge token (readOnly: no write tool is
// listed), or with `-e APP_MCP_TOKEN=<fullAccess token>`, which must list the write tools.
// Last, app-mcp's stdio entry of the top-level README ("Clients that start a local program"),
// taken from the README itself, runs as an Inspector config file with its env APP_MCP_TOKEN.
// Usage: node stdio-inspector.mjs <path to app-mcp> <config dir>
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assert, assertEra, assertReadToolResult, check, done, READ_TOOL } from './check.mjs';
import { needFixture } from './fixture.mjs';
import { runInspector } from './inspector-cli.mjs';
import { bridgeArgs, stdioTarget } from './stdio-common.mjs';

const { bin, configDir } = stdioTarget();
const here = path.dirname(fileURLToPath(import.meta.url));
const WRITE_TOOLS = ['insert_rows', 'update_rows', 'delete_rows', 'confirm_destructive_operation'];
const dir = mkdtempSync(path.join(os.tmpdir(), 'app-inspector-stdio-'));

// The CLI launches app-mcp with its own small environment (HOME, PATH, ... and what -e or the
// config's env adds), so this runner's APP_MCP_TOKEN never reaches app-mcp. Secrets stay in memory
// and the catalog is a throwaway file, away from the user's ~/.mcp-inspector.
const env = { ...process.env, MCP_INSPECTOR_SECRET_STORE: 'memory', MCP_CATALOG_PATH: path.join(dir, 'catalog.json') };

// inspector runs the CLI; a --config run reads only the given file (it refuses a catalog beside it).
function inspector(target, ...args) {
  const runEnv = { ...env };
  if (target.includes('--config')) delete runEnv.MCP_CATALOG_PATH;
  return runInspector(target, args, runEnv);
}

// The stdio config file, with this app-mcp and config dir (and --no-start).
const configPath = path.join(dir, 'mcp.json');
await check('MCP Inspector CLI 2.12.0 (stdio config file)', 'interop/clients/inspector-stdio.mcp.json has stdio entries for app-mcp', async () => {
  const file = JSON.parse(readFileSync(path.join(here, '..', 'clients', 'inspector-stdio.mcp.json'), 'utf8'));
  const entries = Object.values(file.mcpServers ?? {});
  assert(entries.length === 2 && entries.every((e) => e.type === 'stdio' && e.command === 'APP_MCP'), `entries ${JSON.stringify(entries)}`);
  for (const e of entries) e.args = [...e.args.map((a) => (a === 'CONFIG_DIR' ? configDir : a)), '--no-start'];
  writeFileSync(configPath, JSON.stringify(file, null, 2).replaceAll('"APP_MCP"', JSON.stringify(bin)));
});

const adhoc = [bin, ...bridgeArgs(configDir)];
const runs = [
  { peer: 'MCP Inspector CLI 2.12.0 (stdio command app-mcp, legacy)', era: 'legacy', target: adhoc },
  { peer: 'MCP Inspector CLI 2.12.0 (stdio command app-mcp, --protocol-era modern)', era: 'modern', target: [...adhoc, '--protocol-era', 'modern'] },
  { peer: 'MCP Inspector CLI 2.12.0 (stdio config file, server app-stdio-legacy)', era: 'legacy', target: ['--config', configPath, '--server', 'app-stdio-legacy'] },
  { peer: 'MCP Inspector CLI 2.12.0 (stdio config file, server app-stdio-modern)', era: 'modern', target: ['--config', configPath, '--server', 'app-stdio-modern'] },
];
for (const { peer, era, target } of runs) {
  await check(peer, `tools/list lists ${READ_TOOL} and describe_table, no write tool (the bridge token is readOnly)`, async () => {
    const res = inspector(target, '--method', 'tools/list');
    const names = (res.tools ?? []).map((t) => t.name);
    assert(names.includes(READ_TOOL) && names.includes('describe_table'), `tools ${names}: ${JSON.stringify(res).slice(0, 200)}`);
    assert(!names.some((n) => WRITE_TOOLS.includes(n)), `the bridge token lists write tools: ${names}`);
  });
  await check(peer, `tools/call ${READ_TOOL} succeeds in the ${era} era`, async () => {
    const res = inspector(target, '--method', 'tools/call', '--tool-name', READ_TOOL);
    assertReadToolResult(res);
    assertEra(res, era);
    const names = (res.structuredContent?.connections ?? []).map((c) => c.name);
    assert(names.includes(needFixture().connection), `connections ${names}`);
  });
  await check(peer, `tools/call describe_table with --tool-arg connection and table (${era})`, async () => {
    const fx = needFixture();
    const res = inspector(target, '--method', 'tools/call', '--tool-name', 'describe_table',
      '--tool-arg', `connection=${fx.connection}`, '--tool-arg', `table=${fx.table}`);
    assertReadToolResult(res);
    assertEra(res, era);
    const sc = res.structuredContent;
    assert(sc?.name === fx.table, `structuredContent.name = ${sc?.name}`);
    const cols = (sc.columns ?? []).map((c) => c.name);
    assert(cols.includes('title') && cols.includes('body'), `columns ${cols}`);
  });
  await check(peer, `tools/call browse_table with --tool-arg connection, table and limit=2 (${era})`, async () => {
    const fx = needFixture();
    const res = inspector(target, '--method', 'tools/call', '--tool-name', 'browse_table',
      '--tool-arg', `connection=${fx.connection}`, '--tool-arg', `table=${fx.table}`, '--tool-arg', 'limit=2');
    assertReadToolResult(res);
    assertEra(res, era);
    const sc = res.structuredContent;
    assert(sc?.table === fx.table && sc.rows?.length === 2 && sc.truncated === true && sc.nextOffset === 2,
      `page ${JSON.stringify(sc).slice(0, 200)}`);
  });
}

await check('MCP Inspector CLI 2.12.0 (stdio command app-mcp, -e APP_MCP_TOKEN)', 'tools/list with -e APP_MCP_TOKEN=<fullAccess token> lists the write tools', async () => {
  const token = needFixture().tokens?.fullAccess;
  assert(token, 'the fixture has no fullAccess token');
  const res = inspector([...adhoc], '-e', `APP_MCP_TOKEN=${token}`, '--method', 'tools/list');
  const names = (res.tools ?? []).map((t) => t.name);
  assert(WRITE_TOOLS.every((n) => names.includes(n)), `a fullAccess APP_MCP_TOKEN lists ${names}`);
});

// readmeStdioEntry is app-mcp's stdio entry in the README's "Configure an MCP client" section (the
// ```json block with mcpServers whose server has a command), as users copy it into Claude Desktop.
function readmeStdioEntry() {
  const readme = readFileSync(path.join(here, '..', '..', 'README.md'), 'utf8');
  const section = readme.split(/^## Configure an MCP client$/m)[1]?.split(/^## /m)[0] ?? '';
  const block = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1])
    .find((b) => b.includes('mcpServers') && b.includes('"command"'));
  if (!block) throw new Error('README.md: no ```json block with an mcpServers command entry under "## Configure an MCP client"');
  return JSON.parse(block);
}

// The README's entry as it is (no type: the Inspector takes it as stdio), with this app-mcp, this
// config dir and the fullAccess token in env.APP_MCP_TOKEN filled in, and --no-start added.
{
  const PEER = "MCP Inspector CLI 2.12.0 (the README's app-mcp entry as a config file)";
  const readmePath = path.join(dir, 'readme-stdio.json');
  await check(PEER, 'the README block is an mcpServers entry: command app-mcp, args --config-dir, env APP_MCP_TOKEN', async () => {
    const file = readmeStdioEntry();
    const [name, entry] = Object.entries(file.mcpServers ?? {})[0] ?? [];
    assert(name && /app-mcp(\.exe)?$/.test(entry.command ?? ''), `command ${entry?.command}`);
    const i = (entry.args ?? []).indexOf('--config-dir');
    assert(i >= 0 && entry.args[i + 1], `args ${JSON.stringify(entry.args)}`);
    assert(entry.env && 'APP_MCP_TOKEN' in entry.env, `env ${JSON.stringify(entry.env)}`);
    const token = needFixture().tokens?.fullAccess;
    assert(token, 'the fixture has no fullAccess token');
    entry.command = bin;
    entry.args[i + 1] = configDir;
    entry.args.push('--no-start');
    entry.env.APP_MCP_TOKEN = token;
    writeFileSync(readmePath, JSON.stringify({ mcpServers: { [name]: entry } }, null, 2));
  });
  const server = () => Object.keys(readmeStdioEntry().mcpServers)[0];
  await check(PEER, 'tools/list: its APP_MCP_TOKEN (fullAccess) reaches app-mcp: the write tools are listed', async () => {
    const res = inspector(['--config', readmePath, '--server', server()], '--method', 'tools/list');
    const names = (res.tools ?? []).map((t) => t.name);
    assert(WRITE_TOOLS.every((n) => names.includes(n)), `tools ${names}`);
  });
  await check(PEER, 'tools/call describe_table with --tool-arg connection and table', async () => {
    const fx = needFixture();
    const res = inspector(['--config', readmePath, '--server', server()], '--method', 'tools/call', '--tool-name', 'describe_table',
      '--tool-arg', `connection=${fx.connection}`, '--tool-arg', `table=${fx.table}`);
    assertReadToolResult(res);
    assert(res.structuredContent?.name === fx.table, `structuredContent.name = ${res.structuredContent?.name}`);
  });
}

rmSync(dir, { recursive: true, force: true });
done();
