package app

// Issue 25, "Faults and load": the Weaviate driver's plugin process killed with SIGKILL while
// the window browses and while it commits. The plugin is the real cmd/weaviate-driver program
// run by the real plugin host, against a real weaviate-server; a loopback proxy in front of
// the node holds the request of the moment chosen for the kill, so the call is surely in
// flight inside the plugin when it dies (a real page or row is answered in milliseconds, too
// fast to aim a kill at).

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"app/app/dto"
	"app/backend/explore"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// promptly bounds how long a call interrupted by a fault may take to return: well under the
// window's call limit (30 s), so a call that hangs until that limit fails the test.
const promptly = 10 * time.Second

// seedRows writes rows from..from+n-1 of class (title "seed <i>", n = i) through the node's
// batch endpoint.
func seedRows(t *testing.T, node *weaviatenode.Node, class string, from, n int) {
	t.Helper()
	if n == 0 {
		return
	}
	objs := make([]any, 0, n)
	for i := from; i < from+n; i++ {
		objs = append(objs, map[string]any{"class": class, "id": rowUUID(i), "properties": map[string]any{"title": fmt.Sprintf("seed %d", i), "n": i}})
	}
	var res []struct {
		Result struct {
			Errors any `json:"errors"`
		} `json:"result"`
	}
	if err := node.DoJSON(context.Background(), http.MethodPost, "/v1/batch/objects", map[string]any{"objects": objs}, &res); err != nil {
		t.Fatalf("seed %s: %v", class, err)
	}
	for i, r := range res {
		if r.Result.Errors != nil {
			t.Fatalf("seed %s row %d: %v", class, i, r.Result.Errors)
		}
	}
}

// commitCall is a Commit running in the background.
type commitCall struct {
	done chan struct{}
	res  dto.CommitResultDTO
	err  error
}

func startCommit(r *pluginRig, table string, req dto.CommitRequestDTO) *commitCall {
	c := &commitCall{done: make(chan struct{})}
	go func() {
		defer close(c.done)
		c.res, c.err = r.api.Commit(r.id, table, req)
	}()
	return c
}

// waitForRows waits until the node holds n rows of table written by the running commit, and
// fails the test when the commit has already ended then: what is to be killed (victim) must
// meet it in its middle.
func (c *commitCall) waitForRows(t *testing.T, node *weaviatenode.Node, table string, n int, victim string) {
	t.Helper()
	faultEventually(t, faultWithin, fmt.Sprintf("the node to hold %d added rows", n), func() bool {
		got, err := node.Count(context.Background(), table, "")
		return err == nil && got >= n
	})
	select {
	case <-c.done:
		t.Fatalf("the commit ended before %s could be killed in its middle", victim)
	default:
	}
}

// wait waits for the commit, failing the test if it does not return promptly.
func (c *commitCall) wait(t *testing.T) (dto.CommitResultDTO, error) {
	t.Helper()
	select {
	case <-c.done:
		return c.res, c.err
	case <-time.After(promptly):
		t.Fatalf("the commit did not return within %s of the kill", promptly)
		return dto.CommitResultDTO{}, nil
	}
}

// nextBrowseWorks browses table through the rig and checks a new plugin process, not the
// killed one, served it.
func nextBrowseWorks(t *testing.T, r *pluginRig, table string, killed int) dto.GridDTO {
	t.Helper()
	g, err := r.api.Browse(r.id, table, dto.BrowseRequestDTO{Limit: 1000})
	if err != nil {
		t.Fatalf("the browse after the kill: %v", err)
	}
	if pid := r.pluginPID(t); pid == killed {
		t.Fatalf("the killed plugin %d still serves", pid)
	}
	return g
}

func TestAKilledDriverPluginDuringABrowse(t *testing.T) {
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	const table = "FaultBrowse"
	createFaultTable(t, node, table)
	seedRows(t, node, table, 0, 3)
	bin := buildDriverPlugin(t)
	baseline := goroutineBaseline()
	proxy := newFaultProxy(t, node)
	rig := newPluginRig(t, proxy.settings(), faultRigOptions{bin: bin})

	arrived, gone := make(chan struct{}), make(chan struct{})
	var once sync.Once
	proxy.setRule(func(r *http.Request) fault {
		if r.Method != http.MethodGet || r.URL.Path != "/v1/objects" {
			return fault{}
		}
		held := false
		once.Do(func() { held = true; close(arrived) })
		return fault{hold: held, callerGone: func() { close(gone) }}
	})
	type browsed struct {
		g   dto.GridDTO
		err error
	}
	done := make(chan browsed, 1)
	go func() {
		g, err := rig.api.Browse(rig.id, table, dto.BrowseRequestDTO{Limit: 100})
		done <- browsed{g, err}
	}()
	faultSignal(t, arrived, "the browse's page request to reach the node's proxy")
	killed := rig.killPlugin(t)

	t.Run("the browse in flight ends with Connection failed: driver stopped, not a hang", func(t *testing.T) {
		select {
		case b := <-done:
			wantCode(t, b.err, "connection")
			if !strings.Contains(b.err.Error(), "Connection failed: driver stopped") {
				t.Fatalf("the interrupted browse says %q; want it to say the driver stopped", b.err)
			}
		case <-time.After(promptly):
			t.Fatalf("the browse did not return within %s of the kill", promptly)
		}
	})
	t.Run("the killed process is gone and its request to the node ended", func(t *testing.T) {
		rig.waitPluginGone(t, killed)
		faultSignal(t, gone, "the held page request's caller to go away")
	})
	t.Run("the next browse works, served by a new plugin process, the connection held by the window as before", func(t *testing.T) {
		if g := nextBrowseWorks(t, rig, table, killed); len(g.Rows) != 3 {
			t.Fatalf("the next browse read %d rows; want the 3 of the table", len(g.Rows))
		}
		if !rig.m.HeldByWindow(rig.id) {
			t.Fatal("the window no longer holds the connection")
		}
	})
	t.Run("killed again: an AI client's next statement (Manager.Open, as the MCP tools open) is served by a new process", func(t *testing.T) {
		again := rig.killPlugin(t)
		rig.waitPluginGone(t, again)
		ctx, cancel := context.WithTimeout(context.Background(), promptly)
		defer cancel()
		d, _, err := rig.m.OpenHeld(ctx, rig.id, "token:ai")
		if err != nil {
			t.Fatalf("Open after the kill: %v", err)
		}
		if n, err := d.Count(ctx, table, nil); err != nil || n != 3 {
			t.Fatalf("Count after the kill: %d, %v", n, err)
		}
		if pid := rig.pluginPID(t); pid == again || pid == killed {
			t.Fatalf("a killed plugin %d still serves", pid)
		}
	})
	t.Run("once the app closes, no plugin process and none of its goroutines keep running", func(t *testing.T) {
		pid := rig.pluginPID(t)
		rig.close()
		faultEventually(t, promptly, "the new plugin process to end with the app", func() bool { return !processAlive(pid) })
		noGoroutinesLeft(t, baseline)
	})
}

// commitFault is one way a plugin dies during a commit.
type commitFault struct {
	name string
	// updates, inserts and deletes are how many rows of each the commit carries (rows
	// 0..updates-1 and the deleted ones exist before it; inserted ones do not).
	updates, inserts, deletes int
	// holdAt, when > 0, holds the holdAt-th request of the step matched by holdStep at the
	// proxy and kills the plugin while it waits; 0 kills the plugin once the server holds
	// killAfter inserted rows, while the rows stream to the node.
	holdAt     int
	holdStep   func(r *http.Request) bool
	holdAction explore.Action
	killAfter  int
}

func TestAKilledDriverPluginDuringACommit(t *testing.T) {
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	bin := buildDriverPlugin(t)
	cases := []commitFault{
		{name: "killed while an edited row's PATCH is in flight", updates: 40, holdAt: 15, holdStep: isPatch, holdAction: explore.ActionUpdate},
		{name: "killed while an added row's POST is in flight", inserts: 40, holdAt: 15, holdStep: isInsert, holdAction: explore.ActionInsert},
		{name: "killed in the inserts of a commit that also edits and deletes", updates: 10, inserts: 40, deletes: 10, holdAt: 15, holdStep: isInsert, holdAction: explore.ActionInsert},
		{name: "killed while 2,000 added rows stream to the node", inserts: 2000, killAfter: 20},
	}
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			table := fmt.Sprintf("FaultCommit%d", ci)
			createFaultTable(t, node, table)
			// Rows 0..updates-1 are edited, the next `inserts` added, the next `deletes` deleted.
			insertFrom, deleteFrom := c.updates, c.updates+c.inserts
			seedRows(t, node, table, 0, c.updates)
			seedRows(t, node, table, deleteFrom, c.deletes)
			var req dto.CommitRequestDTO
			for i := 0; i < c.updates; i++ {
				req.Updates = append(req.Updates, dto.RowChangeDTO{Ref: fmt.Sprintf("u%d", i), Key: uuidKey(rowUUID(i)), Values: map[string]any{"title": "edited"}})
			}
			for i := insertFrom; i < deleteFrom; i++ {
				req.Inserts = append(req.Inserts, dto.RowChangeDTO{Ref: fmt.Sprintf("i%d", i), Values: map[string]any{"uuid": rowUUID(i), "title": "added", "n": fmt.Sprint(i)}})
			}
			for i := deleteFrom; i < deleteFrom+c.deletes; i++ {
				req.Deletes = append(req.Deletes, dto.RowChangeDTO{Ref: fmt.Sprintf("d%d", i), Key: uuidKey(rowUUID(i))})
			}

			baseline := goroutineBaseline()
			proxy := newFaultProxy(t, node)
			rig := newPluginRig(t, proxy.settings(), faultRigOptions{bin: bin})
			held, gone := make(chan struct{}), make(chan struct{})
			if c.holdAt > 0 {
				var seen atomic.Int32
				proxy.setRule(func(r *http.Request) fault {
					if !c.holdStep(r) || int(seen.Add(1)) != c.holdAt {
						return fault{}
					}
					close(held)
					return fault{hold: true, callerGone: func() { close(gone) }}
				})
			}
			call := startCommit(rig, table, req)
			if c.holdAt > 0 {
				faultSignal(t, held, "the chosen row's request to reach the node's proxy")
			} else {
				call.waitForRows(t, node, table, c.killAfter, "the plugin")
			}
			killed := rig.killPlugin(t)
			res, err := call.wait(t)

			t.Run("the commit returns an outcome for every row, the interrupted ones saying the driver stopped", func(t *testing.T) {
				if err != nil || res.Declined {
					t.Fatalf("Commit = %+v, %v; want the rows' outcomes", res, err)
				}
				if n := len(req.Updates) + len(req.Inserts) + len(req.Deletes); len(res.Outcomes) != n {
					t.Fatalf("%d outcomes for %d rows", len(res.Outcomes), n)
				}
				for _, o := range res.Outcomes {
					if o.Status != "ok" && (o.Code != "connection" || !strings.HasPrefix(o.Message, "Connection failed: driver stopped")) {
						t.Errorf("row %s: %s %s: %s; want it ok or Connection failed: driver stopped", o.Ref, o.Status, o.Code, o.Message)
					}
				}
			})
			t.Run("each outcome matches what the server holds, or says it is unknown", func(t *testing.T) {
				rows := serverRows(t, node, table)
				written := func(o dto.RowOutcomeDTO) bool {
					title, there := rows[typedUUID(req, o)]
					switch o.Action {
					case explore.ActionUpdate:
						return title == "edited"
					case explore.ActionInsert:
						return there
					}
					return !there // a delete is written when the row is gone
				}
				ok, failed, unknown := checkHonest(t, res.Outcomes, written)
				t.Logf("outcomes: %d ok, %d failed, %d unknown; the server holds %d rows", ok, failed, unknown, len(rows))
				if c.holdAt == 0 {
					return
				}
				// The kill landed mid-step: the rows of the step before the held one were
				// written, the held one never reached the node.
				j := 0
				for _, o := range res.Outcomes {
					if o.Action != c.holdAction {
						continue
					}
					j++
					switch {
					case j < c.holdAt && !written(o):
						t.Errorf("row %s, before the held one, is not on the server", o.Ref)
					case j == c.holdAt && written(o):
						t.Errorf("the held row %s is on the server", o.Ref)
					}
				}
			})
			if c.holdAt > 0 {
				t.Run("the held request's caller went away with the plugin", func(t *testing.T) {
					faultSignal(t, gone, "the held request's caller to go away")
				})
			}
			t.Run("the killed process is gone and the next browse works, served by a new plugin process", func(t *testing.T) {
				rig.waitPluginGone(t, killed)
				nextBrowseWorks(t, rig, table, killed)
			})
			t.Run("once the app closes, no plugin process and none of its goroutines keep running", func(t *testing.T) {
				pid := rig.pluginPID(t)
				rig.close()
				faultEventually(t, promptly, "the new plugin process to end with the app", func() bool { return !processAlive(pid) })
				noGoroutinesLeft(t, baseline)
			})
		})
	}
}
