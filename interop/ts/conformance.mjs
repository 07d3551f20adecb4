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
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
    } else if (!/\bfixture\b/.test(m[2])) {
      bad++;
      console.log(`not ok - ${label}: baseline entry ${m[1]} does not name the reference-server fixture it needs`);
    }
    if (!m[1].includes(':')) {
      // A whole scenario would hide every failure in it, wanted or not.
      bad++;
      console.log(`not ok - ${label}: baseline entry ${m[1]} names a whole scenario; list its failing checks as <scenario>:<check>`);
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

// The scenarios of the run, from the suite's summary.
const summary = [];
let inSummary = false;
for (const line of lines) {
  if (line.startsWith('=== SUMMARY ===')) inSummary = true;
  else if (/^Total:/.test(line)) inSummary = false;
  else if (inSummary) {
    const m = /^([✓✗])\s+(\S+):\s*(.*)$/.exec(line.trim());
    if (m) summary.push({ ok: m[1] === '✓', name: m[2], detail: m[3] });
  }
}

// checksOf reads the per-check verdicts the suite saved for a scenario: Map(check id -> status).
// An id that occurs more than once keeps its most severe status, as the suite does.
const severity = { FAILURE: 3, WARNING: 2, SUCCESS: 1 };
function checksOf(scenario) {
  const dirs = readdirSync(outDir).filter((d) => d.startsWith(`server-${scenario}-2`)).sort();
  const out = new Map();
  if (dirs.length === 0) return out;
  let list = [];
  try {
    list = JSON.parse(readFileSync(path.join(outDir, dirs[dirs.length - 1], 'checks.json'), 'utf8'));
  } catch {
    return out;
  }
  for (const c of list) {
    const prev = out.get(c.id);
    if (!prev || (severity[c.status] ?? 0) > (severity[prev] ?? 0)) out.set(c.id, c.status);
  }
  return out;
}

// Every scenario is judged against the baseline check by check: a baselined check must be
// reported and may fail or be skipped; one that passes is stale. This also covers
// the scenarios the suite runs without scoring, whose baseline entries it does not report.
let failed = 0;
for (const s of summary) {
  const checks = checksOf(s.name);
  const failing = [...checks].filter(([, st]) => st === 'FAILURE').map(([id]) => id);
  const entries = [...reasons.keys()].filter((k) => k.startsWith(`${s.name}:`)).map((k) => k.slice(s.name.length + 1));
  const unexpected = failing.filter((id) => !entries.includes(id));
  const stale = entries.filter((id) => checks.get(id) === 'SUCCESS');
  for (const id of entries) {
    // An entry for a check the scenario never reported is a typo or an outdated baseline.
    if (!checks.has(id)) unexpected.push(`${id} (baselined, but the scenario reported no such check)`);
  }
  if (!s.ok && failing.length === 0) {
    // The summary says failed but no check failed (e.g. the scenario crashed): not excusable.
    unexpected.push('(scenario failed without a failing check)');
  }
  if (unexpected.length > 0) {
    failed++;
    console.log(`not ok - ${label}: ${s.name}: unexpected failure of ${unexpected.join(', ')} (${s.detail}; details in ${outDir})`);
  } else if (stale.length > 0) {
    failed++;
    console.log(`not ok - ${label}: ${s.name}: ${stale.join(', ')} passes now but is in the expected-failures baseline (remove it)`);
  } else if (!s.ok || failing.length > 0) {
    const why = failing.map((id) => (id === s.name ? reasons.get(`${s.name}:${id}`) : `${id}: ${reasons.get(`${s.name}:${id}`)}`));
    console.log(`xfail - ${label}: ${s.name}: ${why.join('; ')}`);
  } else {
    console.log(`ok - ${label}: ${s.name}`);
  }
}
const ran = new Set(summary.map((s) => s.name));
for (const key of reasons.keys()) {
  const scenario = key.split(':')[0];
  if (summary.length > 0 && !ran.has(scenario)) {
    failed++;
    console.log(`not ok - ${label}: baseline entry ${key} names scenario ${scenario}, which this run did not report`);
  }
}
if (summary.length === 0) {
  failed++;
  console.log(`not ok - ${label}: the suite reported no scenarios (exit ${r.status}): ${text.trim().split('\n').slice(-5).join(' | ')}`);
} else if (r.status !== 0 && failed === 0) {
  failed++;
  console.log(`not ok - ${label}: the suite exited ${r.status} (see ${outDir})`);
}
// Keep the suite's per-check results only when they explain a failure.
if (!failed) rmSync(outDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
