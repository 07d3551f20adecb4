// inspector-cli.mjs: running the MCP Inspector CLI 2.12.0 (`inspector --cli`), as inspector.mjs
// (HTTP) and stdio-inspector.mjs (app-mcp) both do.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** inspectorBin is the CLI installed by interop's npm ci. */
export const inspectorBin = path.join(here, '..', 'node_modules', '.bin', 'inspector');

// lastJSON is the last line of text that parses as a JSON object.
function lastJSON(text) {
  try {
    return JSON.parse((text || '').trim().split('\n').filter((l) => l.startsWith('{')).pop() ?? '');
  } catch {
    return undefined;
  }
}

/**
 * runInspector runs `inspector --cli <target> --format json ... <args>` with env and returns its
 * parsed JSON result, or throws with its error text. The result is one JSON object on stdout; an
 * error envelope goes to stderr.
 */
export function runInspector(target, args, env) {
  const argv = ['--cli', ...target, '--format', 'json', '--connect-timeout', '15000', ...args];
  const r = spawnSync(inspectorBin, argv, { encoding: 'utf8', timeout: 90_000, env });
  const parsed = lastJSON(r.stdout) ?? lastJSON(r.stderr);
  if (!parsed) throw new Error(`exit ${r.status}; no JSON output: ${String(r.stdout).slice(0, 200)} ${String(r.stderr).slice(0, 300)}`);
  if (r.status !== 0 || parsed.error) throw new Error(`exit ${r.status}: ${JSON.stringify(parsed.error ?? parsed).slice(0, 300)}`);
  return parsed.result ?? parsed;
}
