// reporter.mjs prints one JSON line per test of the run on stdout, as the e2e scripts did
// before the specs: {"check": <the test's title>, "ok": true|false, "error": "...", "spec":
// <its file>}. e2e_test.go makes each line a subtest (the PostgreSQL and SQLite specs' under
// PostgreSQL/ and SQLite/). A test the runner did not run (its spec's setup failed, the run
// was stopped after the first test began) is a line too, not ok, so no test goes missing from
// the count. A run-wide error (a spec that does not load) is a line {"runError": "..."}.
// Progress, and what the tests print, go to stderr.
import { basename } from "node:path";

const plain = (s) => String(s ?? "").replace(/\u001b\[[0-9;]*m/g, "");

export default class CheckLines {
  printsToStdio() {
    return true;
  }

  onBegin(_config, suite) {
    this.suite = suite;
    this.done = new Set();
    this.total = suite.allTests().length;
  }

  onStdOut(chunk) {
    process.stderr.write(chunk);
  }

  onStdErr(chunk) {
    process.stderr.write(chunk);
  }

  onTestBegin() {
    this.began = true;
  }

  onTestEnd(test, result) {
    this.done.add(test);
    const line = { check: test.title, ok: result.status === "passed", spec: basename(test.location.file) };
    if (!line.ok) {
      if (result.status === "skipped") line.error = "not run: the runner skipped it (its spec's setup, beforeAll, failed above)";
      else line.error = result.errors.map((e) => plain(e.message || e.value || e.stack || "an error without a message").replace(/^Error: /, "")).join("\n") || result.status;
      const shot = result.attachments.find((a) => a.name === "screenshot");
      if (shot) line.error += ` (screenshot: ${basename(shot.path)})`;
    }
    console.log(JSON.stringify(line));
    process.stderr.write(`${line.ok ? "ok  " : "FAIL"} ${this.done.size}/${this.total} ${line.spec} › ${test.title} (${(result.duration / 1000).toFixed(1)} s)\n`);
  }

  onError(error) {
    console.log(JSON.stringify({ runError: plain(error.message ?? error.value) }));
  }

  onEnd(result) {
    if (!this.began) return; // --list, or a run that ended before its first test (its error is said)
    for (const test of this.suite?.allTests() ?? []) {
      if (this.done.has(test)) continue;
      console.log(JSON.stringify({ check: test.title, ok: false, spec: basename(test.location.file), error: `not run: the run ended first (${result.status})` }));
    }
  }
}
