package app

// Issue 25, "Faults and load": the weaviate-server process killed with SIGKILL while the
// window commits a batch of added rows through the driver plugin. The node's loopback proxy
// chooses the moment and dies with the node (its address refuses connections as the node's
// would), so that the kill can land (a) while a row's request has not reached the node yet,
// (b) after the node wrote a row but before its answer left, which is the moment a kill
// makes the driver unable to know, and (c) anywhere while rows stream to the node. The node
// is then started again on the same port and data, and every outcome is held to what it
// holds, read back through Weaviate's REST API.

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"app/app/dto"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

func TestAKilledWeaviateServerDuringACommit(t *testing.T) {
	bin := buildDriverPlugin(t)
	other := weaviatetest.Start(t, weaviatenode.Anonymous)
	createFaultTable(t, other, "Elsewhere")
	seedRows(t, other, "Elsewhere", 0, 2)
	otherSettings := nodeSettings(other)

	cases := []struct {
		name    string
		inserts int
		// at is the added row (1-based) whose request the kill meets; 0: the kill lands once
		// the node holds killAfter rows.
		at int
		// written: the node wrote row `at` and dies before its answer leaves; otherwise the
		// row's request waits at the node's door when it dies.
		written   bool
		killAfter int
	}{
		{name: "killed while a row's request waits at its door", inserts: 60, at: 15},
		{name: "killed after it wrote a row, before its answer left", inserts: 60, at: 15, written: true},
		{name: "killed while 2,000 added rows stream to it", inserts: 2000, killAfter: 20},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			const table = "FaultServer"
			parent := t
			opts := weaviatetest.Options(weaviatenode.Anonymous)
			opts.DataDir = t.TempDir()
			node := weaviatetest.StartWith(t, opts)
			createFaultTable(t, node, table)
			baseline := goroutineBaseline()
			proxy := newFaultProxy(t, node)
			rig := newPluginRig(t, proxy.settings(), faultRigOptions{bin: bin, health: 400 * time.Millisecond, other: &otherSettings})

			var died atomic.Bool
			dead := make(chan struct{})
			kill := func() {
				if died.Swap(true) {
					return
				}
				_ = syscall.Kill(-node.PID, syscall.SIGKILL) // its process group, as Stop signals it
				<-node.Exited()
				proxy.down()
				close(dead)
			}
			reached := make(chan struct{})
			var answeredStatus atomic.Int32
			if c.at > 0 {
				var seen atomic.Int32
				proxy.setRule(func(r *http.Request) fault {
					if !isInsert(r) || int(seen.Add(1)) != c.at {
						return fault{}
					}
					close(reached)
					if c.written {
						return fault{answered: func(status int) bool {
							answeredStatus.Store(int32(status))
							kill()
							return true
						}}
					}
					return fault{hold: true}
				})
			}
			var req dto.CommitRequestDTO
			for i := 0; i < c.inserts; i++ {
				req.Inserts = append(req.Inserts, dto.RowChangeDTO{Ref: fmt.Sprintf("i%d", i), Values: map[string]any{"uuid": rowUUID(i), "title": "added", "n": fmt.Sprint(i)}})
			}
			call := startCommit(rig, table, req)
			if c.at > 0 {
				faultSignal(t, reached, "the chosen row's request to reach the node's door")
			} else {
				call.waitForRows(t, node, table, c.killAfter, "the node")
			}
			if c.written {
				faultSignal(t, dead, "the node to die once it answered the chosen row") // the proxy kills it
			} else {
				kill()
			}
			res, err := call.wait(t)

			t.Run("the commit returns an outcome for every row; the rows it could not write say Connection failed", func(t *testing.T) {
				if err != nil || res.Declined || len(res.Outcomes) != c.inserts {
					t.Fatalf("Commit = %d outcomes, declined %v, %v; want %d outcomes", len(res.Outcomes), res.Declined, err, c.inserts)
				}
				failed := 0
				for _, o := range res.Outcomes {
					if o.Status == "ok" {
						continue
					}
					failed++
					if o.Code != "connection" || !strings.HasPrefix(o.Message, "Connection failed: ") {
						t.Errorf("row %s: %s %s: %s; want it ok or Connection failed", o.Ref, o.Status, o.Code, o.Message)
					}
				}
				if failed == 0 {
					t.Fatal("every row is reported written although the node died in the middle")
				}
			})
			t.Run("the health check drops the connection, and the app serves the other one meanwhile", func(t *testing.T) {
				select {
				case reason := <-rig.drops:
					if !strings.HasPrefix(reason.Error(), "Connection failed: ") {
						t.Fatalf("drop reason %v", reason)
					}
				case <-time.After(faultWithin):
					t.Fatal("the connection to the dead node was not dropped")
				}
				if g, err := rig.api.Browse(rig.otherID, "Elsewhere", dto.BrowseRequestDTO{}); err != nil || len(g.Rows) != 2 {
					t.Fatalf("the other connection: %d rows, %v", len(g.Rows), err)
				}
				start := time.Now()
				_, err := rig.api.ListTables(rig.id)
				wantCode(t, err, CodeUnavailable)
				if d := time.Since(start); d > promptly {
					t.Fatalf("the dropped connection took %s to answer", d)
				}
			})
			t.Run("a node started again on the same port and data restores the connection, which browses", func(t *testing.T) {
				opts.Port = node.Port
				node = weaviatetest.StartWith(parent, opts) // the case's, not this step's: it outlives the step

				proxy.up(t)
				select {
				case <-rig.restores:
				case <-time.After(faultWithin):
					t.Fatal("the connection was not restored once its node answered again")
				}
				if _, err := rig.api.Browse(rig.id, table, dto.BrowseRequestDTO{Limit: 10}); err != nil {
					t.Fatalf("browse after the restore: %v", err)
				}
			})
			t.Run("each outcome matches what the node holds, or says it is unknown", func(t *testing.T) {
				rows := serverRows(t, node, table)
				written := func(o dto.RowOutcomeDTO) bool { _, there := rows[typedUUID(req, o)]; return there }
				ok, failed, unknown := checkHonest(t, res.Outcomes, written)
				t.Logf("outcomes: %d ok, %d failed, %d unknown; the node holds %d rows", ok, failed, unknown, len(rows))
				if c.at == 0 {
					return
				}
				if _, there := rows[rowUUID(c.at-1)]; there != c.written {
					t.Fatalf("row %d on the node: %v; the test meant %v (the node answered %d)", c.at, there, c.written, answeredStatus.Load())
				}
			})
			t.Run("once the app closes, no plugin process and none of its goroutines keep running", func(t *testing.T) {
				pid := rig.pluginPID(t)
				rig.close()
				faultEventually(t, promptly, "the plugin process to end with the app", func() bool { return !processAlive(pid) })
				noGoroutinesLeft(t, baseline)
			})
		})
	}
}
