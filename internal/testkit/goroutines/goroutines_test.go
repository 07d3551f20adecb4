package goroutines_test

import (
	"strings"
	"testing"
	"time"

	"app/internal/testkit/goroutines"
)

// parked blocks until release is closed: a goroutine whose stack names this function.
func parked(started chan<- struct{}, release <-chan struct{}) {
	close(started)
	<-release
}

func TestFindNamesTheGoroutinesRunningAFunctionAndForgetsThemOnceTheyEnd(t *testing.T) {
	const name = "app/internal/testkit/goroutines_test.parked"
	release := make(chan struct{})
	ended := make(chan struct{}, 2)
	for range 2 {
		started := make(chan struct{})
		go func() { parked(started, release); ended <- struct{}{} }()
		<-started
	}
	found := goroutines.Find("no/such/package", name)
	if len(found) != 2 {
		t.Fatalf("found %d goroutines in %s, want 2: %v", len(found), name, found)
	}
	for id, stack := range found {
		if !strings.HasPrefix(id, "goroutine ") || !strings.HasPrefix(stack, id+" [") || !strings.Contains(stack, name) {
			t.Fatalf("%q: %s", id, stack)
		}
	}
	close(release)
	<-ended
	<-ended
	// The goroutines are gone once they return; a moment may pass before the runtime says so.
	deadline := time.Now().Add(5 * time.Second)
	for len(goroutines.Find(name)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("still found after they ended: %v", goroutines.Find(name))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
