package headless

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"app/internal/testkit/testenv"
)

// Issue 25, "Faults and load": the activity log's disk full. Every request is recorded (SPEC:
// the activity log), so while the log cannot write the app refuses requests with -33000 (503)
// saying why, instead of serving them unrecorded; the entries of requests it served before it
// knew are kept and written once there is room, so every answered request ends up in the log,
// the chain verifies, and the app serves again without a restart. The disk is a real one: a
// 4 MB tmpfs holding the config dir, filled by a file.
func TestAFullDiskRefusesRequestsRatherThanServeThemUnrecorded(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	disk := t.TempDir()
	if err := syscall.Mount("tmpfs", disk, "tmpfs", 0, "size=4m,mode=0700"); err != nil {
		testenv.Require(t, "a small tmpfs to fill (mounting one needs root: "+err.Error()+")")
	}
	t.Cleanup(func() { _ = syscall.Unmount(disk, syscall.MNT_DETACH) })
	dir := filepath.Join(disk, "config")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	tok := createToken(t, dir, "--name", "full", "--level", "readOnly")
	_, h, logs := startHeadless(t, dir, env(), "--config-dir", dir)

	served := 0
	list := func() (int, string) {
		a := mcpPost(ctx, h.Port, mcpRequest{Method: "tools/list", Authorization: "Bearer " + tok.Token})
		if a.StatusCode == http.StatusOK {
			served++
		}
		return a.StatusCode, a.Body
	}
	if status, body := list(); status != http.StatusOK {
		t.Fatalf("before the disk is full: %d %s", status, body)
	}

	filler := filepath.Join(disk, "filler")
	fill(t, filler)

	var refusal string
	t.Run("while the log cannot write, requests are refused with -33000 and why", func(t *testing.T) {
		for refusal == "" {
			status, body := list()
			if status == http.StatusServiceUnavailable {
				refusal = body
				break
			}
			if status != http.StatusOK {
				t.Fatalf("neither served nor refused as unavailable: %d %s", status, body)
			}
			select {
			case <-ctx.Done():
				t.Fatalf("still served %d requests after the disk filled; log:\n%s", served, logs.String())
			case <-time.After(20 * time.Millisecond):
			}
		}
		if !strings.Contains(refusal, `"code":-33000`) || !strings.Contains(refusal, "cannot record requests in its activity log") {
			t.Fatalf("refusal: %s", refusal)
		}
		waitFor(t, "the app log to say why requests are refused", func() bool {
			return strings.Contains(logs.String(), "activity log: write failed, requests are refused")
		}, logs)
	})

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	t.Run("once there is room the app serves again, without a restart", func(t *testing.T) {
		for {
			status, body := list()
			if status == http.StatusOK {
				break
			}
			if status != http.StatusServiceUnavailable {
				t.Fatalf("%d %s", status, body)
			}
			select {
			case <-ctx.Done():
				t.Fatalf("still refused after the disk was freed: %s", body)
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
	t.Run("every request that was served is in the log, and the chain verifies", func(t *testing.T) {
		for {
			out, stderr, err := run(t, env(), "", "--config-dir", dir, "activity", "list", "--json", "--limit", "0", "--outcome", "ok")
			if err != nil {
				t.Fatalf("%v: %s", err, stderr)
			}
			var entries []struct{ Method string }
			if err := json.Unmarshal([]byte(out), &entries); err != nil {
				t.Fatal(err)
			}
			if len(entries) == served {
				break
			}
			if len(entries) > served {
				t.Fatalf("%d served entries recorded, %d requests served", len(entries), served)
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%d of %d served requests recorded", len(entries), served)
			case <-time.After(100 * time.Millisecond):
			}
		}
		out, stderr, err := run(t, env(), "", "--config-dir", dir, "activity", "verify", "--json")
		if err != nil || !strings.Contains(out, `"intact": true`) && !strings.Contains(out, `"intact":true`) {
			t.Fatalf("verify: %v %s %s", err, out, stderr)
		}
	})
}

// fill writes to path until the file system is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling the disk: %v", err)
			}
			return
		}
	}
}
