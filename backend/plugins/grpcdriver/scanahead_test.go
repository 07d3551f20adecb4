package grpcdriver

import (
	"context"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/driver"
)

// walkingDriver walks the keys "", "a", "b" (then the end), reporting each Scan it is asked
// for; a Scan of hold (when set) waits until its context ends and reports that.
type walkingDriver struct {
	erroringDriver
	asked     chan string
	hold      string
	cancelled chan string
}

func (d walkingDriver) Scan(ctx context.Context, _ string, r driver.ScanRequest) (*driver.ScanPage, error) {
	d.asked <- r.After
	if d.hold != "" && r.After == d.hold {
		<-ctx.Done()
		d.cancelled <- r.After
		return nil, ctx.Err()
	}
	next := map[string]string{"": "a", "a": "b", "b": ""}[r.After]
	return &driver.ScanPage{Columns: []driver.Column{{Name: "uuid", PrimaryKey: true, Type: "uuid"}}, Rows: [][]any{{"after " + r.After}}, Next: next, Walked: 1}, nil
}

func walkConn(t *testing.T, d walkingDriver) *Conn {
	t.Helper()
	c := serveLoopback(t, Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) { return d, nil }})
	k, err := c.Open(context.Background(), driver.DefaultSettings(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { k.Close() })
	return k
}

func nextAsk(t *testing.T, asked <-chan string) string {
	t.Helper()
	select {
	case a := <-asked:
		return a
	case <-time.After(10 * time.Second):
		t.Fatal("the driver was asked for no page")
		return ""
	}
}

// Issue 21's export bench: the plugin reads a walk's next page while the app takes in the one
// it just got, and answers the app's request for it from that read.
func TestAWalkReadsItsNextPageAhead(t *testing.T) {
	t.Run("each page is read once, the next one before the app asks", func(t *testing.T) {
		d := walkingDriver{asked: make(chan string, 10)}
		k := walkConn(t, d)
		after := ""
		for step := 0; ; step++ {
			if step > 0 {
				// Read ahead: the driver was asked for this page before the app asked.
				if got := nextAsk(t, d.asked); got != after {
					t.Fatalf("step %d: the driver was asked for the page after %q, want %q", step, got, after)
				}
			}
			p, err := k.Scan(context.Background(), "T", driver.ScanRequest{After: after, Vectors: true})
			if err != nil {
				t.Fatal(err)
			}
			if step == 0 && nextAsk(t, d.asked) != "" {
				t.Fatal("the first page was not read in the request")
			}
			if len(p.Rows) != 1 || p.Rows[0][0] != "after "+after {
				t.Fatalf("step %d: rows %v", step, p.Rows)
			}
			if p.Next == "" {
				break
			}
			after = p.Next
		}
		select {
		case a := <-d.asked:
			t.Fatalf("the driver was asked again, for the page after %q", a)
		default:
		}
	})
	t.Run("a read-ahead of a connection that closes is cancelled", func(t *testing.T) {
		d := walkingDriver{asked: make(chan string, 10), hold: "a", cancelled: make(chan string, 1)}
		k := walkConn(t, d)
		if _, err := k.Scan(context.Background(), "T", driver.ScanRequest{}); err != nil {
			t.Fatal(err)
		}
		nextAsk(t, d.asked)
		if got := nextAsk(t, d.asked); got != "a" {
			t.Fatalf("read ahead after %q", got)
		}
		k.Close()
		select {
		case <-d.cancelled:
		case <-time.After(10 * time.Second):
			t.Fatal("the read-ahead went on after its connection closed")
		}
	})
	t.Run("a request that does not follow the walk is read in the request", func(t *testing.T) {
		d := walkingDriver{asked: make(chan string, 10)}
		k := walkConn(t, d)
		if _, err := k.Scan(context.Background(), "T", driver.ScanRequest{}); err != nil {
			t.Fatal(err)
		}
		nextAsk(t, d.asked)
		nextAsk(t, d.asked) // the read-ahead of "a"
		// The same step with other filters is another walk: its own read, not the read-ahead's page.
		p, err := k.Scan(context.Background(), "T", driver.ScanRequest{After: "a", Filters: []driver.Filter{{Column: "n", Operator: driver.OpEquals, Value: "1"}}})
		if err != nil || p.Rows[0][0] != "after a" {
			t.Fatalf("%v %v", p, err)
		}
		if got := nextAsk(t, d.asked); got != "a" {
			t.Fatalf("the driver was asked for %q, want its own read of the page after a", got)
		}
	})
}
