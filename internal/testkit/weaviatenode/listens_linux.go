package weaviatenode

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// listensOn tells whether the process group led by pid (the server and anything it spawned)
// holds a listening TCP socket on port. known is false when /proc cannot tell (then the
// caller trusts the answer on the port, as on other systems). A process that has ended
// listens on nothing. The sockets are looked up in this process's network namespace, which
// the server shares.
//
// Why it matters: the ports are free when pickPorts releases them, and weaviate-server binds
// its HTTP port last, seconds later under load. In between another process may take the
// port, for instance another test binary's node (go test runs packages in parallel). Our
// server then fails to bind and exits, but the server on the port answers the readiness
// poll: without this check Start would hand out a node that is someone else's, which
// vanishes when its own test ends.
func listensOn(pid, port int) (listens, known bool) {
	inodes := map[string]bool{}
	for _, table := range []string{"tcp", "tcp6"} {
		found, err := listeningInodes(filepath.Join("/proc", "self", "net", table), port)
		if err != nil {
			if table == "tcp6" && os.IsNotExist(err) {
				continue // a kernel without IPv6
			}
			return false, false
		}
		for _, ino := range found {
			inodes[ino] = true
		}
	}
	if len(inodes) == 0 {
		return false, false // something answered on the port, but not from this namespace's sockets
	}
	if holds(pid, inodes) {
		return true, true
	}
	others, err := groupMembers(pid)
	if err != nil {
		return false, false
	}
	for _, p := range others {
		if holds(p, inodes) {
			return true, true
		}
	}
	return false, true
}

// holds tells whether process pid has one of the sockets inodes open (false once it ended).
func holds(pid int, inodes map[string]bool) bool {
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join(dir, fd.Name()))
		if err == nil && strings.HasPrefix(target, "socket:[") && inodes[strings.TrimSuffix(strings.TrimPrefix(target, "socket:["), "]")] {
			return true
		}
	}
	return false
}

// listeningInodes reads a /proc/net/tcp{,6} table: the inodes of the sockets in state LISTEN
// (0A) whose local port is port, whatever their address.
func listeningInodes(path string, port int) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	suffix := fmt.Sprintf(":%04X", port)
	var out []string
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		// sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
		f := strings.Fields(sc.Text())
		if len(f) > 9 && f[3] == "0A" && strings.HasSuffix(f[1], suffix) {
			out = append(out, f[9])
		}
	}
	return out, sc.Err()
}

// groupMembers lists the other processes of the process group pgid: the server runs in a
// group of its own (setProcAttr), and $APP_WEAVIATE_BIN may be a wrapper that runs it as a
// child.
func groupMembers(pgid int) ([]int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var out []int
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil || p == pgid {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		if f := strings.Fields(s[i+1:]); len(f) > 2 && f[2] == strconv.Itoa(pgid) {
			out = append(out, p)
		}
	}
	return out, nil
}
