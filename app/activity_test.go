package app

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/app/dto"
	"app/app/nativedialog"
	"app/backend/activity"
)

// Issue 11, Settings, Activity log: filtered pages for the table, CSV export to the file the
// save dialog names, and the chain check, over a real SQLite activity log.
func TestActivityAPI(t *testing.T) {
	l, err := activity.Open(filepath.Join(t.TempDir(), "activity.db"), activity.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close(context.Background()) })
	now := time.Now().UTC()
	for i := 0; i < 30; i++ {
		e := activity.Entry{Time: now.Add(time.Duration(i-30) * time.Minute), ClientName: "Cursor", Principal: "token:t1", TokenName: "cursor",
			Level: "readOnly", Method: "tools/call", Name: "list_connections", Outcome: activity.OutcomeOK, DurationMS: 3}
		if i%10 == 0 {
			e.ClientName, e.Outcome, e.Principal, e.TokenName = "curl", "-33009", "", ""
		}
		l.Append(e)
	}
	api := NewActivityAPI(func() *activity.Log { return l })

	t.Run("a page is newest first with the total the filter chooses", func(t *testing.T) {
		page, err := api.List(dto.ActivityQueryDTO{Limit: 10})
		if err != nil || page.Total != 30 || len(page.Entries) != 10 {
			t.Fatalf("%d entries of %d, %v", len(page.Entries), page.Total, err)
		}
		if page.Entries[0].ID < page.Entries[9].ID {
			t.Fatalf("not newest first: %d ... %d", page.Entries[0].ID, page.Entries[9].ID)
		}
		next, err := api.List(dto.ActivityQueryDTO{Offset: 10, Limit: 10})
		if err != nil || next.Offset != 10 || next.Entries[0].ID != page.Entries[9].ID-1 {
			t.Fatalf("the next page does not follow: %+v %v", next.Entries[0], err)
		}
	})
	for _, c := range []struct {
		name string
		q    dto.ActivityQueryDTO
		want int
	}{
		{"client", dto.ActivityQueryDTO{Client: "curl"}, 3},
		{"token", dto.ActivityQueryDTO{Token: "cursor"}, 27},
		{"outcome error", dto.ActivityQueryDTO{Outcome: "error"}, 3},
		{"time range (the last 15 and a half minutes)", dto.ActivityQueryDTO{Since: "15m30s"}, 15},
		{"search", dto.ActivityQueryDTO{Search: "LIST_conn"}, 30},
	} {
		t.Run("filter by "+c.name, func(t *testing.T) {
			page, err := api.List(c.q)
			if err != nil || page.Total != c.want || len(page.Entries) != c.want {
				t.Fatalf("%d entries of %d, want %d: %v", len(page.Entries), page.Total, c.want, err)
			}
		})
	}
	t.Run("a time that is no time or duration is invalid_argument", func(t *testing.T) {
		_, err := api.List(dto.ActivityQueryDTO{Since: "yesterday"})
		wantCode(t, err, CodeInvalidArgument)
	})
	t.Run("export writes the chosen entries, oldest first, to the file the save dialog names", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "out.csv")
		var asked string
		api.start(env{files: nativedialog.FileDialogs{Save: func(_ context.Context, title, name string, _ []nativedialog.FileFilter) (string, error) {
			asked = title + " / " + name
			return path, nil
		}}})
		got, err := api.Export(dto.ActivityQueryDTO{Client: "curl"})
		if err != nil || got != path || !strings.HasPrefix(asked, "Export the activity log / app-activity-") {
			t.Fatalf("%q %v (asked %q)", got, err, asked)
		}
		f, _ := os.Open(path)
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil || len(rows) != 4 || strings.Join(rows[0], ",") != strings.Join(activity.CSVHeader, ",") || rows[1][2] != "curl" {
			t.Fatalf("%v %v", rows, err)
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
			t.Fatalf("mode %v", st.Mode().Perm())
		}
	})
	t.Run("a cancelled save dialog exports nothing", func(t *testing.T) {
		api.start(env{files: nativedialog.FileDialogs{Save: func(context.Context, string, string, []nativedialog.FileFilter) (string, error) { return "", nil }}})
		if got, err := api.Export(dto.ActivityQueryDTO{}); got != "" || err != nil {
			t.Fatalf("%q %v", got, err)
		}
	})
	t.Run("the chain check reports an intact chain with its count", func(t *testing.T) {
		v, err := api.Verify()
		if err != nil || !v.Intact || v.Entries != 30 || v.BrokenID != 0 {
			t.Fatalf("%+v %v", v, err)
		}
	})
}
