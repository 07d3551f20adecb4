package mcpstatus

import (
	"strings"
	"testing"

	"app/backend/core"
	"app/backend/pairing"
)

func TestLineAndNotice(t *testing.T) {
	for _, c := range []struct {
		st        core.MCPStatus
		line      string
		noticeHas string
		noNotice  bool
	}{
		{core.MCPStatus{Port: 23817, Wanted: 23817}, "Running on 127.0.0.1:23817", "", true},
		{core.MCPStatus{Port: 23900, Wanted: 23817}, "Running on 127.0.0.1:23900", "Port 23817 is taken by another program, so App listens on 23900.", false},
		{core.MCPStatus{Err: "bind: denied"}, "Not running: bind: denied", "", true},
		{core.MCPStatus{}, "Stopped (the server is turned off)", "", true},
	} {
		if got := Line(c.st); got != c.line {
			t.Errorf("Line(%+v) = %q, want %q", c.st, got, c.line)
		}
		if n := PortNotice(c.st); (n == "") != c.noNotice || !strings.Contains(n, c.noticeHas) {
			t.Errorf("PortNotice(%+v) = %q", c.st, n)
		}
	}
}

func TestStaleRereadsOnlyWhenAskedOrThePortChanged(t *testing.T) {
	reads := 0
	s := Stale{Find: func(port int) []pairing.Stale {
		reads++
		return []pairing.Stale{{Client: "cursor", URL: "http://127.0.0.1:1/mcp"}}
	}}
	if got := s.Clients(0, true); got == nil || len(got) != 0 || reads != 0 {
		t.Fatalf("no server: %v after %d reads", got, reads)
	}
	s.Clients(5, false)
	s.Clients(5, false)
	if reads != 1 {
		t.Fatalf("%d reads for one port", reads)
	}
	s.Clients(5, true)
	got := s.Clients(6, false)
	if reads != 3 || len(got) != 1 {
		t.Fatalf("%d reads, %v", reads, got)
	}
	got[0].Client = "changed"
	if s.Clients(6, false)[0].Client != "cursor" {
		t.Fatal("the kept answer is handed out as a copy")
	}
}
