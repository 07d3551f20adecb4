// Command testdb-driver is a driver plugin made only for tests (never published by `make
// plugins`): a connection type the host has never heard of, "testdb", whose description has
// one field of each kind. The window test and the CLI test install it from a registry they
// publish and check that the form, `app connection fields` and `app connection add` come from
// its description alone (contract 3, item 1). Its connection opens a file: Connect says
// whether the file at path exists, and there are no tables.
package main

import (
	"context"
	"errors"
	"os"

	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/plugins/grpcdriver"
)

// version is set at build time (-X main.version=...).
var version = "0.1.0"

// Type is the connection type it serves.
const Type = "testdb"

// Describe is its description: one field of each kind, an enum that shows the secret, an int
// in Advanced, addressed by its path, and a URL form for a file.
func Describe() driver.Description {
	return driver.Description{
		Types: []driver.ConnectionType{{Name: Type, Label: "Test DB", Summary: "A file database made for the tests"}},
		Settings: []driver.SettingField{
			{Key: "path", Label: "Database file", Kind: driver.FieldPath, Required: true, Help: "The file to open"},
			{Key: "mode", Label: "Open mode", Kind: driver.FieldEnum, Options: []string{"read-only", "read-write"}, Default: "read-write", Required: true},
			{Key: "password", Label: "Passphrase", Kind: driver.FieldSecret, Required: true, ShowWhen: &driver.Condition{Key: "mode", In: []string{"read-write"}}},
			{Key: "label", Label: "Display label", Kind: driver.FieldText, Placeholder: "any words"},
			{Key: "wal", Label: "Use a write-ahead log", Kind: driver.FieldBool, Default: "true"},
			{Key: "cache", Label: "Cache pages", Kind: driver.FieldInt, Min: 1, Max: 100000, Default: "2000", Section: "Advanced"},
		},
		Address: []string{"path"},
		URL: &driver.URLForm{Schemes: []string{Type}, Example: Type + ":///home/me/shop.db?mode=read-only", Path: "path", FilePath: true,
			Password: "password", Query: map[string]string{"mode": "mode", "cache": "cache"}},
	}
}

func main() {
	grpcdriver.Main(grpcdriver.Config{
		Info: grpcdriver.Info{Name: Type, Version: version, Types: []string{Type}, Connections: Describe()},
		Open: func(s driver.Settings, _ logrus.FieldLogger) (driver.Driver, error) {
			if err := Describe().Check(s, nil); err != nil {
				return nil, err
			}
			return &conn{s: s}, nil
		},
		Classify: func(string) (driver.Classification, error) {
			return driver.Classification{}, errors.New("testdb has no query language")
		},
	})
}

// conn is one open testdb connection: a file that exists, and nothing in it.
type conn struct{ s driver.Settings }

func (c *conn) Connect(context.Context) error {
	p := c.s.Value("path")
	if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
		e := driver.Errorf(driver.KindConnection, "Connection failed: no database file at %s", p)
		e.Field = "path"
		return e
	}
	return nil
}

func (c *conn) Ping(ctx context.Context) error { return c.Connect(ctx) }
func (c *conn) ServerVersion() string          { return "testdb " + version }
func (c *conn) ListTables(context.Context) ([]driver.Table, error) {
	return []driver.Table{}, nil
}

func unsupported(what string) error {
	return driver.Errorf(driver.KindUnsupported, "testdb has no %s", what)
}

func (c *conn) DescribeTable(_ context.Context, t string) (*driver.TableInfo, error) {
	return nil, driver.Errorf(driver.KindNotFound, "no table %q", t)
}
func (c *conn) Browse(context.Context, string, driver.Page, []driver.Filter, []driver.Sort) (*driver.Grid, error) {
	return nil, unsupported("tables")
}
func (c *conn) Count(context.Context, string, []driver.Filter) (int64, error) {
	return 0, unsupported("tables")
}
func (c *conn) Search(context.Context, string, driver.SearchRequest, int) (*driver.Grid, error) {
	return nil, unsupported("search")
}
func (c *conn) Execute(context.Context, string, driver.ExecOptions) (*driver.Result, error) {
	return nil, unsupported("query language")
}
func (c *conn) Classify(string) (driver.Classification, error) {
	return driver.Classification{}, unsupported("query language")
}
func (c *conn) CheckCells(context.Context, string, map[string]*string) (map[string]string, error) {
	return nil, unsupported("tables")
}
func (c *conn) Insert(context.Context, string, []driver.Row) ([]driver.RowResult, error) {
	return nil, unsupported("tables")
}
func (c *conn) Update(context.Context, string, []driver.Row) ([]driver.RowResult, error) {
	return nil, unsupported("tables")
}
func (c *conn) Delete(context.Context, string, []driver.Row) ([]driver.RowResult, error) {
	return nil, unsupported("tables")
}
func (c *conn) Capabilities() driver.Capabilities { return driver.Capabilities{} }
func (c *conn) Close() error                      { return nil }
