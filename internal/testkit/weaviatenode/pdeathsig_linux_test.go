package weaviatenode_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// TestHelperProcessStartsANodeAndHangs is not a test: TestTheServerDiesWhenItsParentIsKilled
// re-runs the test binary into it, to have a parent that can be SIGKILLed.
func TestHelperProcessStartsANodeAndHangs(t *testing.T) {
	if os.Getenv("WEAVIATENODE_HELPER") != "1" {
		t.Skip("helper process for TestTheServerDiesWhenItsParentIsKilled")
	}
	n, err := weaviatenode.Start(context.Background(), weaviatenode.Options{})
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(1)
	}
	fmt.Println("DIR", n.DataDir)
	fmt.Println("PID", n.PID)
	select {}
}

// alive reports whether pid runs (a zombie waiting for its reaper counts as dead).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

func TestTheServerDiesWhenItsParentIsKilled(t *testing.T) {
	weaviatetest.RequireBinary(t)
	parent := exec.Command(os.Args[0], "-test.run=^TestHelperProcessStartsANodeAndHangs$", "-test.v")
	parent.Env = append(os.Environ(), "WEAVIATENODE_HELPER=1")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	defer parent.Process.Kill()
	pid := 0
	sc := bufio.NewScanner(out)
	for pid == 0 && sc.Scan() {
		line := sc.Text()
		if dir, ok := strings.CutPrefix(line, "DIR "); ok {
			t.Cleanup(func() { os.RemoveAll(dir) }) // the killed parent could not remove it
		} else if rest, ok := strings.CutPrefix(line, "PID "); ok {
			pid, _ = strconv.Atoi(rest)
		} else if strings.HasPrefix(line, "ERR ") {
			t.Fatal(line)
		}
	}
	if pid == 0 {
		t.Fatal("helper printed no server pid")
	}
	if !alive(pid) {
		t.Fatalf("server %d not running before the parent is killed", pid)
	}
	parent.Process.Signal(syscall.SIGKILL)
	parent.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("server %d still running 5s after its parent was killed", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestMain(m *testing.M) { weaviatetest.Main(m) }
