package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"app/backend/driver"
	"app/backend/mcp"
)

// NameDescribeTable describes a table's columns; the server instructions tell the model to
// call it before writing a query (SPEC.md B "What the service does" 4).
const NameDescribeTable = "describe_table"

// tableDescription is describe_table's structuredContent: the driver's TableInfo without the
// database's raw schema document (long, and nothing a model needs beyond these fields).
type tableDescription struct {
	Name        string               `json:"name"`
	Description string               `json:"description,omitempty"`
	PrimaryKey  []string             `json:"primaryKey"`
	Columns     []driver.Column      `json:"columns"`
	Settings    driver.TableSettings `json:"settings"`
	// Tenants are a multi-tenant table's first tenants (at most describeTenants) and
	// TenantCount how many it has: the names a model passes as tenant.
	Tenants     []driver.Tenant `json:"tenants,omitempty"`
	TenantCount int             `json:"tenantCount,omitempty"`
	// Searches are the modes vector_search takes with a query, the default first.
	Searches []driver.SearchMode `json:"searches,omitempty"`
	// wordsNeedUpdate: the driver's plugin predates described searches by words.
	wordsNeedUpdate bool
}

// describeTenants bounds the tenants describe_table lists: a SaaS collection has thousands.
const describeTenants = 100

// DescribeTable is the describe_table tool: columns with their types, key, read-only flags and
// the filter operators each accepts, and the collection settings that gate the null and
// emptiness filters (SPEC.md A "Grid rows").
func DescribeTable(d Deps) mcp.Tool {
	return define(spec{
		Name:        NameDescribeTable,
		Title:       "Describe table",
		Description: "Describes a table: columns (type, key, read-only, filter operators) and settings. Call before querying.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, func(ctx context.Context, a target, raw json.RawMessage) (string, tableDescription, error) {
		table := a.table()
		drv, _, err := d.use(ctx, a.Connection, read(NameDescribeTable, raw, "describe table "+table))
		if err != nil {
			return "", tableDescription{}, err
		}
		var info *driver.TableInfo
		var tenants []driver.Tenant
		err = d.query(ctx, "describing", func(ctx context.Context) error {
			var err error
			if info, err = d.describeTable(ctx, drv, table); err != nil {
				return err
			}
			if tn, ok := drv.(driver.Tenants); ok && info.Settings.MultiTenancy && info.Settings.Tenant == "" {
				tenants, err = tn.ListTenants(ctx, table)
			}
			return err
		})
		if err != nil {
			return "", tableDescription{}, err
		}
		desc := tableDescription{Name: info.Name, Description: info.Description, PrimaryKey: info.PrimaryKey,
			Columns: info.Columns, Settings: info.Settings, TenantCount: len(tenants), Searches: info.Searches,
			wordsNeedUpdate: !drv.Capabilities().SearchModes}
		desc.Tenants = tenants[:min(len(tenants), describeTenants)]
		if desc.Columns == nil {
			desc.Columns = []driver.Column{}
		}
		return describeText(desc), desc, nil
	})
}

// describeText is the compact form: a header, the settings, then one line per column:
// "name type [flags] ops: a,b,c".
func describeText(t tableDescription) string {
	var b strings.Builder
	b.WriteString("table " + t.Name)
	if t.Description != "" {
		b.WriteString(": " + oneLine(t.Description))
	}
	s := t.Settings
	fmt.Fprintf(&b, "\nprimary key: %s\nsettings: indexNullState=%t indexPropertyLength=%t indexTimestamps=%t multiTenancy=%t",
		strings.Join(t.PrimaryKey, ", "), s.IndexNullState, s.IndexPropertyLength, s.IndexTimestamps, s.MultiTenancy)
	if s.Vectorizer != "" {
		b.WriteString(" vectorizer=" + s.Vectorizer)
	}
	if len(s.NamedVectors) > 0 {
		b.WriteString(" namedVectors=" + strings.Join(s.NamedVectors, ","))
	}
	switch {
	case s.Tenant != "":
		b.WriteString("\ntenant " + s.Tenant + " of a multi-tenant table")
	case s.MultiTenancy:
		fmt.Fprintf(&b, "\nmulti-tenant: its rows live in its %d tenants; pass one as tenant", t.TenantCount)
		if len(t.Tenants) > 0 {
			names := make([]string, len(t.Tenants))
			for i, tn := range t.Tenants {
				names[i] = tn.Name
				if tn.Status != driver.TenantActive {
					names[i] += " (" + strings.ToLower(tn.Status) + ")"
				}
			}
			b.WriteString(": " + strings.Join(names, ", "))
			if t.TenantCount > len(t.Tenants) {
				fmt.Fprintf(&b, " (first %d)", len(t.Tenants))
			}
		}
	}
	writeSearches(&b, t.Searches, t.wordsNeedUpdate)
	b.WriteString("\ncolumns (name type [flags] ops):")
	for _, c := range t.Columns {
		b.WriteString("\n" + c.Name + " " + orDash(c.Type))
		var flags []string
		for _, f := range []struct {
			on   bool
			name string
		}{{c.PrimaryKey, "pk"}, {c.ReadOnly, "read-only"}, {c.Array, "array"}, {c.Sortable, "sortable"}} {
			if f.on {
				flags = append(flags, f.name)
			}
		}
		if len(flags) > 0 {
			b.WriteString(" [" + strings.Join(flags, ",") + "]")
		}
		if len(c.Filterable) > 0 {
			ops := make([]string, len(c.Filterable))
			for i, op := range c.Filterable {
				ops[i] = string(op)
			}
			b.WriteString(" ops: " + strings.Join(ops, ","))
		} else {
			b.WriteString(" ops: none")
		}
		if c.Description != "" {
			b.WriteString(" -- " + truncate(oneLine(c.Description), 200))
		}
	}
	return capText(b.String(), "structuredContent has every column")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// writeSearches is one line per search mode: what vector_search's mode and params take.
func writeSearches(b *strings.Builder, ms []driver.SearchMode, needUpdate bool) {
	switch {
	case len(ms) == 0 && needUpdate:
		b.WriteString("\nsearch by words: this version of the driver plugin cannot (the user can update it in App's Settings, Plugins); vector_search takes vector or similarTo")
		return
	case len(ms) == 0:
		b.WriteString("\nsearch by words: none (vector_search takes vector or similarTo)")
		return
	}
	b.WriteString("\nsearch modes (vector_search mode, the first the default; params):")
	for _, m := range ms {
		b.WriteString("\n" + m.Name + " ranks by " + m.Measure)
		if m.Hint != "" {
			b.WriteString(": " + oneLine(m.Hint))
		}
		for _, p := range m.Params {
			switch p.Kind {
			case driver.ParamNumber:
				fmt.Fprintf(b, "; %s number", p.Key)
				if p.Min != 0 || p.Max != 0 {
					fmt.Fprintf(b, " %g..%g", p.Min, p.Max)
				}
			case driver.ParamEnum:
				fmt.Fprintf(b, "; %s one of %s", p.Key, strings.Join(p.Options, ","))
			case driver.ParamVector:
				fmt.Fprintf(b, "; %s a vector (vector_search's vector with the query)", p.Key)
			}
			if p.Default != "" {
				b.WriteString(" default " + p.Default)
			}
		}
		if m.Note != "" {
			b.WriteString(" (" + oneLine(m.Note) + ")")
		}
	}
}
