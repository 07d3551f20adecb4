package weaviate_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"app/backend/driver"
)

// Issue 37, item 5: a table is created from portable columns by the driver, which picks its
// own types and says what it chose; the collection read back with the server's own REST API
// has exactly those types, a vectorizer of none and the named vectors asked for; a name
// Weaviate refuses is an invalid argument naming the column, and an existing collection a
// conflict.
func TestCreateTableFromPortableColumns(t *testing.T) {
	for _, v := range readPaths {
		t.Run(v.String(), func(t *testing.T) {
			n := sharedNode(t, v)
			d := open(t, n, nil)
			ctx := ctxT(t)
			for _, named := range []bool{false, true} {
				name := fmt.Sprintf("Created%d%v", int(v), named)
				t.Cleanup(func() { _ = n.DoJSON(context.Background(), http.MethodDelete, "/v1/schema/"+name, nil, nil) })
				spec := driver.TableSpec{Name: name, Columns: []driver.ColumnSpec{
					{Name: "title", Kind: driver.ColumnText}, {Name: "n", Kind: driver.ColumnInteger},
					{Name: "price", Kind: driver.ColumnNumber}, {Name: "ok", Kind: driver.ColumnBoolean},
					{Name: "at", Kind: driver.ColumnDateTime}, {Name: "ref", Kind: driver.ColumnUUID},
					{Name: "tags", Kind: driver.ColumnArray, Of: driver.ColumnText},
					{Name: "counts", Kind: driver.ColumnArray, Of: driver.ColumnInteger},
					{Name: "doc", Kind: driver.ColumnJSON},
				}}
				if named {
					spec.Vectors = []string{"a", "b"}
				}
				info, err := d.CreateTable(ctx, spec)
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]string{"title": "text", "n": "int", "price": "number", "ok": "boolean", "at": "date",
					"ref": "uuid", "tags": "text[]", "counts": "int[]", "doc": "text"}
				for _, c := range spec.Columns {
					got, ok := info.Column(c.Name)
					if c.Kind == driver.ColumnJSON {
						c.Kind = driver.ColumnText // the driver's choice for JSON, said in its answer
					}
					if !ok || got.Type != want[c.Name] || got.Kind != c.Kind || got.Of != c.Of {
						t.Errorf("%s: the driver says %+v", c.Name, got)
					}
				}
				var class struct {
					Vectorizer   string           `json:"vectorizer"`
					VectorConfig map[string]json0 `json:"vectorConfig"`
					Properties   []struct {
						Name     string
						DataType []string
					} `json:"properties"`
				}
				if err := n.DoJSON(ctx, http.MethodGet, "/v1/schema/"+name, nil, &class); err != nil {
					t.Fatal(err)
				}
				for _, p := range class.Properties {
					if len(p.DataType) != 1 || p.DataType[0] != want[p.Name] {
						t.Errorf("the server holds %s as %v", p.Name, p.DataType)
					}
				}
				if len(class.Properties) != len(spec.Columns) {
					t.Errorf("the server holds %d properties", len(class.Properties))
				}
				if named {
					if _, a := class.VectorConfig["a"]; !a || len(class.VectorConfig) != 2 {
						t.Errorf("vectorConfig %v", class.VectorConfig)
					}
				} else if class.Vectorizer != "none" {
					t.Errorf("vectorizer %q", class.Vectorizer)
				}
				if _, err := d.CreateTable(ctx, spec); !driver.IsKind(err, driver.KindConflict) {
					t.Errorf("creating it again: %v", err)
				}
			}
			_, err := d.CreateTable(ctx, driver.TableSpec{Name: fmt.Sprintf("Refused%d", int(v)), Columns: []driver.ColumnSpec{{Name: "2nd place", Kind: driver.ColumnText}}})
			var de *driver.Error
			if !driver.IsKind(err, driver.KindInvalidArgument) || !asDriverError(err, &de) || de.Column != "2nd place" || de.Reason == "" {
				t.Fatalf("a name Weaviate refuses: %v", err)
			}
		})
	}
}

type json0 = map[string]any

func asDriverError(err error, de **driver.Error) bool {
	e, ok := err.(*driver.Error)
	*de = e
	return ok
}
