// gotest.mjs: turns `go test -json` output (stdin) into interop check lines, one per subtest:
//   ok - <peer>: <subtest>     or     not ok - <peer>: <subtest>: <its own failure messages>
// A top-level test that fails outside its subtests (say, before the first one) is a check too.
// Usage: go test -json ... | node gotest.mjs "<peer>" <TestName>...
import { readFileSync } from 'node:fs';

const [peer, ...tops] = process.argv.slice(2);
const out = new Map();
const verdicts = [];
const ownerOf = new Map(); // reported name -> its top-level test
let buildOutput = '';
for (const line of readFileSync(0, 'utf8').split('\n')) {
  if (!line.startsWith('{')) {
    buildOutput += line + '\n';
    continue;
  }
  const ev = JSON.parse(line);
  if (ev.Action === 'build-output') buildOutput += ev.Output ?? '';
  if (!ev.Test) continue;
  const top = tops.find((t) => ev.Test === t || ev.Test.startsWith(`${t}/`));
  if (!top) continue;
  const name = ev.Test === top ? top : ev.Test.slice(top.length + 1).replaceAll('_', ' ');
  if (ev.Action === 'output') {
    const text = (ev.Output ?? '').trim();
    if (text && !/^(=== |--- )/.test(text)) out.set(name, [...(out.get(name) ?? []), text]);
  } else if (ev.Action === 'pass' || ev.Action === 'fail' || ev.Action === 'skip') {
    verdicts.push([name, ev.Action]);
    ownerOf.set(name, top);
  }
}
let failed = 0;
// A top-level verdict is reported only when it says more than its subtests: it failed while
// none of them did, or it was skipped.
const subFailed = (top) => verdicts.some(([n, a]) => a === 'fail' && n !== top && ownerOf.get(n) === top);
for (const [name, action] of verdicts) {
  if (tops.includes(name) && (action === 'pass' || (action === 'fail' && subFailed(name)))) continue;
  if (action === 'pass') console.log(`ok - ${peer}: ${name}`);
  else {
    failed++;
    console.log(`not ok - ${peer}: ${name}: ${action === 'skip' ? 'skipped: ' : ''}${(out.get(name) ?? []).join('; ').slice(0, 600)}`);
  }
}
for (const top of tops.filter((t) => !verdicts.some(([n]) => ownerOf.get(n) === t))) {
  failed++;
  console.log(`not ok - ${peer}: ${top} did not run: ${buildOutput.trim().split('\n').slice(-4).join(' | ')}`);
}
process.exit(failed ? 1 : 0);
