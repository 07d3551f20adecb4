package windowlayout

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"

	"app/backend/driver"
)

// logged is a logger and the text of what it logged.
type logged struct{ hook *test.Hook }

func testLayoutLog() (*logrus.Logger, logged) {
	l, hook := test.NewNullLogger()
	return l, logged{hook}
}

func (l logged) Len() int { return len(l.hook.AllEntries()) }

func (l logged) String() string {
	var out []string
	for _, e := range l.hook.AllEntries() {
		line, _ := e.String()
		out = append(out, line)
	}
	return strings.Join(out, "")
}

func goodLayout() Layout {
	return Layout{
		Tabs: []Tab{
			{Kind: "connection", ConnectionID: "c1"},
			{Kind: "table", ConnectionID: "c1", Table: "Article"},
			{Kind: "editor", ConnectionID: "c2"},
			{Kind: "settings"},
		},
		Active:       "table:c1:Article",
		LastTable:    map[string]string{"c1": "Article"},
		ColumnWidths: map[string]map[string]int{"c1/Article": {"title": 240, "uuid": 40, "vector": 2000}},
	}
}

// Issue 14, Everywhere: the layout (tabs, the active tab, the last table per connection and
// column widths) is remembered in layout.json in the config dir, 0600, and read back as saved.
func TestLayoutRoundTripsThroughLayoutJSONWithMode0600(t *testing.T) {
	dir := t.TempDir()
	log, _ := testLayoutLog()
	api := Open(dir, log)

	if got, err := api.Load(); err != nil || !reflect.DeepEqual(got, Empty()) {
		t.Fatalf("before any save: %+v %v, want the empty layout", got, err)
	}
	if err := api.Save(goodLayout()); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, "layout.json"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("layout.json has mode %v, want 0600", st.Mode().Perm())
	}
	// A new API (the next run of the app) reads what the last one saved.
	got, err := Open(dir, log).Load()
	if err != nil || !reflect.DeepEqual(got, goodLayout()) {
		t.Fatalf("read back %+v %v, want %+v", got, err, goodLayout())
	}
	tmp, _ := filepath.Glob(filepath.Join(dir, ".layout.json.*"))
	if len(tmp) != 0 {
		t.Fatalf("temp files left behind: %v", tmp)
	}
}

// Issue 14: a layout that breaks a rule is refused as invalid_argument and changes nothing.
func TestSaveLayoutRefusesALayoutThatBreaksARule(t *testing.T) {
	long := strings.Repeat("x", MaxText+1)
	manyTabs := make([]Tab, MaxTabs+1)
	for i := range manyTabs {
		manyTabs[i] = Tab{Kind: "table", ConnectionID: "c1", Table: fmt.Sprintf("T%d", i)}
	}
	manyWidths := map[string]map[string]int{}
	manyLast := map[string]string{}
	for i := 0; i <= MaxTables; i++ {
		manyWidths[fmt.Sprintf("c1/T%d", i)] = map[string]int{"a": 100}
		manyLast[fmt.Sprintf("c%d", i)] = "T"
	}
	manyCols := map[string]int{}
	for i := 0; i <= MaxColumns; i++ {
		manyCols[fmt.Sprintf("col%d", i)] = 100
	}
	for _, tc := range []struct {
		name   string
		change func(*Layout)
		want   string
	}{
		{"an unknown tab kind", func(l *Layout) { l.Tabs = append(l.Tabs, Tab{Kind: "new-connection"}) }, "unknown kind"},
		{"a connection tab without a connection", func(l *Layout) { l.Tabs = append(l.Tabs, Tab{Kind: "connection"}) }, "empty connection id"},
		{"a table tab without a table", func(l *Layout) { l.Tabs = append(l.Tabs, Tab{Kind: "table", ConnectionID: "c1"}) }, "empty table"},
		{"a settings tab naming a connection", func(l *Layout) { l.Tabs = append(l.Tabs, Tab{Kind: "settings", ConnectionID: "c1"}) }, "names no connection"},
		{"an editor tab naming a table", func(l *Layout) { l.Tabs = append(l.Tabs, Tab{Kind: "editor", ConnectionID: "c1", Table: "A"}) }, "names no table"},
		{"the same tab twice", func(l *Layout) { l.Tabs = append(l.Tabs, l.Tabs[0]) }, "the same tab twice"},
		{"more than 100 tabs", func(l *Layout) { l.Tabs = manyTabs }, "more than 100 tabs"},
		{"a width under 40 px", func(l *Layout) { l.ColumnWidths["c1/Article"]["title"] = 39 }, "outside 40..2000"},
		{"a width over 2000 px", func(l *Layout) { l.ColumnWidths["c1/Article"]["title"] = 2001 }, "outside 40..2000"},
		{"a negative width", func(l *Layout) { l.ColumnWidths["c1/Article"]["title"] = -5 }, "outside 40..2000"},
		{"a width key without a slash", func(l *Layout) { l.ColumnWidths["c1Article"] = map[string]int{"a": 100} }, "not connectionId/table"},
		{"a width key without a table", func(l *Layout) { l.ColumnWidths["c1/"] = map[string]int{"a": 100} }, "empty table"},
		{"an empty column name", func(l *Layout) { l.ColumnWidths["c1/Article"][""] = 100 }, "empty column"},
		{"widths of more than 200 tables", func(l *Layout) { l.ColumnWidths = manyWidths }, "more than 200 tables"},
		{"widths of more than 500 columns of one table", func(l *Layout) { l.ColumnWidths["c1/Article"] = manyCols }, "more than 500 columns"},
		{"last tables of more than 200 connections", func(l *Layout) { l.LastTable = manyLast }, "more than 200 connections"},
		{"an empty last table", func(l *Layout) { l.LastTable["c2"] = "" }, "empty table"},
		{"a table name over 512 characters", func(l *Layout) { l.LastTable["c2"] = long }, "longer than 512"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			api := Open(dir, nil)
			if err := api.Save(goodLayout()); err != nil {
				t.Fatal(err)
			}
			bad := goodLayout()
			tc.change(&bad)
			err := api.Save(bad)
			if !driver.IsKind(err, driver.KindInvalidArgument) {
				t.Fatalf("error %v is not invalid_argument", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not say %q", err, tc.want)
			}
			got, _ := api.Load()
			if !reflect.DeepEqual(got, goodLayout()) {
				t.Fatalf("a refused save changed the layout to %+v", got)
			}
		})
	}
}

// Issue 14: a stored layout that cannot be used never stops the window: a file that is not
// JSON is logged and read as the empty layout; entries that break a rule are logged and
// dropped, the rest is kept.
func TestLayoutReadsAnUnusableFileAsEmptyAndLogsWhy(t *testing.T) {
	for _, tc := range []struct {
		name     string
		file     string
		want     Layout
		wantLogs string
	}{
		{"a file that is not JSON is the empty layout", "{not json", Empty(), "not a layout document"},
		{"a truncated file is the empty layout", `{"tabs":[{"kind":"connection","connectionId":"c1"}`, Empty(), "not a layout document"},
		{"a file of the wrong shape is the empty layout", `{"tabs":"all of them"}`, Empty(), "not a layout document"},
		{"an empty file is the empty layout", "", Empty(), "not a layout document"},
		{"a file larger than 16 MB is not read, and is the empty layout", `{"tabs":[]}` + strings.Repeat(" ", 16<<20), Empty(), "larger than 16 MB"},
		{"a file breaking many rules names the first 20 and counts the rest", `{"tabs":[` + strings.TrimSuffix(strings.Repeat(`{"kind":"bogus"},`, 30), ",") + `]}`, Empty(), "and 10 more"},
		{"null collections read as empty ones", `{"tabs":null,"lastTable":null,"columnWidths":null}`, Empty(), ""},
		{
			"a bad tab and a bad width are dropped, the rest is kept",
			`{"tabs":[{"kind":"bogus"},{"kind":"table","connectionId":"c1","table":"Article"}],"active":"table:c1:Article",` +
				`"lastTable":{"c1":"Article","c2":""},"columnWidths":{"c1/Article":{"title":5,"body":300}}}`,
			Layout{
				Tabs:         []Tab{{Kind: "table", ConnectionID: "c1", Table: "Article"}},
				Active:       "table:c1:Article",
				LastTable:    map[string]string{"c1": "Article"},
				ColumnWidths: map[string]map[string]int{"c1/Article": {"body": 300}},
			},
			"breaks a rule",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "layout.json"), []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			log, buf := testLayoutLog()
			api := Open(dir, log)
			got, err := api.Load()
			if err != nil {
				t.Fatalf("Layout() = %v, want no error", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			if tc.wantLogs == "" {
				if buf.Len() != 0 {
					t.Fatalf("logged %q for a usable file", buf.String())
				}
			} else if !strings.Contains(buf.String(), tc.wantLogs) || !strings.Contains(buf.String(), "layout.json") {
				t.Fatalf("log %q does not name the file and say %q", buf.String(), tc.wantLogs)
			}
			// The next save replaces the unusable file.
			if err := api.Save(goodLayout()); err != nil {
				t.Fatal(err)
			}
			if got, _ := api.Load(); !reflect.DeepEqual(got, goodLayout()) {
				t.Fatalf("after a save: %+v", got)
			}
		})
	}
}

// Issue 14: a layout file that cannot be read at all (here: a directory in its place) is the
// empty layout too, and saving then reports the error instead of crashing.
func TestLayoutUnreadableFileIsEmptyAndSaveReportsTheError(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "layout.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	log, buf := testLayoutLog()
	api := Open(dir, log)
	got, err := api.Load()
	if err != nil || !reflect.DeepEqual(got, Empty()) {
		t.Fatalf("got %+v %v, want the empty layout", got, err)
	}
	if !strings.Contains(buf.String(), "could not be read") {
		t.Fatalf("log %q", buf.String())
	}
	if err := api.Save(goodLayout()); err == nil || driver.IsKind(err, driver.KindInvalidArgument) {
		t.Fatalf("saving over a directory: %v, want the write's error", err)
	}
}

// A store without a config dir keeps the layout in memory, and hands out copies.
func TestLayoutWithoutADirKeepsTheLayoutInMemory(t *testing.T) {
	api := Open("", nil)
	if got, err := api.Load(); err != nil || !reflect.DeepEqual(got, Empty()) {
		t.Fatalf("%+v %v", got, err)
	}
	if err := api.Save(goodLayout()); err != nil {
		t.Fatal(err)
	}
	got, _ := api.Load()
	got.LastTable["c9"] = "X" // a copy: the caller cannot change what is stored
	if again, _ := api.Load(); !reflect.DeepEqual(again, goodLayout()) {
		t.Fatalf("%+v", again)
	}
}
