package driver

import (
	"bytes"
	"encoding/json"
)

// VectorRead tells Browse how a page carries its vector column.
type VectorRead string

// Vector reads of Page.Vectors.
const (
	// VectorsFull carries every number of each vector (the default).
	VectorsFull VectorRead = ""
	// VectorsPreview carries each vector cut to its length and first VectorHead numbers
	// (VectorPreview JSON text; the column is marked Preview). The driver cuts them where it
	// reads them, so a page of 1,000 rows of 1,536-number vectors (~11 MB of JSON text)
	// crosses the plugin boundary as ~60 kB: the grid reads and holds only what it shows, and
	// asks for the full vectors of the rows a person expands, copies or inspects.
	VectorsPreview VectorRead = "preview"
)

// VectorHead is how many numbers of a vector a preview keeps.
const VectorHead = 4

// VectorPreview is the preview of one vector: its length and its first numbers, as the
// database wrote them. Multi holds the number of vectors of a multi-vector (0 otherwise).
type VectorPreview struct {
	Dimensions int               `json:"dimensions"`
	Head       []json.RawMessage `json:"head"`
	Multi      int               `json:"multi,omitempty"`
}

// PreviewVectors replaces each vector cell of g by its preview (JSON text of a
// VectorPreview; for named vectors an object of them by name) and marks those columns
// Preview. Drivers whose vector cells are JSON arrays (or objects of them) call it for a
// page read with VectorsPreview.
func PreviewVectors(g *Grid) {
	for j, c := range g.Columns {
		if !c.IsVector() || c.Preview { // a driver may have cut them where it read them
			continue
		}
		g.Columns[j].Preview = true
		for _, r := range g.Rows {
			if j < len(r) {
				if s, ok := r[j].(string); ok {
					r[j] = PreviewText(c.Type, s)
				}
			}
		}
	}
}

// PreviewText is one vector cell's preview. It never parses the numbers: the length comes
// from counting separators, the head from the text before the fifth.
//
// A cell that is not a vector as Weaviate writes one (not JSON, or not numbers) stays as it
// is: the grid shows such text unchanged, never an empty cell.
func PreviewText(typ, cell string) string {
	if !json.Valid([]byte(cell)) {
		return cell
	}
	if typ == TypeVectors {
		var byName map[string]json.RawMessage
		if err := json.Unmarshal([]byte(cell), &byName); err != nil {
			return cell
		}
		out := make(map[string]VectorPreview, len(byName))
		for name, v := range byName {
			out[name] = preview(v)
		}
		b, err := json.Marshal(out)
		if err != nil {
			return cell
		}
		return string(b)
	}
	b, err := json.Marshal(preview([]byte(cell)))
	if err != nil {
		return cell
	}
	return string(b)
}

// preview reads a flat vector ([a,b,...]) or a multi-vector ([[a,b],[c,d]]) without decoding
// its numbers.
func preview(v []byte) VectorPreview {
	v = bytes.TrimSpace(v)
	p := VectorPreview{Head: []json.RawMessage{}}
	if len(v) < 2 || v[0] != '[' {
		return p
	}
	inner := bytes.TrimSpace(v[1 : len(v)-1])
	if len(inner) > 0 && inner[0] == '[' { // a multi-vector: preview its first vector
		p.Multi = bytes.Count(inner, []byte("[")) // one "[" opens each vector
		end := bytes.IndexByte(inner, ']')
		if end < 0 {
			return p
		}
		first := preview(inner[:end+1])
		first.Multi = p.Multi
		return first
	}
	if len(inner) == 0 {
		return p
	}
	p.Dimensions = bytes.Count(inner, []byte(",")) + 1
	rest := inner
	for i := 0; i < VectorHead && len(rest) > 0; i++ {
		n, tail, _ := bytes.Cut(rest, []byte(","))
		p.Head = append(p.Head, json.RawMessage(bytes.TrimSpace(n)))
		rest = tail
	}
	return p
}
