package app

import (
	"encoding/json"
	"fmt"
	"strconv"

	"app/backend/driver"
)

// ConnectionStateDTO is what Connect reports about an open connection. It never carries
// settings or the API key. The frontend mirrors it as `ConnectionState`.
type ConnectionStateDTO struct {
	ID        string `json:"id"`
	Connected bool   `json:"connected"`
	// ServerVersion is the database's version when the driver knows it ("" otherwise).
	ServerVersion string `json:"serverVersion"`
}

// TableDTO is one table (collection) of an open connection, as the sidebar tree shows it.
type TableDTO struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// TableCountDTO is the row count of one table. Count is null when the table cannot be
// counted as a whole (a multi-tenant collection), and Message then says why.
type TableCountDTO struct {
	Name    string `json:"name"`
	Count   *int64 `json:"count"`
	Message string `json:"message,omitempty"`
}

// ColumnDTO is one grid column: uuid first (primary key, read-only), the properties in
// schema order, vector last (read-only).
type ColumnDTO struct {
	Name string `json:"name"`
	// Type is the database type: "uuid", a Weaviate data type ("text", "int[]", "date",
	// "object", a referenced collection name), "vector" or "vectors".
	Type       string `json:"type"`
	PrimaryKey bool   `json:"primaryKey"`
	ReadOnly   bool   `json:"readOnly"`
	// JSON marks columns whose cells are JSON text (arrays, objects, references, vectors).
	JSON        bool   `json:"json"`
	Description string `json:"description"`
}

// TableSettingsDTO are the collection settings worth showing next to the columns.
type TableSettingsDTO struct {
	MultiTenancy        bool     `json:"multiTenancy"`
	Vectorizer          string   `json:"vectorizer"`
	NamedVectors        []string `json:"namedVectors"`
	IndexNullState      bool     `json:"indexNullState"`
	IndexPropertyLength bool     `json:"indexPropertyLength"`
}

// TableInfoDTO is DescribeTable's answer.
type TableInfoDTO struct {
	Name        string           `json:"name"`
	Description string           `json:"description"`
	PrimaryKey  string           `json:"primaryKey"`
	Columns     []ColumnDTO      `json:"columns"`
	Settings    TableSettingsDTO `json:"settings"`
}

// GridDTO is one read-only page of rows. Every cell is display text or null: numbers keep
// their exact digits (a JavaScript number would round an int64), booleans are "true" or
// "false", and arrays, objects and vectors are JSON text (SPEC A, Grid rows).
type GridDTO struct {
	Columns []ColumnDTO `json:"columns"`
	// Rows[i][j] belongs to Columns[j]; each cell is a string or null.
	Rows [][]*string `json:"rows"`
	// Offset is the row number of Rows[0] within the whole table.
	Offset  int  `json:"offset"`
	HasMore bool `json:"hasMore"`
	// Notice explains a limit the page hit (paging stops at row 10,000).
	Notice string `json:"notice"`
}

func toColumnDTOs(cols []driver.Column) []ColumnDTO {
	out := make([]ColumnDTO, 0, len(cols))
	for _, c := range cols {
		out = append(out, ColumnDTO{
			Name: c.Name, Type: c.Type, PrimaryKey: c.PrimaryKey, ReadOnly: c.ReadOnly,
			JSON: c.Array, Description: c.Description,
		})
	}
	return out
}

func toTableInfoDTO(t *driver.TableInfo) TableInfoDTO {
	named := t.Settings.NamedVectors
	if named == nil {
		named = []string{}
	}
	return TableInfoDTO{
		Name:        t.Name,
		Description: t.Description,
		PrimaryKey:  t.PrimaryKey,
		Columns:     toColumnDTOs(t.Columns),
		Settings: TableSettingsDTO{
			MultiTenancy:        t.Settings.MultiTenancy,
			Vectorizer:          t.Settings.Vectorizer,
			NamedVectors:        named,
			IndexNullState:      t.Settings.IndexNullState,
			IndexPropertyLength: t.Settings.IndexPropertyLength,
		},
	}
}

func toGridDTO(g *driver.Grid) GridDTO {
	rows := make([][]*string, 0, len(g.Rows))
	for _, r := range g.Rows {
		row := make([]*string, len(r))
		for j, v := range r {
			row[j] = cellText(v)
		}
		rows = append(rows, row)
	}
	return GridDTO{Columns: toColumnDTOs(g.Columns), Rows: rows, Offset: g.Offset, HasMore: g.HasMore, Notice: g.Notice}
}

// cellText renders a driver cell (nil, string, bool, json.Number; arrays and objects are
// already JSON text) as display text, or nil for null.
func cellText(v any) *string {
	var s string
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		s = x
	case bool:
		s = strconv.FormatBool(x)
	case json.Number:
		s = x.String()
	case json.RawMessage:
		s = string(x)
	default: // a driver that breaks the cell contract still shows something sensible
		if b, err := json.Marshal(x); err == nil {
			s = string(b)
		} else {
			s = fmt.Sprint(x)
		}
	}
	return &s
}
