// gotest.mjs: turns `go test -json` output (stdin) into interop check lines, one per subtest:
//   ok - <peer>: <subtest>     or     not ok - <peer>: <subtest>: <its own failure messages>
// Usage: go test -json ... | node gotest.mjs "<peer>" <TestName>
import { readFileSync } from 'node:fs';

const [peer, top] = process.argv.slice(2);
const out = new Map();
const verdicts = [];
let buildOutput = '';
for (const line of readFileSync(0, 'utf8').split('\n')) {
  if (!line.startsWith('{')) {
    buildOutput += line + '\n';
    continue;
  }
  const ev = JSON.parse(line);
  if (ev.Action === 'build-output') buildOutput += ev.Output ?? '';
  if (!ev.Test || !ev.Test.startsWith(`${top}/`)) continue;
  const name = ev.Test.slice(top.length + 1).replaceAll('_', ' ');
  if (ev.Action === 'output') {
    const text = (ev.Output ?? '').trim();
    if (text && !/^(=== |--- )/.test(text)) out.set(name, [...(out.get(name) ?? []), text]);
  } else if (ev.Action === 'pass' || ev.Action === 'fail' || ev.Action === 'skip') {
    verdicts.push([name, ev.Action]);
  }
}
let failed = 0;
for (const [name, action] of verdicts) {
  if (action === 'pass') console.log(`ok - ${peer}: ${name}`);
  else {
    failed++;
    console.log(`not ok - ${peer}: ${name}: ${action === 'skip' ? 'skipped: ' : ''}${(out.get(name) ?? []).join('; ').slice(0, 600)}`);
  }
}
if (verdicts.length === 0) {
  failed++;
  console.log(`not ok - ${peer}: ${top} did not run: ${buildOutput.trim().split('\n').slice(-4).join(' | ')}`);
}
process.exit(failed ? 1 : 0);
