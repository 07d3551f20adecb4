package weaviatetest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"app/internal/testkit/fixtures"
	"app/internal/testkit/testenv"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

func TestMain(m *testing.M) { weaviatetest.Main(m) }

// TestHelperStartWithoutBinary is not a test on its own:
// TestAMissingBinarySkipsWithoutTheSetUpAndFailsUnderIt re-runs the test binary into it with
// an empty cache directory.
func TestHelperStartWithoutBinary(t *testing.T) {
	if os.Getenv("WEAVIATETEST_HELPER") != "1" {
		t.Skip("helper process for TestAMissingBinarySkipsWithoutTheSetUpAndFailsUnderIt")
	}
	if os.Getenv("WEAVIATETEST_SHARED") == "1" {
		weaviatetest.Shared(t, weaviatenode.Anonymous)
	} else {
		weaviatetest.Start(t, weaviatenode.Anonymous)
	}
	t.Log("a node started without a binary")
}

func TestAMissingBinarySkipsWithoutTheSetUpAndFailsUnderIt(t *testing.T) {
	cache := t.TempDir()
	line := "needs make test's set-up: weaviate-server " + weaviatenode.Version() +
		", built by scripts/ensure-weaviate.sh (looked for " + filepath.Join(cache, "tools", "weaviate-"+weaviatenode.Version(), "weaviate-server") +
		") (run make test, or scripts/setup.sh test)"
	for _, c := range []struct {
		name, setup, shared, verdict string
	}{
		{"Start without the set-up skips with the one line", "", "", "--- SKIP"},
		{"Shared without the set-up skips with the one line", "", "1", "--- SKIP"},
		{"Start under the set-up fails with the same line", "1", "", "--- FAIL"},
		{"Shared under the set-up fails with the same line", "1", "1", "--- FAIL"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperStartWithoutBinary$", "-test.v")
			cmd.Env = append(os.Environ(), "WEAVIATETEST_HELPER=1", "WEAVIATETEST_SHARED="+c.shared,
				"APP_WEAVIATE_BIN=", "APP_CACHE_DIR="+cache, testenv.SetupEnv+"="+c.setup)
			out, err := cmd.CombinedOutput()
			if failed := c.verdict == "--- FAIL"; (err != nil) != failed {
				t.Fatalf("exit error %v, want failure %v:\n%s", err, failed, out)
			}
			for _, want := range []string{c.verdict + ": TestHelperStartWithoutBinary", line} {
				if !strings.Contains(string(out), want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(string(out), "a node started") {
				t.Errorf("the helper ran on without a binary:\n%s", out)
			}
		})
	}
}

// A set $APP_WEAVIATE_BIN that cannot run is a mistake of the person running the tests, not
// a missing set-up: MissingBinary leaves it to the start to fail with its own message.
func TestAnUnusableAPPWEAVIATEBINIsNotAMissingSetUp(t *testing.T) {
	t.Setenv("APP_WEAVIATE_BIN", filepath.Join(t.TempDir(), "nothing-here"))
	if got := weaviatetest.MissingBinary(); got != "" {
		t.Fatalf("MissingBinary = %q, want \"\"", got)
	}
}

func TestSharedStartsOneLoadedNodePerVariant(t *testing.T) {
	a := weaviatetest.Shared(t, weaviatenode.APIKey)
	b := weaviatetest.Shared(t, weaviatenode.APIKey)
	if a != b {
		t.Fatal("two Shared calls started two nodes")
	}
	got, err := a.Count(context.Background(), fixtures.Big, "")
	if err != nil || got != fixtures.BigCount {
		t.Fatalf("shared API-key node: Big count %d, %v", got, err)
	}
}
