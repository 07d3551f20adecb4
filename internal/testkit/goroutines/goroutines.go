// Package goroutines finds this process's goroutines by the code they run, for the tests that
// hold "nothing keeps running" after a close, a kill or a timeout: the stacks of all goroutines
// (runtime.Stack), one per blank-line-separated block, kept when they name what is asked for.
package goroutines

import (
	"runtime"
	"strings"
)

// Find returns this process's goroutines whose stack names any of names (a package path such as
// "google.golang.org/grpc", or a function or method such as "app/backend/driver/weaviate.(*Driver)"),
// by goroutine id ("goroutine 42") to stack. The calling goroutine is among them only if its
// own stack names one.
func Find(names ...string) map[string]string {
	out := map[string]string{}
	for _, g := range strings.Split(string(stacks()), "\n\n") {
		for _, name := range names {
			if strings.Contains(g, name) {
				id, _, _ := strings.Cut(g, " [")
				out[id] = g
				break
			}
		}
	}
	return out
}

// stacks is runtime.Stack of every goroutine, in a buffer grown until the whole dump fits.
func stacks() []byte {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}
