package resources

import (
	"context"
	"errors"
	"strconv"

	"app/backend/connections"
	"app/backend/driver"
	"app/backend/mcp"
)

// connRef names the connection a document belongs to.
type connRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"type"`
}

func refOf(c connections.Connection) connRef { return connRef{ID: c.ID, Name: c.Name, Type: c.Type} }

// schemaColumn is a column as the schema resource lists it.
type schemaColumn struct {
	Name        string `json:"name"`
	Type        string `json:"type,omitempty"`
	PrimaryKey  bool   `json:"primaryKey,omitempty"`
	Array       bool   `json:"array,omitempty"`
	Description string `json:"description,omitempty"`
}

type schemaTable struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	URI         string         `json:"uri"`
	Columns     []schemaColumn `json:"columns"`
}

// schemaDoc is app://connections/{id}/schema.
type schemaDoc struct {
	Connection connRef       `json:"connection"`
	Tables     []schemaTable `json:"tables"`
}

// tableDoc is app://connections/{id}/tables/{table}: the driver's TableInfo without the
// database's raw schema document (the settings carry what gates filters).
type tableDoc struct {
	Connection  connRef              `json:"connection"`
	Name        string               `json:"name"`
	Description string               `json:"description,omitempty"`
	PrimaryKey  []string             `json:"primaryKey"`
	Columns     []driver.Column      `json:"columns"`
	Settings    driver.TableSettings `json:"settings"`
	SampleURI   string               `json:"sampleUri"`
}

// sampleDoc is app://connections/{id}/tables/{table}/sample.
type sampleDoc struct {
	Connection connRef          `json:"connection"`
	Table      string           `json:"table"`
	Columns    []string         `json:"columns"`
	Rows       []map[string]any `json:"rows"`
	HasMore    bool             `json:"hasMore"`
	Notice     string           `json:"notice,omitempty"`
}

// readSchema lists the tables with their columns. A table dropped between the list and its
// description is left out.
func readSchema(ctx context.Context, drv driver.Driver, c connections.Connection) (*schemaDoc, error) {
	tables, err := drv.ListTables(ctx)
	if err != nil {
		return nil, err
	}
	doc := &schemaDoc{Connection: refOf(c), Tables: make([]schemaTable, 0, len(tables))}
	for _, t := range tables {
		info, err := drv.DescribeTable(ctx, t.Name)
		if driver.KindOf(err) == driver.KindNotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		st := schemaTable{Name: info.Name, Description: info.Description, URI: TableURI(c.ID, info.Name), Columns: make([]schemaColumn, 0, len(info.Columns))}
		for _, col := range info.Columns {
			st.Columns = append(st.Columns, schemaColumn{Name: col.Name, Type: col.Type, PrimaryKey: col.PrimaryKey, Array: col.Array, Description: col.Description})
		}
		doc.Tables = append(doc.Tables, st)
	}
	return doc, nil
}

func readTable(ctx context.Context, drv driver.Driver, c connections.Connection, table string) (*tableDoc, error) {
	info, err := drv.DescribeTable(ctx, table)
	if err != nil {
		return nil, err
	}
	return &tableDoc{Connection: refOf(c), Name: info.Name, Description: info.Description, PrimaryKey: info.PrimaryKey,
		Columns: info.Columns, Settings: info.Settings, SampleURI: SampleURI(c.ID, info.Name)}, nil
}

// readSample browses the first SampleRows rows; vector columns are left out (one vector is
// thousands of numbers; browse_table returns them when asked).
func readSample(ctx context.Context, drv driver.Driver, c connections.Connection, table string) (*sampleDoc, error) {
	g, err := drv.Browse(ctx, table, driver.Page{Limit: SampleRows, Vectors: driver.VectorsPreview}, nil, nil)
	if err != nil {
		return nil, err
	}
	doc := &sampleDoc{Connection: refOf(c), Table: table, Columns: []string{}, Rows: make([]map[string]any, 0, len(g.Rows)), HasMore: g.HasMore, Notice: g.Notice}
	var keep []int
	for i, col := range g.Columns {
		if col.IsVector() {
			continue
		}
		keep = append(keep, i)
		doc.Columns = append(doc.Columns, col.Name)
	}
	for _, r := range g.Rows {
		row := make(map[string]any, len(keep))
		for _, i := range keep {
			if i < len(r) {
				row[g.Columns[i].Name] = r[i]
			}
		}
		doc.Rows = append(doc.Rows, row)
	}
	return doc, nil
}

// protocolError is how a failure reaches the client of resources/read, which has no
// tool-error result (contrast backend/mcpfeatures/tools.FromError):
//
//	*mcp.Error, *mcp.InputRequired   unchanged (already an answer)
//	driver not_found                 -32602, unknown resource (no such table)
//	driver invalid_argument          -32602 with the driver's message
//	driver timeout, DeadlineExceeded -33003 request timeout
//	other driver kinds               -32603 "internal error: <the driver's message>" (auth and
//	                                 connection failures keep "Authentication failed:" /
//	                                 "Connection failed:"; the server redacts the text again)
//	context.Canceled                 unchanged: the protocol layer answers -33002
//	anything else                    unchanged: the server answers -32603 without its text
func protocolError(err error) error {
	var pe *mcp.Error
	var ir *mcp.InputRequired
	var de *driver.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &pe), errors.As(err, &ir), errors.Is(err, mcp.ErrUnknownResource):
		return err
	case errors.As(err, &de):
		msg := oneLine(de.Msg)
		if msg == "" {
			msg = "the database operation failed"
		}
		switch de.Kind {
		case driver.KindNotFound:
			return mcp.ErrUnknownResource
		case driver.KindInvalidArgument, driver.KindRefusedFilter:
			return mcp.NewError(mcp.CodeInvalidParams, "invalid params: "+msg, nil)
		case driver.KindTimeout:
			return mcp.NewError(mcp.CodeRequestTimeout, "request timeout: "+msg, nil)
		case driver.KindCancelled:
			return context.Canceled
		}
		return mcp.NewError(mcp.CodeInternalError, "internal error: "+msg, nil)
	case errors.Is(err, context.DeadlineExceeded):
		return mcp.NewError(mcp.CodeRequestTimeout, "request timeout: the database did not answer in time", nil)
	}
	return err
}

func itoa(n int) string { return strconv.Itoa(n) }
