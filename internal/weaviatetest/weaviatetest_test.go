package weaviatetest_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"app/internal/fixtures"
	"app/internal/weaviatenode"
	"app/internal/weaviatetest"
)

func TestMain(m *testing.M) { weaviatetest.Main(m) }

// TestHelperStartWithoutBinary is not a test on its own: TestAMissingBinaryFailsTheTestNeverSkips
// re-runs the test binary into it with an empty cache directory.
func TestHelperStartWithoutBinary(t *testing.T) {
	if os.Getenv("WEAVIATETEST_HELPER") != "1" {
		t.Skip("helper process for TestAMissingBinaryFailsTheTestNeverSkips")
	}
	weaviatetest.Start(t, weaviatenode.Anonymous)
}

func TestAMissingBinaryFailsTheTestNeverSkips(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperStartWithoutBinary$", "-test.v")
	cmd.Env = append(os.Environ(), "WEAVIATETEST_HELPER=1", "APP_WEAVIATE_BIN=", "APP_CACHE_DIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the helper test passed without a binary:\n%s", out)
	}
	for _, want := range []string{"--- FAIL: TestHelperStartWithoutBinary", "is not built: run scripts/ensure-weaviate.sh"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "--- SKIP") {
		t.Errorf("the helper skipped:\n%s", out)
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
