package app

import (
	"reflect"
	"strings"
	"testing"

	"app/app/dto"
)

// The layout facade converts to and from backend/windowlayout (whose tests hold the rules):
// a saved layout reads back equal, and a refused one is invalid_argument.
func TestLayoutAPIRoundTripsAndRefusesABrokenLayout(t *testing.T) {
	want := dto.LayoutDTO{
		Tabs:         []dto.LayoutTabDTO{{Kind: "connection", ConnectionID: "c1"}, {Kind: "table", ConnectionID: "c1", Table: "Article"}, {Kind: "settings"}},
		Active:       "table:c1:Article",
		LastTable:    map[string]string{"c1": "Article"},
		ColumnWidths: map[string]map[string]int{"c1/Article": {"title": 240}},
	}
	dir := t.TempDir()
	if err := NewLayoutAPI(dir).SaveLayout(want); err != nil {
		t.Fatal(err)
	}
	got, err := NewLayoutAPI(dir).Layout()
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("read back %+v %v, want %+v", got, err, want)
	}
	bad := want
	bad.Tabs = append([]dto.LayoutTabDTO{{Kind: "bogus"}}, want.Tabs...)
	err = NewLayoutAPI(dir).SaveLayout(bad)
	wantCode(t, err, CodeInvalidArgument)
	if !strings.Contains(err.Error(), "unknown kind") {
		t.Fatalf("error %q", err)
	}
	if empty, err := NewLayoutAPI("").Layout(); err != nil || empty.Tabs == nil || empty.LastTable == nil || empty.ColumnWidths == nil {
		t.Fatalf("an empty layout %+v %v has null collections", empty, err)
	}
}
