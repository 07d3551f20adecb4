package control

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"app/backend/peercred"
)

// peerOf reads the peer's pid and uid from the kernel (peercred) and describes the process
// and its parent from /proc.
func peerOf(c *net.UnixConn) (Peer, error) {
	pc, err := peercred.Of(c)
	if err != nil {
		return Peer{UID: -1}, err
	}
	p := Peer{PID: pc.PID, UID: pc.UID}
	p.Process = describe(p.PID)
	if ppid := parentOf(p.PID); ppid > 0 {
		p.Process += ", started by " + describe(ppid)
	}
	return p, nil
}

// describe is "pid N (command line)", the command line cut to 200 bytes.
func describe(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	cmd := strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
	if len(cmd) > 200 {
		cmd = cmd[:200] + "…"
	}
	if cmd == "" {
		cmd = "?"
	}
	return fmt.Sprintf("pid %d (%s)", pid, cmd)
}

// parentOf reads the parent pid from /proc/<pid>/stat (the field after the parenthesised
// command name, which may itself hold spaces and parentheses).
func parentOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// SelfProcess describes this process and its parent, as the app describes a peer.
func SelfProcess() string {
	s := describe(os.Getpid())
	if ppid := os.Getppid(); ppid > 0 {
		s += ", started by " + describe(ppid)
	}
	return s
}
