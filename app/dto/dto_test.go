package dto

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"app/backend/auth"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/explore"
	"app/backend/transfer"
	"app/backend/windowlayout"
)

// The window reads a list as an array: a conversion never sends null where the backend had
// none (no tokens' connections, no paths, no tenants, no shards, no rows).
func TestConversionsSendEmptyListsNotNull(t *testing.T) {
	now := time.Now()
	for name, v := range map[string]any{
		"token":   FromToken(auth.Token{ID: "t1", Name: "agent", CreatedAt: now}, now),
		"test":    FromTest("1.35.2", nil),
		"nodes":   FromNodes([]driver.Node{{Name: "node1", Tables: []driver.NodeTables{{Table: "Paper"}}}}),
		"tenants": FromTenants(0, explore.TenantWindow{}, 0, false),
		"preview": FromPreview("a.csv", &transfer.Preview{Format: transfer.CSV, Columns: []string{"title"}, Targets: []string{"title"}}, nil),
		"import":  FromImport(transfer.ImportSummary{}),
		"tables":  FromTables(nil),
		"columns": Columns([]driver.Column{{Name: "title"}}),
	} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "null") {
			t.Errorf("%s: %s has a null", name, b)
		}
	}
}

// The form reads back the connection it was filled from (any described key), what it saves
// is trimmed, and a port that is not a number is refused at its key.
func TestTheFormRoundTripsAConnection(t *testing.T) {
	c := connections.Connection{ID: "c1", Name: "Demo", Type: "weaviate", ExternalAccess: connections.AccessReadOnly, AIPolicy: "alwaysAsk",
		Settings: driver.Settings{Host: "localhost", Port: 8080, AuthMethod: driver.AuthAPIKey, SSLMode: driver.SSLMode("Disabled"), GRPCHost: "localhost", GRPCPort: 50051,
			Values: map[string]string{"database": "shop"}, SecretKeys: []string{"password"}}}
	f := FormFromConnection(c)
	if strings.Join(f.SavedSecrets, ",") != "apiKey,password" {
		t.Fatalf("saved secrets %v", f.SavedSecrets)
	}
	got, err := f.Connection()
	if err != nil || got.ID != c.ID || got.Name != c.Name || got.ExternalAccess != c.ExternalAccess || got.AIPolicy != c.AIPolicy ||
		got.Settings.Host != "localhost" || got.Settings.Port != 8080 || got.Settings.GRPCPort != 50051 || got.Settings.AuthMethod != driver.AuthAPIKey ||
		got.Settings.Value("database") != "shop" {
		t.Fatalf("read back %+v from %+v (%v)", got, c, err)
	}
	f.Values["host"], f.Values["caFile"] = "  example.com ", " /tmp/ca.pem\n"
	if got, _ := f.Connection(); got.Settings.Host != "example.com" || got.Settings.CAFile != "/tmp/ca.pem" {
		t.Fatalf("untrimmed: %+v", got.Settings)
	}
	f.Values["port"] = "80x"
	var de *driver.Error
	if _, err := f.Connection(); !errors.As(err, &de) || de.Field != "port" {
		t.Fatalf("a port of 80x: %v", err)
	}
	if d := FromConnection(c); d.Host != "localhost" || d.AuthMethod != string(driver.AuthAPIKey) || d.CreatedAt != "" {
		t.Fatalf("sidebar entry %+v", d)
	}
}

// The search panel's request becomes the driver's; what cannot be searched says why.
func TestSearchRequestsBecomeTheDriversOrSayWhatToFix(t *testing.T) {
	r, err := SearchRequestDTO{By: SearchByWords, Mode: "hybrid", Query: "ocean", Params: map[string]string{"alpha": "0.3", "fusion": ""},
		Filters: []FilterDTO{{Column: "year", Operator: "greater_than", Value: "2000"}}}.Request()
	if err != nil || r.Query == nil || *r.Query != "ocean" || !reflect.DeepEqual(r.Params, map[string]string{"alpha": "0.3"}) || len(r.Filters) != 1 {
		t.Fatalf("words, a choice left at the database's default is not sent: %+v %v", r, err)
	}
	if r, err := (SearchRequestDTO{By: SearchByVector, Query: "ocean", Mode: "bm25", Explain: true, Vector: " [0.5, -1] "}).Request(); err != nil ||
		!reflect.DeepEqual(r.Vector, []float64{0.5, -1}) || r.Query != nil || r.Mode != "" || r.Explain {
		t.Fatalf("a vector search sends only the vector: %+v %v", r, err)
	}
	if r, err := (SearchRequestDTO{By: SearchByRow, Row: map[string]any{"uuid": "0a1b2c3d-0000-4000-8000-000000000001"}}).Request(); err != nil || r.SimilarTo.Text() != "0a1b2c3d-0000-4000-8000-000000000001" {
		t.Fatalf("row: %+v %v", r, err)
	}
	for _, bad := range []SearchRequestDTO{{By: SearchByVector, Vector: "0.5"}, {By: SearchByVector, Vector: "[]"}, {By: SearchByRow, Row: map[string]any{}}, {By: "fuzzy"}} {
		if _, err := bad.Request(); err == nil {
			t.Errorf("%+v was taken", bad)
		}
	}
}

// A time the activity query cannot read is named.
func TestActivityQueryNamesTheTimeItCannotRead(t *testing.T) {
	now := time.Now()
	f, err := ActivityQueryDTO{Client: " Cursor ", Since: "24h"}.Filter(now)
	if err != nil || f.Client != "Cursor" || !f.Since.Equal(now.Add(-24*time.Hour)) {
		t.Fatalf("%+v %v", f, err)
	}
	if _, err := (ActivityQueryDTO{Until: "yesterday-ish"}).Filter(now); err == nil || !strings.HasPrefix(err.Error(), "until: ") {
		t.Fatalf("error %v", err)
	}
}

// The layout and a grid the window sends back read back as they were.
func TestLayoutsAndGridsReadBack(t *testing.T) {
	l := windowlayout.Layout{Tabs: []windowlayout.Tab{{Kind: "table", ConnectionID: "c1", Table: "Paper"}}, Active: "table:c1:Paper",
		LastTable: map[string]string{"c1": "Paper"}, ColumnWidths: map[string]map[string]int{"c1/Paper": {"title": 240}}}
	if got := FromLayout(l).Layout(); !reflect.DeepEqual(got, l) {
		t.Fatalf("layout %+v, want %+v", got, l)
	}
	g := &driver.Grid{Columns: []driver.Column{{Name: "uuid", Type: "uuid", PrimaryKey: true, ReadOnly: true}, {Name: "year", Type: "int"}},
		Rows: [][]any{{"6f1c0e7a-0000-4000-8000-000000000001", json.Number("2019")}, {"6f1c0e7a-0000-4000-8000-000000000002", nil}}}
	back := FromGrid(FromGrid(g).Grid())
	if want := FromGrid(g); !reflect.DeepEqual(back, want) {
		t.Fatalf("grid %+v, want %+v", back, want)
	}
}

// A table's group and its label within it reach the window as the driver gave them, and its
// name stays what every call takes (issue 40, item 3).
func TestATablesGroupAndLabelReachTheWindow(t *testing.T) {
	got := FromTables([]driver.Table{{Name: "acme:Article", Group: "acme", Label: "Article"}, {Name: "Loose"}})
	if got[0].Name != "acme:Article" || got[0].Group != "acme" || got[0].Label != "Article" || got[1].Group != "" || got[1].Label != "" {
		t.Fatalf("%+v", got)
	}
}
