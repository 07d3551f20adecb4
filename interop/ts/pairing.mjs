// pairing.mjs: "Connect a client" (issue 11) proven with a real client. `app client config
// other --json` mints a token and prints an mcp.json; the MCP Inspector CLI 2.12.0 reads only
// that file (no --header, no token from the environment) and lists and calls a tool with it.
// Usage: node pairing.mjs <app binary> <config dir>
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assert, assertReadToolResult, check, done, READ_TOOL } from './check.mjs';

const [appBin, configDir] = process.argv.slice(2);
if (!appBin || !configDir) {
  console.error('usage: node pairing.mjs <app binary> <config dir>');
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, '..', 'node_modules', '.bin', 'inspector');
const peer = 'MCP Inspector CLI 2.12.0 (app client config other)';
const dir = mkdtempSync(path.join(os.tmpdir(), 'app-pairing-'));
const file = path.join(dir, 'mcp.json');

function inspector(...args) {
  const env = { ...process.env };
  delete env.APP_MCP_TOKEN;
  delete env.MCP_CATALOG_PATH;
  const r = spawnSync(bin, ['--cli', '--config', file, '--server', 'app', '--format', 'json', '--connect-timeout', '15000', ...args], {
    encoding: 'utf8',
    timeout: 90_000,
    env,
  });
  const line = (r.stdout || '').trim().split('\n').filter((l) => l.startsWith('{')).pop();
  if (r.status !== 0 || !line) throw new Error(`exit ${r.status}: ${String(r.stdout).slice(0, 200)} ${String(r.stderr).slice(0, 300)}`);
  const parsed = JSON.parse(line);
  if (parsed.error) throw new Error(JSON.stringify(parsed.error).slice(0, 300));
  return parsed.result ?? parsed;
}

await check(peer, 'the generated config names the endpoint and a bearer token', async () => {
  const out = execFileSync(appBin, ['--config-dir', configDir, '--json', 'client', 'config', 'other', '--name', 'interop-pairing'], {
    encoding: 'utf8',
  });
  const res = JSON.parse(out);
  const entry = res.config?.mcpServers?.app;
  assert(entry?.type === 'http' && entry.url === res.url, `entry ${JSON.stringify(entry)}`);
  assert(/^Bearer app_/.test(entry.headers?.Authorization ?? ''), 'no bearer token in the headers');
  writeFileSync(file, JSON.stringify(res.config, null, 2));
});
await check(peer, `tools/list through the generated file lists ${READ_TOOL}`, async () => {
  const res = inspector('--method', 'tools/list');
  assert(Array.isArray(res.tools) && res.tools.some((t) => t.name === READ_TOOL), `no ${READ_TOOL}: ${JSON.stringify(res).slice(0, 200)}`);
});
await check(peer, `tools/call ${READ_TOOL} through the generated file succeeds`, async () => {
  assertReadToolResult(inspector('--method', 'tools/call', '--tool-name', READ_TOOL));
});
rmSync(dir, { recursive: true, force: true });
done();
