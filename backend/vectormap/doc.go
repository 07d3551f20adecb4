// Package vectormap lays a table's vectors out on a plane for the Map tab (issue 22): a PCA
// projection first, which appears within a moment of the vectors arriving, then UMAP, which
// keeps each point's neighbours near it and is shown as it refines. Both run in the backend in
// plain Go (no cgo, no model weights), over a Matrix of float32 rows as the driver's scan reads
// them; the numbers that chose this over a JavaScript layout in a Web Worker are in
// docs/architecture.md. Every long loop takes a context and stops when it is cancelled.
package vectormap
