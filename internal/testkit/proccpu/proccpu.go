// Package proccpu reads the CPU time of a benchmark's process and its children from /proc, to
// split a measured phase's cost between them (the benches of bench/transfer and bench/mapread).
package proccpu

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Times is the CPU seconds (user and system) each process of the run has used so far: this
// process ("bench") and its children by command name (the weaviate-server and the driver
// plugin), read from /proc. It splits a phase's cost between the processes: on two cores they
// share the CPU, so what one adds the others wait for. Elsewhere than Linux it is empty.
func Times() map[string]float64 {
	out := map[string]float64{}
	self := os.Getpid()
	if t, _, ok := procCPU(self); ok {
		out["bench"] = t
	}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil || pid == self {
			continue
		}
		t, ppid, ok := procCPU(pid)
		if !ok || ppid != self {
			continue
		}
		comm, _ := os.ReadFile(filepath.Join(d, "comm"))
		out[strings.TrimSpace(string(comm))] += t
	}
	return out
}

// procCPU reads a process's utime + stime (seconds, at the usual 100 ticks a second) and its
// parent from /proc/PID/stat.
func procCPU(pid int) (float64, int, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, false
	}
	// The command name is in parentheses and may hold spaces: fields start after the last ')'.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0, 0, false
	}
	ppid, _ := strconv.Atoi(f[1])
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100, ppid, true
}

// Spent accumulates each process's CPU seconds over the phases measured.
type Spent map[string]float64

// Add adds what each process spent between two readings of Times.
func (c Spent) Add(before, after map[string]float64) {
	for k, v := range after {
		c[k] += v - before[k]
	}
}

// String is each process's CPU seconds a round, the bench's and the server's first.
func (c Spent) String(rounds int) string {
	var b strings.Builder
	total := 0.0
	for _, k := range []string{"weaviate-server", "bench"} {
		fmt.Fprintf(&b, "%s %.2f s, ", k, c[k]/float64(rounds))
		total += c[k]
	}
	for k, v := range c {
		if k != "weaviate-server" && k != "bench" {
			fmt.Fprintf(&b, "%s %.2f s, ", k, v/float64(rounds))
			total += v
		}
	}
	fmt.Fprintf(&b, "total %.2f s", total/float64(rounds))
	return b.String()
}
