package testenv_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"app/internal/testkit/testenv"
)

func TestMain(m *testing.M) {
	testenv.LeaveOutHelpers()
	os.Exit(m.Run())
}

// TestHelperRequire is not a test on its own: the tests below re-run the test binary into it
// with a prerequisite described in TESTENV_MISSING ("" for a present one).
func TestHelperRequire(t *testing.T) {
	if os.Getenv("TESTENV_HELPER") != "1" {
		t.Skip("helper process for TestAMissingPrerequisiteSkipsWithoutTheSetUpAndFailsUnderIt")
	}
	testenv.Require(t, "", os.Getenv("TESTENV_MISSING"))
	t.Log("ran past Require")
}

func TestAMissingPrerequisiteSkipsWithoutTheSetUpAndFailsUnderIt(t *testing.T) {
	const missing = "Xvfb not on PATH"
	line := "needs make test's set-up: Xvfb not on PATH (run make test, or scripts/setup.sh test)"
	for _, c := range []struct {
		name, setup, missing string
		verdict              string // the child's "--- " line
		wantLine, wantRan    bool
	}{
		{"without the set-up a missing prerequisite skips with the one line", "", missing, "--- SKIP", true, false},
		{"APP_TEST_SETUP=0 is no set-up: a missing prerequisite skips", "0", missing, "--- SKIP", true, false},
		{"under the set-up a missing prerequisite fails with the same line", "1", missing, "--- FAIL", true, false},
		{"without the set-up a present prerequisite runs", "", "", "--- PASS", false, true},
		{"under the set-up a present prerequisite runs", "1", "", "--- PASS", false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperRequire$", "-test.v")
			cmd.Env = append(os.Environ(), "TESTENV_HELPER=1", "TESTENV_MISSING="+c.missing, testenv.SetupEnv+"="+c.setup)
			out, err := cmd.CombinedOutput()
			if failed := c.verdict == "--- FAIL"; (err != nil) != failed {
				t.Fatalf("exit error %v, want failure %v:\n%s", err, failed, out)
			}
			if !strings.Contains(string(out), c.verdict+": TestHelperRequire") {
				t.Errorf("output lacks %q:\n%s", c.verdict, out)
			}
			if strings.Contains(string(out), line) != c.wantLine {
				t.Errorf("the line %q present: %v, want %v:\n%s", line, !c.wantLine, c.wantLine, out)
			}
			if strings.Contains(string(out), "ran past Require") != c.wantRan {
				t.Errorf("the test ran past Require: %v, want %v:\n%s", !c.wantRan, c.wantRan, out)
			}
		})
	}
}

func TestChecksDescribeOnlyWhatIsMissing(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	absent := filepath.Join(dir, "absent")
	for _, c := range []struct {
		name string
		got  string
		want string // "" for present, else a substring of the description
	}{
		{"Tool: a runnable file is present", testenv.Tool(self), ""},
		{"Tool: names only the absent commands", testenv.Tool(self, "app-no-such-command"), "app-no-such-command not on PATH"},
		{"File: a regular file is present", testenv.File(self, "the test binary"), ""},
		{"File: a directory is not the file", testenv.File(dir, "the thing (make thing)"), "the thing (make thing) (looked for " + dir + ")"},
		{"File: an absent path is named", testenv.File(absent, "the thing"), "looked for " + absent},
		{"Dir: a directory is present", testenv.Dir(dir, "node_modules"), ""},
		{"Dir: a file is not the directory", testenv.Dir(self, "node_modules"), "node_modules (looked for " + self + ")"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.want == "" && c.got != "" {
				t.Fatalf("reported %q for a present prerequisite", c.got)
			}
			if c.want != "" && !strings.Contains(c.got, c.want) {
				t.Fatalf("described %q, want it to contain %q", c.got, c.want)
			}
		})
	}
}

func TestMessageIsTheOneLine(t *testing.T) {
	got := testenv.Message("weaviate-server v1.35.2")
	want := "needs make test's set-up: weaviate-server v1.35.2 (run make test, or scripts/setup.sh test)"
	if got != want {
		t.Fatalf("Message = %q, want %q", got, want)
	}
}
