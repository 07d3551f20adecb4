package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"
)

// opTimeout bounds one operation: an app that stops answering shows as timeouts, not as a
// soak that hangs.
const opTimeout = time.Minute

// Operation names, as the report prints them.
const (
	opToolsList  = "tools/list"
	opListTables = "list_tables"
	opBrowse     = "browse_table"
	// The two execute_query reads: each database names its own (database.reads).
	opQueryA       = "execute_query read A"
	opQueryB       = "execute_query read B"
	opApproveRows  = "insert_rows, approved"
	opApproveQuery = "execute_query POST, approved"
	opDecline      = "write, declined"
	opCancelCtx    = "cancel: request context"
	opCancelNotify = "cancel: notifications/cancelled"
	opDrop         = "dropped connection"
)

// mix is the share of each operation, out of its total.
var mix = []struct {
	op     string
	weight int
}{
	{opToolsList, 10}, {opListTables, 8}, {opBrowse, 12}, {opQueryA, 8}, {opQueryB, 8},
	{opApproveRows, 13}, {opApproveQuery, 13}, {opDecline, 12},
	{opCancelCtx, 6}, {opCancelNotify, 5}, {opDrop, 5},
}

// dbOps are the operations whose success means the database answered.
var dbOps = map[string]bool{opListTables: true, opBrowse: true, opQueryA: true, opQueryB: true, opApproveRows: true, opApproveQuery: true}

// worker is one client in a closed loop: an operation, a pause, the next.
type worker struct {
	idx    int
	db     *database
	c      *mcpClient
	rng    *rand.Rand
	t      *tally
	out    *outage
	runID  string
	think  time.Duration
	seq    int
	weight int // sum of mix
}

func newWorker(idx int, db *database, c *mcpClient, runID string, think time.Duration) *worker {
	w := &worker{idx: idx, db: db, c: c, rng: rand.New(rand.NewPCG(uint64(idx), uint64(time.Now().UnixNano()))), t: newTally(), out: db.out, runID: runID, think: think}
	for _, m := range mix {
		w.weight += m.weight
	}
	return w
}

// runLoad runs every worker until phase ends; an operation in flight then finishes (or
// fails) on its own, under root, so that the phase's end cancels nothing.
func runLoad(root, phase context.Context, workers []*worker) {
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.loop(root, phase)
		}()
	}
	wg.Wait()
}

func (w *worker) loop(root, phase context.Context) {
	for phase.Err() == nil {
		w.once(root)
		if w.think > 0 {
			// A random pause of up to twice the mean, so the clients do not march in step.
			t := time.NewTimer(time.Duration(w.rng.Int64N(int64(2 * w.think))))
			select {
			case <-phase.Done():
			case <-t.C:
			}
			t.Stop()
		}
	}
}

// once does one operation of the mix.
func (w *worker) once(root context.Context) {
	ctx, cancel := context.WithTimeout(root, opTimeout)
	defer cancel()
	op := w.pick()
	start := time.Now()
	var err error
	switch op {
	case opToolsList:
		_, err = w.plain(ctx, w.c.call(op, "tools/list", "", nil))
	case opListTables:
		err = w.read(ctx, op, "list_tables", map[string]any{"connection": w.db.connection})
	case opBrowse:
		err = w.read(ctx, op, "browse_table", map[string]any{"connection": w.db.connection, "table": w.db.table, "limit": 20, "offset": w.rng.IntN(100)})
	case opQueryA:
		err = w.read(ctx, op, "execute_query", map[string]any{"connection": w.db.connection, "query": w.db.reads[0].query})
	case opQueryB:
		err = w.read(ctx, op, "execute_query", map[string]any{"connection": w.db.connection, "query": w.db.reads[1].query})
	case opApproveRows, opApproveQuery:
		err = w.approvedWrite(ctx, op, nil)
	case opDecline:
		err = w.declinedWrite(ctx)
	case opCancelCtx:
		err = w.cancelByContext(ctx)
	case opCancelNotify:
		err = w.cancelByNotification(ctx)
	case opDrop:
		err = w.drop(ctx)
	}
	w.t.record(w.db.label(op), w.db.kind, start, err)
	switch {
	case err != nil:
		w.out.failed(time.Now())
	case dbOps[op]:
		w.out.reached(start, time.Now())
	}
}

func (w *worker) pick() string {
	n := w.rng.IntN(w.weight)
	for _, m := range mix {
		if n < m.weight {
			return m.op
		}
		n -= m.weight
	}
	return mix[0].op
}

// plain sends a request that is not a tool call and checks it got a result.
func (w *worker) plain(ctx context.Context, r request) (reply, error) {
	rep, err := w.c.do(ctx, r, nil)
	if err == nil && rep.err != nil {
		err = rep.err
	}
	return rep, err
}

// read calls a read tool, which must succeed.
func (w *worker) read(ctx context.Context, op, tool string, args map[string]any) error {
	tr, err := w.c.tool(ctx, w.c.call(op, "tools/call", tool, map[string]any{"name": tool, "arguments": args}), nil)
	if err != nil {
		return err
	}
	if tr.IsError {
		return &toolFailure{code: tr.toolError(), text: tr.text()}
	}
	return nil
}

// marker is the unique text an insert writes into body, naming the run, the client, the
// insert and what the client answered.
func (w *worker) marker(answer string) string {
	w.seq++
	return fmt.Sprintf("soak-%s-c%02d-%06d-%s", w.runID, w.idx, w.seq, answer)
}

// writeCall is the tools/call of an insert of marker through insert_rows or execute_query.
func (w *worker) writeCall(rows bool, marker string) (tool string, args map[string]any) {
	if rows {
		return "insert_rows", map[string]any{"connection": w.db.connection, "table": w.db.table,
			"rows": []any{map[string]any{"values": map[string]any{"body": marker}}}}
	}
	return "execute_query", map[string]any{"connection": w.db.connection, "query": w.db.insert(marker)}
}

// askApproval sends the first call of a write: the app must answer input_required with a
// requestState and the approve_statement form.
func (w *worker) askApproval(ctx context.Context, op, tool string, args map[string]any) (string, error) {
	tr, err := w.c.tool(ctx, w.c.call(op+": ask", "tools/call", tool, map[string]any{"name": tool, "arguments": args}), nil)
	if err != nil {
		return "", err
	}
	if tr.IsError {
		return "", &toolFailure{code: tr.toolError(), text: tr.text()}
	}
	if tr.ResultType != "input_required" || tr.RequestState == "" || tr.InputRequests["approve_statement"] == nil {
		return "", &toolFailure{code: "unexpected", text: "a write was answered without input_required: resultType " + tr.ResultType}
	}
	return tr.RequestState, nil
}

// followUp is the same call repeated with the form's answer.
func (w *worker) followUp(op, tool string, args map[string]any, state string, accept bool) request {
	answer := map[string]any{"action": "accept", "content": map[string]any{"approved": true}}
	if !accept {
		answer = map[string]any{"action": "decline"}
		if w.rng.IntN(2) == 0 { // the other way to say no: the form sent back unticked
			answer = map[string]any{"action": "accept", "content": map[string]any{"approved": false}}
		}
	}
	return w.c.call(op+": answer", "tools/call", tool, map[string]any{"name": tool, "arguments": args,
		"requestState": state, "inputResponses": map[string]any{"approve_statement": answer}})
}

// approvedWrite inserts a marker and approves it. send, when set, sends the follow-up in
// its own way (cancelled or dropped mid-flight); then the outcome is uncertain.
func (w *worker) approvedWrite(ctx context.Context, op string, send func(context.Context, request) error) error {
	marker := w.marker("approved")
	tool, args := w.writeCall(op == opApproveRows, marker)
	state, err := w.askApproval(ctx, op, tool, args)
	if err != nil {
		return err
	}
	r := w.followUp(op, tool, args, state, true)
	if send != nil {
		w.t.uncertain = append(w.t.uncertain, marker)
		return send(ctx, r)
	}
	tr, err := w.c.tool(ctx, r, nil)
	if err == nil {
		err = wrote(tool, tr)
	}
	if err != nil {
		w.t.uncertain = append(w.t.uncertain, marker)
		return err
	}
	w.t.approved = append(w.t.approved, marker)
	return nil
}

// wrote checks a write's result says the row was written: insert_rows counts it; Weaviate's
// REST line answers 2xx; a SQL INSERT's answer is its command tag.
func wrote(tool string, tr toolResult) error {
	if tr.IsError {
		return &toolFailure{code: tr.toolError(), text: tr.text()}
	}
	var s struct {
		OK     *int `json:"ok"`
		Status *int `json:"status"`
	}
	_ = json.Unmarshal(tr.Structured, &s)
	switch {
	case tool == "insert_rows" && (s.OK == nil || *s.OK != 1):
		return &toolFailure{code: "unexpected", text: "insert_rows did not report the row inserted: " + oneLine(string(tr.Structured), 200)}
	case tool == "execute_query" && s.Status == nil && !strings.Contains(tr.text(), "INSERT"):
		return &toolFailure{code: "unexpected", text: "execute_query INSERT did not say it inserted: " + oneLine(tr.text(), 200)}
	case tool == "execute_query" && s.Status != nil && *s.Status/100 != 2:
		return &toolFailure{code: "unexpected", text: "execute_query POST did not answer 2xx: " + oneLine(string(tr.Structured), 200)}
	}
	return nil
}

// declinedWrite inserts a marker and declines it: the app must answer the tool error denied
// and write nothing.
func (w *worker) declinedWrite(ctx context.Context) error {
	marker := w.marker("declined")
	tool, args := w.writeCall(w.rng.IntN(2) == 0, marker)
	w.t.declined = append(w.t.declined, marker)
	state, err := w.askApproval(ctx, opDecline, tool, args)
	if err != nil {
		return err
	}
	tr, err := w.c.tool(ctx, w.followUp(opDecline, tool, args, state, false), nil)
	switch {
	case err != nil:
		return err
	case !tr.IsError:
		w.t.declinedRan++
		return &toolFailure{code: "DECLINED-BUT-RAN", text: "a declined write was reported as run: " + oneLine(tr.text(), 200)}
	case tr.toolError() != "denied":
		return &toolFailure{code: tr.toolError(), text: tr.text()}
	}
	return nil
}

// slowRead is a read that takes a while (1,000 rows through GraphQL), so a cancel or a drop
// has something to interrupt.
func (w *worker) slowRead(op string) request {
	return w.c.call(op, "tools/call", "execute_query", map[string]any{"name": "execute_query", "arguments": map[string]any{
		"connection": w.db.connection, "query": w.db.slow}})
}

// cancelByContext cancels its request's context a moment after the request was written:
// the client's HTTP connection closes mid-flight. Half of them are the approval of a write.
func (w *worker) cancelByContext(ctx context.Context) error {
	send := func(ctx context.Context, r request) error {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		delay := time.Duration(w.rng.Int64N(int64(5 * time.Millisecond)))
		_, err := w.c.do(ctx, r, func() { time.AfterFunc(delay, cancel) })
		switch {
		case err == nil:
			w.t.outcome(opCancelCtx, "answered before the cancel")
		case errors.Is(err, context.Canceled):
			w.t.outcome(opCancelCtx, "cancelled mid-flight")
			err = nil
		}
		return err
	}
	if w.rng.IntN(2) == 0 {
		return w.approvedWrite(ctx, opCancelCtx, send)
	}
	return send(ctx, w.slowRead(opCancelCtx))
}

// cancelByNotification sends notifications/cancelled for its request once that was written.
func (w *worker) cancelByNotification(ctx context.Context) error {
	r := w.slowRead(opCancelNotify)
	written := make(chan struct{})
	var once sync.Once
	done := make(chan error, 1)
	go func() {
		rep, err := w.c.do(ctx, r, func() { once.Do(func() { close(written) }) })
		if err == nil && rep.err != nil {
			err = rep.err
		}
		done <- err
	}()
	select {
	case <-written:
	case err := <-done:
		return err // never written: nothing to cancel
	}
	nerr := w.c.cancelNotification(ctx, opCancelNotify, r.id)
	err := <-done
	var re *rpcError
	switch {
	case err == nil:
		w.t.outcome(opCancelNotify, "answered before the cancel")
	case errors.As(err, &re) && re.Code == -33002:
		w.t.outcome(opCancelNotify, "cancelled mid-flight (-33002)")
		err = nil
	}
	return errors.Join(err, nerr)
}

// drop closes the connection of its request mid-flight. Half of them are the approval of a
// write.
func (w *worker) drop(ctx context.Context) error {
	send := func(ctx context.Context, r request) error {
		answered, err := w.c.dropMidRequest(ctx, r, time.Duration(w.rng.Int64N(int64(3*time.Millisecond))))
		if !errors.Is(err, errDropped) {
			return err
		}
		if answered {
			w.t.outcome(opDrop, "dropped after the answer started")
		} else {
			w.t.outcome(opDrop, "dropped before an answer")
		}
		return nil
	}
	if w.rng.IntN(2) == 0 {
		return w.approvedWrite(ctx, opDrop, send)
	}
	return send(ctx, w.slowRead(opDrop))
}
