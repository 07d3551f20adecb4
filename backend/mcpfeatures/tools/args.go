package tools

// The arguments the tools share: the connection and the table a call names, the filters and
// sorts of the grid, and the row limit.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"app/backend/driver"
)

// connArgs names the connection of a call.
type connArgs struct {
	Connection string `json:"connection" jsonschema:"id or name from list_connections"`
}

func (c connArgs) connection() string { return c.Connection }

// target names the table of a table tool. Table carries no description: the name says it, and
// every byte of a definition is listed to every model on every tools/list. Tenant has one short
// line (it is optional, and only a multi-tenant table takes it); list_tables says which tables
// need one, and describe_table lists their names.
type target struct {
	connArgs
	Table  string `json:"table"`
	Tenant string `json:"tenant,omitempty" jsonschema:"tenant of a multi-tenant table"`
}

// table is the table the driver opens: a tenant of a multi-tenant table is its own table
// (driver.TenantTable).
func (t target) table() string { return driver.TenantTable(t.Table, t.Tenant) }

// filterArg is one filter as a model sends it: values may be JSON numbers or booleans, which
// the driver takes as text (it types them from the schema).
type filterArg struct {
	Column   string          `json:"column"`
	Operator driver.Operator `json:"operator"`
	Value    filterValue     `json:"value,omitempty" jsonschema:"in: a,b,c"`
	Value2   boundValue      `json:"value2,omitempty" jsonschema:"between: upper"`
	Group    int             `json:"group,omitempty" jsonschema:"same group: ORed"`
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

// pageLimit resolves a limit argument against the limits in force: 0 is the default, a limit
// above the maximum is clamped to it and note says so.
func (d Deps) pageLimit(asked rowLimit) (limit int, note string) {
	l := d.limits()
	switch {
	case asked <= 0:
		return l.DefaultRows, ""
	case int(asked) > l.MaxRows:
		return l.MaxRows, fmt.Sprintf("limit %d was clamped to the maximum of %d rows", asked, l.MaxRows)
	}
	return int(asked), ""
}
