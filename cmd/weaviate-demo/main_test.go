package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatetest"
)

// TestMain lets the tests re-run this test binary as the command itself.
func TestMain(m *testing.M) {
	if os.Getenv("WEAVIATE_DEMO_AS_MAIN") == "1" {
		os.Args = append([]string{"weaviate-demo"}, os.Args[1:]...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runDemo starts the command, waits for its JSON line, and returns it with the process.
func runDemo(t *testing.T, args ...string) (ready, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "WEAVIATE_DEMO_AS_MAIN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	if !sc.Scan() {
		t.Fatalf("no ready line: %v", sc.Err())
	}
	var r ready
	if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
		t.Fatalf("ready line %q is not JSON: %v", sc.Text(), err)
	}
	return r, cmd
}

func TestDemoPrintsOneJSONLineKeepsItsDataAndStopsOnSIGTERM(t *testing.T) {
	weaviatetest.RequireBinary(t)
	dir := t.TempDir()
	for i, wantLoaded := range []bool{true, false} {
		r, cmd := runDemo(t, "--data-dir", dir, "--port", "0")
		if r.Port == 0 || r.PID != cmd.Process.Pid || r.ServerPID == 0 || r.DataDir != dir || r.DemoLoaded != wantLoaded {
			t.Fatalf("run %d: ready line %+v", i+1, r)
		}
		for _, class := range []string{"Article", "Author", "Venue", "Paper"} {
			resp, err := http.Get(r.URL + "/v1/schema/" + class)
			if err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("run %d: demo collection %s missing: %v %v", i+1, class, resp, err)
			}
			resp.Body.Close()
		}
		if got := paperCount(t, r.URL); got != fixtures.PaperCount {
			t.Fatalf("run %d: %d papers, want %d", i+1, got, fixtures.PaperCount)
		}
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("run %d: exit after SIGTERM: %v", i+1, err)
			}
		case <-time.After(15 * time.Second):
			t.Fatalf("run %d: still running 15s after SIGTERM", i+1)
		}
		if alive(r.ServerPID) {
			t.Fatalf("run %d: server %d outlived the command", i+1, r.ServerPID)
		}
	}
}

// paperCount counts Paper through GraphQL Aggregate.
func paperCount(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Post(url+"/v1/graphql", "application/json", strings.NewReader(`{"query":"{ Aggregate { Paper { meta { count } } } }"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Data struct {
			Aggregate struct {
				Paper []struct {
					Meta struct{ Count int } `json:"meta"`
				}
			}
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Data.Aggregate.Paper) != 1 {
		t.Fatalf("aggregate Paper: %v %+v", err, out)
	}
	return out.Data.Aggregate.Paper[0].Meta.Count
}

// alive reports whether pid runs and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	return err == nil && !strings.Contains(string(b), "State:\tZ")
}
