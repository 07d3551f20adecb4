// conformance.mjs: runs the official MCP conformance suite (@modelcontextprotocol/conformance,
// pinned in ../package.json) against the app's MCP endpoint and reports one line per scenario in
// the interop convention of check.mjs:
//   ok - <label>: <scenario>
//   xfail - <label>: <scenario>: <reason>         (failed, and baselined with that reason)
//   not ok - <label>: <scenario>: <why>           (unexpected failure, or a stale baseline entry)
// The baseline is a YAML file in the suite's own format (`server:` list); every entry must carry
// its reason as a trailing `# comment`, which is what the xfail line prints.
//
// Usage: node conformance.mjs --url URL --label LABEL [--expected-failures FILE] -- <suite args>
//   e.g. -- --requirements 2025-11-25      or      -- --spec-version 2025-06-18
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, '..', 'node_modules', '.bin', 'conformance');

const argv = process.argv.slice(2);
const dd = argv.indexOf('--');
const own = dd < 0 ? argv : argv.slice(0, dd);
const suiteArgs = dd < 0 ? [] : argv.slice(dd + 1);
const opt = (name) => {
  const i = own.indexOf(name);
  return i < 0 ? undefined : own[i + 1];
};
const url = opt('--url') || process.env.APP_MCP_URL;
const label = opt('--label') || `conformance ${suiteArgs.join(' ')}`;
const baseline = opt('--expected-failures');
if (!url) {
  console.error('usage: node conformance.mjs --url URL --label LABEL [--expected-failures FILE] -- <suite args>');
  process.exit(2);
}

// reasons maps each baseline entry (scenario or scenario:check) to its `# reason`.
const reasons = new Map();
if (baseline) {
  if (!existsSync(baseline)) {
    console.log(`not ok - ${label}: expected-failures file ${baseline} is missing`);
    process.exit(1);
  }
  let bad = 0;
  for (const line of readFileSync(baseline, 'utf8').split('\n')) {
    const m = /^\s*-\s*([^\s#]+)\s*(?:#\s*(.*))?$/.exec(line);
    if (!m) continue;
    if (!m[2]) {
      bad++;
      console.log(`not ok - ${label}: baseline entry ${m[1]} has no reason (add "# <reason>")`);
    }
    reasons.set(m[1], m[2] || '');
  }
  if (bad) process.exit(1);
}

const outDir = mkdtempSync(path.join(os.tmpdir(), 'app-conformance-'));
const args = ['server', '--url', url, '-o', outDir, ...suiteArgs];
if (baseline) args.push('--expected-failures', baseline);
const r = spawnSync(bin, args, { encoding: 'utf8', timeout: 15 * 60_000, maxBuffer: 64 << 20 });
// eslint-disable-next-line no-control-regex
const text = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.replace(/\x1b\[[0-9;]*m/g, '');
const lines = text.split('\n');

// Sections of the suite's report.
const summary = [];
const expected = new Set();
const stale = new Set();
const unexpected = new Set();
let section = '';
for (const line of lines) {
  if (line.startsWith('=== SUMMARY ===')) section = 'summary';
  else if (/^Total:/.test(line) || /^Not scored/.test(line)) section = '';
  else if (/^Expected failures \(in baseline\)/.test(line)) section = 'expected';
  else if (/^Stale baseline entries/.test(line)) section = 'stale';
  else if (/^Unexpected failures/.test(line)) section = 'unexpected';
  else if (section === 'summary') {
    const m = /^([✓✗])\s+(\S+):\s*(.*)$/.exec(line.trim());
    if (m) summary.push({ ok: m[1] === '✓', name: m[2], detail: m[3] });
  } else if (section && /^\s+[~✓✗]\s+\S+/.test(line)) {
    const name = line.trim().split(/\s+/)[1];
    ({ expected, stale, unexpected })[section].add(name);
  }
}

const scenarioOf = (entry) => entry.split(':')[0];
const hits = (set, scenario) => [...set].some((e) => scenarioOf(e) === scenario);
let failed = 0;
for (const s of summary) {
  if (hits(stale, s.name)) {
    failed++;
    console.log(`not ok - ${label}: ${s.name}: passes now but is in the expected-failures baseline (remove it)`);
  } else if (s.ok) {
    console.log(`ok - ${label}: ${s.name}`);
  } else if (hits(unexpected, s.name) || !hits(expected, s.name)) {
    failed++;
    console.log(`not ok - ${label}: ${s.name}: ${s.detail} (details in ${outDir})`);
  } else {
    const why = [...reasons].filter(([k]) => scenarioOf(k) === s.name).map(([k, v]) => (k.includes(':') ? `${k.split(':')[1]}: ${v}` : v));
    console.log(`xfail - ${label}: ${s.name}: ${why.join('; ')}`);
  }
}
if (summary.length === 0) {
  failed++;
  console.log(`not ok - ${label}: the suite reported no scenarios (exit ${r.status}): ${text.trim().split('\n').slice(-5).join(' | ')}`);
} else if (r.status !== 0 && failed === 0) {
  failed++;
  console.log(`not ok - ${label}: the suite exited ${r.status} (see ${outDir})`);
}
process.exit(failed ? 1 : 0);
