// inspector.mjs: the MCP Inspector CLI 2.12.0 (`inspector --cli`) against the app's MCP
// endpoint, once with --protocol-era modern and once with --protocol-era legacy, and once more
// per era through the config file block of README.md, taken from the README itself (PORT
// replaced by the live port; interop/clients/inspector.mcp.json must be the same). Each run lists tools and calls the read tool list_connections,
// and the call's result proves the era really used: a modern result carries
// _meta.io.modelcontextprotocol/serverInfo, a legacy one never does.
// Each run also calls tools WITH ARGUMENTS (--tool-arg) against the weaviate fixture's saved
// connection ($APP_MCP_FIXTURE, interop/fixture): describe_table and browse_table (limit=2 is
// passed as a number), whose results must describe and page the fixture's table.
// Usage: node inspector.mjs http://127.0.0.1:<port>/mcp
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { assert, assertEra, assertReadToolResult, check, done, READ_TOOL, serverURL } from './check.mjs';
import { needFixture } from './fixture.mjs';
import { runInspector } from './inspector-cli.mjs';

const url = serverURL();
const here = path.dirname(fileURLToPath(import.meta.url));

// inspectorEnv keeps ad-hoc runs away from the user's own catalog (~/.mcp-inspector/mcp.json);
// a --config run reads only the given file (the CLI refuses a catalog next to it).
function inspectorEnv(target) {
  const env = { ...process.env };
  if (target.includes('--config')) delete env.MCP_CATALOG_PATH;
  else env.MCP_CATALOG_PATH = path.join(os.tmpdir(), 'app-interop-inspector-catalog.json');
  return env;
}

// inspector runs the CLI against the app, with the interop token when one is set.
function inspector(target, ...args) {
  const auth = process.env.APP_MCP_TOKEN ? ['--header', `Authorization: Bearer ${process.env.APP_MCP_TOKEN}`] : [];
  return runInspector(target, [...args, ...auth], inspectorEnv(target));
}

// readmeConfig is the Inspector config block of the README's "Configure an MCP client" section
// (the ```json block with mcpServers whose servers are URLs on http://127.0.0.1:PORT; the section
// also shows app-mcp's stdio entry, which interop/ts/stdio-inspector.mjs runs), taken from the
// README itself so the configuration users copy is the one that runs here.
function readmeConfig() {
  const readme = readFileSync(path.join(here, '..', '..', 'README.md'), 'utf8');
  const section = readme.split(/^## Configure an MCP client$/m)[1]?.split(/^## /m)[0] ?? '';
  const block = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1])
    .find((b) => b.includes('mcpServers') && b.includes('http://127.0.0.1:PORT/mcp'));
  if (!block) throw new Error('README.md: no ```json block with mcpServers on http://127.0.0.1:PORT/mcp under "## Configure an MCP client"');
  return block;
}

// The README's config file, with the live port.
const dir = mkdtempSync(path.join(os.tmpdir(), 'app-inspector-'));
const port = new URL(url).port;
const configPath = path.join(dir, 'mcp.json');
const config = readmeConfig();
writeFileSync(configPath, config.replaceAll('PORT', port));

await check('MCP Inspector CLI 2.12.0 (config file)', 'the README block equals interop/clients/inspector.mcp.json', async () => {
  const file = JSON.parse(readFileSync(path.join(here, '..', 'clients', 'inspector.mcp.json'), 'utf8'));
  assert(JSON.stringify(JSON.parse(config)) === JSON.stringify(file), 'README.md and interop/clients/inspector.mcp.json disagree: make them the same');
});

const runs = [
  { peer: 'MCP Inspector CLI 2.12.0 (--protocol-era modern)', era: 'modern', target: [url, '--transport', 'http', '--protocol-era', 'modern'] },
  { peer: 'MCP Inspector CLI 2.12.0 (--protocol-era legacy)', era: 'legacy', target: [url, '--transport', 'http', '--protocol-era', 'legacy'] },
  { peer: 'MCP Inspector CLI 2.12.0 (config file, server app-modern)', era: 'modern', target: ['--config', configPath, '--server', 'app-modern'] },
  { peer: 'MCP Inspector CLI 2.12.0 (config file, server app-legacy)', era: 'legacy', target: ['--config', configPath, '--server', 'app-legacy'] },
];
for (const { peer, era, target } of runs) {
  await check(peer, `tools/list lists ${READ_TOOL}`, async () => {
    const res = inspector(target, '--method', 'tools/list');
    assert(Array.isArray(res.tools) && res.tools.some((t) => t.name === READ_TOOL), `no ${READ_TOOL}: ${JSON.stringify(res).slice(0, 200)}`);
  });
  await check(peer, `tools/call ${READ_TOOL} succeeds in the ${era} era`, async () => {
    const res = inspector(target, '--method', 'tools/call', '--tool-name', READ_TOOL);
    assertReadToolResult(res);
    assertEra(res, era);
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
    const ids = fx.rows.map((r) => r.id);
    assert(sc.rows.every((row) => ids.some((id) => row.includes(id))), `rows are not the fixture's: ${JSON.stringify(sc.rows).slice(0, 200)}`);
  });
}
rmSync(dir, { recursive: true, force: true });

done();
