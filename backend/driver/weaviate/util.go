package weaviate

import "io"

// readLimited reads at most maxErrorBody bytes of an error answer.
func readLimited(r io.Reader) ([]byte, error) { return io.ReadAll(io.LimitReader(r, maxErrorBody)) }

// readLimitedAll reads a whole answer (editor results may be large).
func readLimitedAll(r io.Reader) ([]byte, error) { return io.ReadAll(io.LimitReader(r, 256<<20)) }
