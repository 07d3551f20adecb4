package app

import (
	"bytes"
	"encoding/json"
	"strings"

	"app/backend/driver"
)

// vectorHead is how many numbers of a vector a grid page carries: the cell shows them, and
// the full vector is read (Vectors) only when the user expands, copies or inspects it. A page
// of 1,000 rows of 1,536-number vectors is ~11 MB of JSON text; its previews are ~60 kB, so
// the grid reads and holds only what it shows (docs/architecture.md, "The table grid").
const vectorHead = 4

// maxVectorRows bounds one Vectors call, as a page bounds Browse.
const maxVectorRows = maxPageSize

// VectorPreview is the preview of one vector: its length and its first numbers, as the
// database wrote them. Multi holds the number of vectors of a multi-vector (0 otherwise).
type VectorPreview struct {
	Dimensions int               `json:"dimensions"`
	Head       []json.RawMessage `json:"head"`
	Multi      int               `json:"multi,omitempty"`
}

// previewVectors replaces each vector cell of a page read as cols by its preview (JSON text
// of a VectorPreview; for named vectors an object of them by name) and marks those columns
// Preview.
func previewVectors(g *GridDTO, cols []driver.Column) {
	for j, c := range cols {
		if !c.IsVector() || j >= len(g.Columns) {
			continue
		}
		g.Columns[j].Preview = true
		for _, r := range g.Rows {
			if j < len(r) && r[j] != nil {
				p := previewText(c.Type, *r[j])
				r[j] = &p
			}
		}
	}
}

// previewText is one vector cell's preview. It never parses the numbers: the length comes
// from counting separators, the head from the text before the fifth.
//
// A cell that is not a vector as Weaviate writes one (not JSON, or not numbers) stays as it
// is: the grid shows such text unchanged, never an empty cell.
func previewText(typ, cell string) string {
	if !json.Valid([]byte(cell)) {
		return cell
	}
	if typ == driver.TypeVectors {
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
	for i := 0; i < vectorHead && len(rest) > 0; i++ {
		n, tail, _ := bytes.Cut(rest, []byte(","))
		p.Head = append(p.Head, json.RawMessage(bytes.TrimSpace(n)))
		rest = tail
	}
	return p
}

// Vectors reads the full vector cells of some rows of a table, by uuid: uuid -> the cell's
// JSON text (an array, or an object of arrays by name for named vectors); a row without a
// vector is absent, as is a uuid the table does not hold. The grid calls it when the user
// expands, copies or inspects a vector (its pages carry previews).
func (a *ExplorerAPI) Vectors(id, table string, uuids []string) (map[string]string, error) {
	d, err := a.driver(id)
	if err != nil {
		return nil, err
	}
	switch {
	case strings.TrimSpace(table) == "":
		return nil, invalidArgument("a table name is required")
	case len(uuids) == 0:
		return map[string]string{}, nil
	case len(uuids) > maxVectorRows:
		return nil, invalidArgument("at most %d rows at a time; asked for %d", maxVectorRows, len(uuids))
	}
	for _, u := range uuids {
		if _, err := driver.ParseCell("uuid", u); err != nil {
			return nil, invalidArgument("%s", err.Error())
		}
	}
	ctx, cancel := a.callContext()
	defer cancel()
	info, err := d.DescribeTable(ctx, table)
	if err != nil {
		return nil, apiError(err)
	}
	g, err := d.Browse(ctx, table, driver.Page{Limit: len(uuids)}, []driver.Filter{{Column: info.PrimaryKey, Operator: driver.OpIn, Value: strings.Join(uuids, ",")}}, nil)
	if err != nil {
		return nil, apiError(err)
	}
	key, vec := -1, -1
	for j, c := range g.Columns {
		switch {
		case c.Name == info.PrimaryKey:
			key = j
		case c.IsVector():
			vec = j
		}
	}
	out := make(map[string]string, len(g.Rows))
	if key < 0 || vec < 0 {
		return out, nil
	}
	for _, r := range g.Rows {
		k, v := cellText(r[key]), cellText(r[vec])
		if k != nil && v != nil {
			out[*k] = *v
		}
	}
	return out, nil
}
