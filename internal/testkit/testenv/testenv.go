// Package testenv is the one rule for a test whose prerequisite lies outside the Go toolchain
// (the weaviate-server binary, the built desktop binary, Xvfb, Chromium, installed npm
// packages): what happens when it is missing.
//
//   - Under `make test` (scripts/test.sh exports APP_TEST_SETUP=1 after scripts/setup.sh ran)
//     a missing prerequisite is a FAILURE: the set-up promised it, so a skip would hide every
//     test behind it.
//   - In a plain `go test ./...` on a machine without the set-up, the test SKIPS with one line
//     naming what is missing and how to get it.
//
// Both say the same line:
//
//	needs make test's set-up: <what is missing> (run make test, or scripts/setup.sh test)
//
// A test whose prerequisites are present runs either way; only a missing one changes the
// outcome. Call Require with the checks of this package (Tool, File, Dir) or with a
// description of your own, before the test starts anything:
//
//	testenv.Require(t,
//		testenv.Tool("Xvfb", "xdotool"),
//		testenv.File(bin, "the desktop binary build/bin/app (make app)"))
package testenv

import (
	"flag"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// SetupEnv is the environment variable scripts/test.sh exports once scripts/setup.sh has run.
// Any value but "" and "0" means the set-up ran.
const SetupEnv = "APP_TEST_SETUP"

// SetupRan reports whether the test runs under `make test`'s set-up (SetupEnv is set).
func SetupRan() bool {
	v := os.Getenv(SetupEnv)
	return v != "" && v != "0"
}

// Message is the one line a missing prerequisite produces: the skip or failure text.
func Message(missing string) string {
	return "needs make test's set-up: " + missing + " (run make test, or scripts/setup.sh test)"
}

// Require ends the test when a prerequisite is missing: each argument describes one missing
// prerequisite, and "" stands for a present one (what Tool, File and Dir return when all is
// well). Every missing one is named in the same line. Without the set-up the test is skipped;
// under it (SetupRan) the test fails.
func Require(t testing.TB, missing ...string) {
	t.Helper()
	var m []string
	for _, s := range missing {
		if s != "" {
			m = append(m, s)
		}
	}
	if len(m) == 0 {
		return
	}
	msg := Message(strings.Join(m, "; "))
	if SetupRan() {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// Tool returns "" when every command is on PATH, else a description naming those that are
// not ("Xvfb, chromium not on PATH").
func Tool(names ...string) string {
	var absent []string
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			absent = append(absent, n)
		}
	}
	if len(absent) == 0 {
		return ""
	}
	return strings.Join(absent, ", ") + " not on PATH"
}

// File returns "" when path is a regular file, else what (the description of the
// prerequisite, with how to make it) followed by the path looked at.
func File(path, what string) string {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		return ""
	}
	return what + " (looked for " + path + ")"
}

// Dir returns "" when path is a directory, else what followed by the path looked at.
func Dir(path, what string) string {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return ""
	}
	return what + " (looked for " + path + ")"
}

// LeaveOutHelpers keeps tests named TestHelper... out of a normal run. Such tests are child
// processes that other tests re-run the test binary into; without this they would report
// SKIP in every run. It parses the test flags, so call it from TestMain before m.Run; it
// changes nothing when -test.run names a helper or -test.skip is already set.
func LeaveOutHelpers() {
	flag.Parse()
	run := flag.Lookup("test.run")
	if run == nil || strings.Contains(run.Value.String(), "TestHelper") {
		return
	}
	if skip := flag.Lookup("test.skip"); skip != nil && skip.Value.String() == "" {
		_ = flag.Set("test.skip", "^TestHelper")
	}
}
