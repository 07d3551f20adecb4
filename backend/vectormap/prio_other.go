//go:build !linux

package vectormap

// lowerPriority does nothing off Linux: the layout runs at the process's priority.
func lowerPriority() {}

// threadNice is unknown off Linux.
func threadNice() (int, bool) { return 0, false }
