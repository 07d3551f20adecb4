package mcp

import (
	"sync"
	"testing"
	"time"
)

// A kept handler goroutine never makes a handler wait: with every kept goroutine busy (here
// blocked), the next handler runs at once on a new one, and a goroutine that finished takes
// the next handler (dispatch's handlers run concurrently, as they did on a goroutine each).
func TestWorkersRunEveryHandlerAtOnceWhateverTheOthersDo(t *testing.T) {
	cases := []struct {
		name    string
		blocked int // handlers still running when the next one comes
	}{
		{"none running", 0},
		{"one blocked", 1},
		{"many blocked", 64},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkers()
			release := make(chan struct{})
			var started sync.WaitGroup
			for range c.blocked {
				started.Add(1)
				w.run(func() { started.Done(); <-release })
			}
			started.Wait()
			for i := range 3 {
				ran := make(chan struct{})
				w.run(func() { close(ran) })
				select {
				case <-ran:
				case <-time.After(5 * time.Second):
					t.Fatalf("handler %d did not run while %d others were blocked", i, c.blocked)
				}
			}
			close(release)
		})
	}
}
