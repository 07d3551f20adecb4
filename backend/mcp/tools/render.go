package tools

// What the read tools share: the argument schemas every one of them takes (connection, table,
// filters, sort, limit), the row limit, and how a grid becomes a result a model reads: a small
// text table, capped and saying so, plus the same rows as structuredContent.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"app/backend/driver"
)

// Bounds of the text a model reads. The structuredContent keeps every row of the page; the
// text is cut so that one call does not fill a model's context, and says where it was cut.
const (
	maxTextBytes = 32 << 10
	maxCellRunes = 160
)

// object is an object schema over props that refuses unknown members.
func object(props map[string]*jsonschema.Schema, required ...string) *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:                 "object",
		Properties:           props,
		Required:             required,
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
}

// outObject is an output object schema (it need not refuse members: it describes ours).
func outObject(props map[string]*jsonschema.Schema, required ...string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: props, Required: required}
}

func str(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Description: desc}
}

func integer(desc string, minimum float64) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Description: desc, Minimum: &minimum}
}

func typed(t string) *jsonschema.Schema { return &jsonschema.Schema{Type: t} }

func arrayOf(items *jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "array", Items: items}
}

// connectionArg is the connection argument of every tool that reaches one.
func connectionArg() *jsonschema.Schema { return str("id or name from list_connections") }

// tableArg needs no description: "table" says it, and every byte of a definition is listed to
// every model on every tools/list.
func tableArg() *jsonschema.Schema { return typed("string") }

// tenantArg is the tenant of a multi-tenant table, which the driver opens as the table
// driver.TenantTable names. Like "table" it carries no description: list_tables says in one
// line which tables need it, and describe_table lists the names.
func tenantArg() *jsonschema.Schema { return typed("string") }

// limitArg does not name numbers: the default and the maximum are the user's settings.
func limitArg() *jsonschema.Schema { return integer("max rows; App caps it", 1) }

// filtersArg is the filters argument of browse_table and count_rows: the grid's own operator
// table (driver.Operators), so a model filters exactly as the user does.
func filtersArg() *jsonschema.Schema {
	ops := make([]any, 0, len(driver.Operators()))
	for _, op := range driver.Operators() {
		ops = append(ops, string(op))
	}
	f := object(map[string]*jsonschema.Schema{
		"column":   typed("string"),
		"operator": {Type: "string", Enum: ops},
		"value":    {Types: []string{"string", "number", "boolean", "null"}, Description: "in: a,b,c"},
		"value2":   {Types: []string{"string", "number", "null"}, Description: "between: upper"},
		"group":    {Type: "integer", Description: "same group: ORed"},
	}, "column", "operator")
	return arrayOf(f)
}

// filterArg is one filter as a model sends it: values may be JSON numbers or booleans, which
// the driver takes as text (it types them from the schema).
type filterArg struct {
	Column   string          `json:"column"`
	Operator driver.Operator `json:"operator"`
	Value    any             `json:"value"`
	Value2   any             `json:"value2"`
	Group    int             `json:"group"`
}

func filtersOf(args []filterArg) []driver.Filter {
	out := make([]driver.Filter, 0, len(args))
	for _, a := range args {
		out = append(out, driver.Filter{Column: a.Column, Operator: a.Operator, Value: argText(a.Value), Value2: argText(a.Value2), Group: a.Group})
	}
	return out
}

func argText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// describeFilters is the readable form of filters and sorts, for the approval text and the
// result's first line.
func describeFilters(filters []driver.Filter, sorts []driver.Sort) string {
	var b strings.Builder
	for i, group := range driver.FilterGroups(filters) {
		if i == 0 {
			b.WriteString(" where ")
		} else {
			b.WriteString(" and ")
		}
		if len(group) > 1 {
			b.WriteString("(")
		}
		for j, f := range group {
			if j > 0 {
				b.WriteString(" or ")
			}
			fmt.Fprintf(&b, "%s %s", f.Column, f.Operator)
			switch {
			case f.Operator == driver.OpBetween:
				fmt.Fprintf(&b, " %q and %q", f.Value, f.Value2)
			case f.Value != "":
				fmt.Fprintf(&b, " %q", f.Value)
			}
		}
		if len(group) > 1 {
			b.WriteString(")")
		}
	}
	for i, s := range sorts {
		if i == 0 {
			b.WriteString(" sorted by ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(s.Column)
		if s.Descending {
			b.WriteString(" desc")
		}
	}
	return b.String()
}

// rowLimit resolves a limit argument against the limits in force: 0 is the default, a limit
// above the maximum is clamped to it and note says so.
func (d Deps) rowLimit(asked int) (limit int, note string) {
	l := d.limits()
	switch {
	case asked <= 0:
		return l.DefaultRows, ""
	case asked > l.MaxRows:
		return l.MaxRows, fmt.Sprintf("limit %d was clamped to the maximum of %d rows", asked, l.MaxRows)
	}
	return asked, ""
}

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

// pageOutput is the output schema of page: the members a client needs to read a page right
// (the rest are listed in the text), kept short because it is listed on every tools/list.
func pageOutput() *jsonschema.Schema {
	return outObject(map[string]*jsonschema.Schema{
		"columns":    typed("array"),
		"rows":       typed("array"),
		"truncated":  typed("boolean"),
		"nextOffset": typed("integer"),
		"notes":      typed("string"),
	}, "columns", "rows", "truncated")
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
