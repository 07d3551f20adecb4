// inspector.mjs: the MCP Inspector CLI 2.12.0 (`inspector --cli`) against the app's MCP
// endpoint, once with --protocol-era modern and once with --protocol-era legacy; each era lists
// tools and calls the read tool list_connections.
// Usage: node inspector.mjs http://127.0.0.1:<port>/mcp
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { assert, assertReadToolResult, check, done, READ_TOOL, serverURL } from './check.mjs';

const url = serverURL();
const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, '..', 'node_modules', '.bin', 'inspector');

// inspector runs the CLI and returns its parsed JSON result, or throws with its error text.
function inspector(era, ...args) {
  const argv = ['--cli', url, '--transport', 'http', '--protocol-era', era, '--format', 'json', '--connect-timeout', '15000', ...args];
  if (process.env.APP_MCP_TOKEN) argv.push('--header', `Authorization: Bearer ${process.env.APP_MCP_TOKEN}`);
  const r = spawnSync(bin, argv, { encoding: 'utf8', timeout: 90_000, env: { ...process.env, MCP_CATALOG_PATH: path.join(process.env.TMPDIR || '/tmp', 'app-interop-inspector-catalog.json') } });
  // The result is one JSON object on stdout; an error envelope goes to stderr.
  const lastJSON = (text) => {
    try {
      return JSON.parse((text || '').trim().split('\n').filter((l) => l.startsWith('{')).pop() ?? '');
    } catch {
      return undefined;
    }
  };
  const parsed = lastJSON(r.stdout) ?? lastJSON(r.stderr);
  if (!parsed) throw new Error(`exit ${r.status}; no JSON output: ${String(r.stdout).slice(0, 200)} ${String(r.stderr).slice(0, 300)}`);
  if (r.status !== 0 || parsed.error) throw new Error(`exit ${r.status}: ${JSON.stringify(parsed.error ?? parsed).slice(0, 300)}`);
  return parsed.result ?? parsed;
}

for (const era of ['modern', 'legacy']) {
  const PEER = `MCP Inspector CLI 2.12.0 (--protocol-era ${era})`;
  await check(PEER, `tools/list lists ${READ_TOOL}`, async () => {
    const res = inspector(era, '--method', 'tools/list');
    assert(Array.isArray(res.tools) && res.tools.some((t) => t.name === READ_TOOL), `no ${READ_TOOL}: ${JSON.stringify(res).slice(0, 200)}`);
  });
  await check(PEER, `tools/call ${READ_TOOL} succeeds`, async () => {
    assertReadToolResult(inspector(era, '--method', 'tools/call', '--tool-name', READ_TOOL));
  });
}

done();
