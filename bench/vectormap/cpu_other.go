//go:build !unix

package main

import "time"

// cpuTime is not measured off Unix.
func cpuTime() (time.Duration, bool) { return 0, false }
