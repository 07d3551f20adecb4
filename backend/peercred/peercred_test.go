package peercred

import (
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// The peer of a Unix socket connection is this process's user (and, on Linux, this process),
// as the kernel says; a TCP connection has no peer credentials and is an error.
func TestThePeerIsReadFromTheKernel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := net.Dial("unix", path)
		if err == nil {
			defer c.Close()
			var b [1]byte
			_, _ = c.Read(b[:])
		}
	}()
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p, err := Of(c)
	if err != nil || p.UID != os.Getuid() || (runtime.GOOS == "linux" && p.PID != os.Getpid()) {
		t.Fatalf("%+v %v", p, err)
	}
	tl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tl.Close()
	go func() {
		if c, err := net.Dial("tcp", tl.Addr().String()); err == nil {
			defer c.Close()
		}
	}()
	tc, err := tl.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	if _, err := Of(tc); err == nil {
		t.Fatal("a TCP connection has a peer")
	}
}
