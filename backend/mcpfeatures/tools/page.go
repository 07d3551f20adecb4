package tools

// How a grid becomes a result a model reads: a small text table, capped and saying so, plus
// the same rows as structuredContent.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"app/backend/driver"
)

// Bounds of the text a model reads. The structuredContent keeps every row of the page; the
// text is cut so that one call does not fill a model's context, and says where it was cut.
const (
	maxTextBytes = 32 << 10
	maxCellRunes = 160
)

// page is one page of rows as the grid tools return it (structuredContent).
type page struct {
	Table   string   `json:"table"`
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
	Offset  int      `json:"offset"`
	// Truncated: more rows exist than the page holds (or may exist, when paging stopped at
	// the database's maximum). NextOffset is where the next page starts, when one can be read.
	Truncated  bool   `json:"truncated"`
	NextOffset *int   `json:"nextOffset,omitempty"`
	Notes      string `json:"notes,omitempty"`
}

// pageOf cuts g, read with limit+1 rows asked for, to limit rows and tells whether more
// exist. A page the driver cut at its paging maximum (g.Notice with a full page) may hide
// more rows that no offset reaches: it is truncated without a next offset, the notice says why.
func pageOf(table string, g *driver.Grid, offset, limit int) page {
	p := page{Table: table, Offset: offset, Rows: g.Rows}
	for _, c := range g.Columns {
		p.Columns = append(p.Columns, c.Name)
	}
	if p.Rows == nil {
		p.Rows = [][]any{}
	}
	switch {
	case len(p.Rows) > limit:
		p.Rows = p.Rows[:limit]
		p.Truncated = true
		next := offset + limit
		p.NextOffset = &next
	case g.HasMore:
		// The driver read past the page and found more (Driver.Browse).
		p.Truncated = true
		next := offset + len(p.Rows)
		p.NextOffset = &next
	case g.Notice != "":
		// The driver stopped at its paging maximum (Driver.Browse): rows past it may exist.
		p.Truncated = true
	}
	if g.Notice != "" {
		p.addNote(g.Notice)
	}
	return p
}

func (p *page) addNote(n string) {
	if n == "" {
		return
	}
	if p.Notes != "" {
		p.Notes += " "
	}
	p.Notes += strings.TrimSuffix(n, ".") + "."
}

// dropColumns removes the named columns from the page (browse_table leaves vectors out unless
// asked: they are long and say nothing to a model).
func (p *page) dropColumns(drop func(i int) bool) {
	keep := make([]int, 0, len(p.Columns))
	cols := p.Columns[:0:0]
	for i, c := range p.Columns {
		if !drop(i) {
			keep = append(keep, i)
			cols = append(cols, c)
		}
	}
	if len(keep) == len(p.Columns) {
		return
	}
	p.Columns = cols
	for r, row := range p.Rows {
		out := make([]any, 0, len(keep))
		for _, i := range keep {
			if i < len(row) {
				out = append(out, row[i])
			}
		}
		p.Rows[r] = out
	}
}

// text renders the page for a model: a first line saying which rows these are and, when the
// page is cut, that more rows exist and how to read them (more, given the next offset), then
// the rows as a text table.
func (p page) text(summary string, more func(next int) string) string {
	clause := "more rows may exist past the database's paging limit"
	if p.NextOffset != nil {
		clause = "more rows exist: " + more(*p.NextOffset)
	}
	return p.textWith(summary, clause)
}

// textWith is text with the clause said of a cut page given.
func (p page) textWith(summary, more string) string {
	var b strings.Builder
	b.WriteString(summary)
	n := len(p.Rows)
	switch {
	case n == 0:
		b.WriteString(": no rows")
	default:
		fmt.Fprintf(&b, ": rows %d-%d", p.Offset+1, p.Offset+n)
	}
	switch {
	case p.Truncated:
		b.WriteString("; " + more)
	case n > 0:
		b.WriteString("; no more rows")
	}
	b.WriteString(".")
	if p.Notes != "" {
		b.WriteString(" " + p.Notes)
	}
	b.WriteString("\n")
	if n > 0 {
		b.WriteString(textTable(p.Columns, p.Rows, maxTextBytes-b.Len()))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// textTable renders rows under a header, one line each, cells separated by " | ". It stops
// before budget bytes and ends with a line saying how many rows it left out (they are in
// structuredContent).
func textTable(cols []string, rows [][]any, budget int) string {
	var b strings.Builder
	b.WriteString(strings.Join(cols, " | "))
	b.WriteString("\n")
	for i, row := range rows {
		line := rowText(row)
		if b.Len()+len(line)+1 > budget-120 {
			fmt.Fprintf(&b, "[text cut after %d of %d rows to stay short; structuredContent has all %d]\n", i, len(rows), len(rows))
			break
		}
		b.WriteString(line)
		b.WriteString("\n")
	}
	return b.String()
}

func rowText(row []any) string {
	cells := make([]string, len(row))
	for i, v := range row {
		cells[i] = cellText(v)
	}
	return strings.Join(cells, " | ")
}

// cellText is one cell on one line: null, "" for an empty string, JSON text for anything
// else; line breaks and the separator escaped, long values cut with an ellipsis and their
// length.
func cellText(v any) string {
	var s string
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		if v == "" {
			return `""`
		}
		s = v
	case json.Number:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return "?"
		}
		s = string(b)
	}
	s = strings.NewReplacer("\r", `\r`, "\n", `\n`, "\t", `\t`, "|", `\|`).Replace(s)
	if n := utf8.RuneCountInString(s); n > maxCellRunes {
		s = string([]rune(s)[:maxCellRunes]) + fmt.Sprintf("… (%d chars)", n)
	}
	return s
}

// capText cuts text longer than the text budget at a line end and says so.
func capText(s, rest string) string {
	if len(s) <= maxTextBytes {
		return s
	}
	cut := strings.LastIndexByte(s[:maxTextBytes-200], '\n')
	if cut < 0 {
		cut = maxTextBytes - 200
	}
	return s[:cut] + "\n[text cut to stay short; " + rest + "]"
}
