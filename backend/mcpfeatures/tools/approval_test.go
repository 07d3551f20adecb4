package tools

// The write-approval rows of SPEC.md B "States and transitions", each a test against a real
// MCP server whose tools reach a real weaviate-server through the real driver, with real
// tokens (auth.Service) and the real approval.Gate. The one stand-in is the person at the
// machine: person answers the app's dialog as the test says (the real native dialog is
// answered under Xvfb by tests/desktop).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/approval"
	"app/backend/auth"
	"app/backend/config"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/backend/mcp"
	"app/backend/secrets"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/mcptest"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// person is whoever sits at the app: it answers the dialog with the next scripted answer and
// records what the dialog showed.
type person struct {
	mu      sync.Mutex
	answers []approval.Answer
	asked   []approval.Question
	// hold, when set, keeps the dialog open until it is closed (or the request ends).
	hold chan struct{}
}

func (p *person) Ask(ctx context.Context, q approval.Question) (approval.Answer, error) {
	p.mu.Lock()
	p.asked = append(p.asked, q)
	hold := p.hold
	var a approval.Answer
	if len(p.answers) > 0 {
		a, p.answers = p.answers[0], p.answers[1:]
	}
	p.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return approval.Deny, ctx.Err()
		}
	}
	return a, nil
}

func (p *person) will(a ...approval.Answer) {
	p.mu.Lock()
	p.answers, p.asked = a, nil
	p.mu.Unlock()
}

func (p *person) questions() []approval.Question {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]approval.Question(nil), p.asked...)
}

// flowRig is the server of these tests.
type flowRig struct {
	url    string
	node   *weaviatenode.Node
	person *person
	gate   *approval.Gate
	conn   connections.Connection
	tokens map[string]string // level -> bearer token
	store  *connections.Store
}

// rigOptions change the server of newFlowRigWith.
type rigOptions struct {
	// node is the weaviate-server's options (weaviatetest.Options when zero).
	node *weaviatenode.Options
	// limits are the tools' limits (DefaultLimits when nil).
	limits *Limits
	// handlerTimeout replaces the 330 s handler deadline when set.
	handlerTimeout time.Duration
	// schemaMaxAge is Deps.SchemaMaxAge.
	schemaMaxAge time.Duration
}

func newFlowRig(t *testing.T) *flowRig { return newFlowRigWith(t, rigOptions{}) }

func newFlowRigWith(t *testing.T, o rigOptions) *flowRig {
	t.Helper()
	ctx := context.Background()
	nodeOpts := weaviatetest.Options(weaviatenode.Anonymous)
	if o.node != nil {
		nodeOpts = *o.node
	}
	node := weaviatetest.StartWith(t, nodeOpts)
	if err := fixtures.CreateNotes(ctx, node); err != nil {
		t.Fatal(err)
	}
	s := driver.DefaultSettings()
	s.Host, s.Port = node.Host, node.Port
	r := newRig(t, o, connections.Connection{Type: "weaviate", Name: "notes", Settings: s, ExternalAccess: connections.AccessReadWrite},
		func(_ context.Context, c connections.Connection) (driver.Driver, error) {
			return weaviate.New(c.Settings)
		})
	r.node = node
	return r
}

// newRig is the server of these tests over one saved connection c, opened by factory.
func newRig(t *testing.T, o rigOptions, c connections.Connection, factory connections.Factory) *flowRig {
	t.Helper()
	ctx := context.Background()
	store := mcptest.NewStore(t)
	conn, err := store.Add(ctx, c, "")
	if err != nil {
		t.Fatal(err)
	}
	open := connections.NewManager(store, connections.ManagerOptions{Factory: factory})
	t.Cleanup(open.Close)

	dir := t.TempDir()
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(dir, "keyring")})
	if err != nil {
		t.Fatal(err)
	}
	quiet := logrus.New()
	quiet.SetOutput(io.Discard)
	p := &person{}
	gate := approval.NewGate(approval.Options{Keys: keys, Dialog: p, Log: quiet, WaitingEvery: 50 * time.Millisecond})
	tokStore := auth.NewStore(dir, keys)
	svc := auth.NewService(auth.Options{Store: tokStore, Log: quiet})
	mset := config.DefaultSettings().MCP
	mset.RateLimitPerMinute = 0
	svc.Apply(mset)
	r := &flowRig{person: p, gate: gate, conn: conn, tokens: map[string]string{}, store: store}
	for _, level := range auth.Levels() {
		_, secret, err := tokStore.Create(ctx, auth.NewToken{Name: level, Level: level})
		if err != nil {
			t.Fatal(err)
		}
		r.tokens[level] = secret
	}
	deps := Deps{Conns: Conns{Store: store, Open: open}, Approver: gate, SchemaMaxAge: o.schemaMaxAge}
	if o.limits != nil {
		l := *o.limits
		deps.Limits = func() Limits { return l }
	}
	srv := mcptest.Start(t, mcp.Options{
		Tools:          All(deps),
		Authenticator:  svc,
		Logger:         quiet,
		HandlerTimeout: o.handlerTimeout,
	})
	r.url = srv.URL
	return r
}

// flowCall is one tools/call as a modern client sends it.
type flowCall struct {
	level     string
	elicit    bool
	progress  bool
	tool      string
	args      map[string]any
	state     string
	responses map[string]any
	// onProgress sees each progress notification as it arrives.
	onProgress func(params map[string]any)
}

// flowReply is the answer: the JSON-RPC result or error, and progress frames before it.
type flowReply struct {
	status   int
	result   map[string]any
	code     int
	message  string
	progress []map[string]any
}

func (r flowReply) text() string {
	c, _ := r.result["content"].([]any)
	if len(c) == 0 {
		return ""
	}
	s, _ := c[0].(map[string]any)["text"].(string)
	return s
}

func (r *flowRig) call(t *testing.T, ctx context.Context, c flowCall) flowReply {
	t.Helper()
	caps := map[string]any{}
	if c.elicit {
		caps["elicitation"] = map[string]any{"form": map[string]any{}}
	}
	meta := map[string]any{mcp.MetaProtocolVersion: mcp.ProtocolVersion, mcp.MetaClientCapabilities: caps,
		"io.modelcontextprotocol/clientInfo": map[string]any{"name": "flow-test", "version": "1.0"}}
	if c.progress {
		meta["progressToken"] = "p1"
	}
	params := map[string]any{"_meta": meta, "name": c.tool, "arguments": c.args}
	if c.state != "" {
		params["requestState"] = c.state
	}
	if c.responses != nil {
		params["inputResponses"] = c.responses
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, r.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion)
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", c.tool)
	req.Header.Set("Authorization", "Bearer "+r.tokens[c.level])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := flowReply{status: resp.StatusCode}
	var frames [][]byte
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				frames = append(frames, []byte(d))
				var n struct {
					Method string         `json:"method"`
					Params map[string]any `json:"params"`
				}
				if c.onProgress != nil && json.Unmarshal([]byte(d), &n) == nil && n.Method == "notifications/progress" {
					c.onProgress(n.Params)
				}
			}
		}
	} else {
		b, _ := io.ReadAll(resp.Body)
		frames = [][]byte{b}
	}
	for i, f := range frames {
		var m struct {
			Method string          `json:"method"`
			Params map[string]any  `json:"params"`
			Result map[string]any  `json:"result"`
			Error  *mcpError       `json:"error"`
			ID     json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal(f, &m); err != nil {
			t.Fatalf("frame %d: %v: %s", i, err, f)
		}
		switch {
		case m.Method == "notifications/progress":
			out.progress = append(out.progress, m.Params)
		case m.Error != nil:
			out.code, out.message = m.Error.Code, m.Error.Message
		default:
			out.result = m.Result
		}
	}
	return out
}

type mcpError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (r *flowRig) notes(t *testing.T) int {
	t.Helper()
	n, err := r.node.Count(context.Background(), "Note", "")
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func insertArgs(conn, body string) map[string]any {
	return map[string]any{"connection": conn, "query": fmt.Sprintf("POST /v1/objects {\"class\":\"Note\",\"properties\":{\"body\":%q}}", body)}
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestWriteApprovalStateTable(t *testing.T) {
	weaviatetest.RequireBinary(t)
	r := newFlowRig(t)
	ctx := ctxFor(t)
	wantDenied := func(t *testing.T, rep flowReply) {
		t.Helper()
		if rep.code != 0 || rep.result["isError"] != true || rep.result["resultType"] != "complete" || !strings.HasPrefix(rep.text(), "denied: ") {
			t.Fatalf("want the tool error denied, got %d %q %v", rep.code, rep.message, rep.result)
		}
	}
	wantOK := func(t *testing.T, rep flowReply) {
		t.Helper()
		if rep.code != 0 || rep.result["isError"] != false {
			t.Fatalf("want success, got %d %q %v", rep.code, rep.message, rep.result)
		}
	}

	t.Run("a read runs without asking anyone", func(t *testing.T) {
		r.person.will()
		rep := r.call(t, ctx, flowCall{level: auth.LevelReadOnly, tool: NameExecuteQuery, args: map[string]any{"connection": "notes", "query": "{ Get { Note { body } } }"}})
		wantOK(t, rep)
		if len(r.person.questions()) != 0 {
			t.Fatal("a read was gated like a write")
		}
	})

	t.Run("write, client without elicitation: the call blocks on the app's dialog and Yes runs it", func(t *testing.T) {
		before := r.notes(t)
		r.person.will(approval.Approve)
		rep := r.call(t, ctx, flowCall{level: auth.LevelReadWrite, tool: NameExecuteQuery, args: insertArgs("notes", "approved 50% off")})
		wantOK(t, rep)
		q := r.person.questions()
		if len(q) != 1 || q[0].Connection != "notes" || q[0].Token != auth.LevelReadWrite || q[0].Level != auth.LevelReadWrite ||
			!strings.Contains(q[0].Statement, "approved 50% off") || !strings.Contains(q[0].Client, "flow-test") {
			t.Fatalf("dialog showed %+v", q)
		}
		if r.notes(t) != before+1 {
			t.Fatal("the approved write did not reach the database")
		}
	})

	t.Run("write, client without elicitation: No (or a closed dialog) is the tool error denied and writes nothing", func(t *testing.T) {
		before := r.notes(t)
		r.person.will(approval.Deny)
		wantDenied(t, r.call(t, ctx, flowCall{level: auth.LevelReadWrite, tool: NameExecuteQuery, args: insertArgs("notes", "declined")}))
		if r.notes(t) != before {
			t.Fatal("a denied write reached the database")
		}
	})

	t.Run("write, client with elicitation: input_required with the approve_statement form and a requestState", func(t *testing.T) {
		r.person.will()
		args := insertArgs("notes", "line one\nline two")
		rep := r.call(t, ctx, flowCall{level: auth.LevelFullAccess, elicit: true, tool: NameExecuteQuery, args: args})
		if rep.code != 0 || rep.result["resultType"] != "input_required" {
			t.Fatalf("got %d %v", rep.code, rep.result)
		}
		state, _ := rep.result["requestState"].(string)
		req := rep.result["inputRequests"].(map[string]any)[approval.RequestName].(map[string]any)
		params := req["params"].(map[string]any)
		schema := params["requestedSchema"].(map[string]any)
		approved := schema["properties"].(map[string]any)["approved"].(map[string]any)
		if state == "" || req["method"] != "elicitation/create" || params["mode"] != "form" || params["message"] == "" ||
			approved["type"] != "boolean" || approved["title"] == "" || approved["description"] != args["query"] ||
			fmt.Sprint(schema["required"]) != "[approved]" {
			t.Fatalf("form %v", rep.result)
		}
		if _, cached := rep.result["ttlMs"]; cached {
			t.Fatal("an input_required result carries a cache hint")
		}
	})

	first := func(t *testing.T, level string, args map[string]any) string {
		t.Helper()
		rep := r.call(t, ctx, flowCall{level: level, elicit: true, tool: NameExecuteQuery, args: args})
		s, _ := rep.result["requestState"].(string)
		if s == "" {
			t.Fatalf("no requestState: %v", rep.result)
		}
		return s
	}
	accept := map[string]any{approval.RequestName: map[string]any{"action": "accept", "content": map[string]any{"approved": true}}}

	t.Run("accepted + approved + valid + unchanged on fullAccess: the statement runs, the form replaces the dialog", func(t *testing.T) {
		before := r.notes(t)
		args := insertArgs("notes", "by form")
		state := first(t, auth.LevelFullAccess, args)
		r.person.will()
		wantOK(t, r.call(t, ctx, flowCall{level: auth.LevelFullAccess, elicit: true, tool: NameExecuteQuery, args: args, state: state, responses: accept}))
		if len(r.person.questions()) != 0 || r.notes(t) != before+1 {
			t.Fatalf("dialog %v, rows %d -> %d", r.person.questions(), before, r.notes(t))
		}
	})

	for _, level := range []string{auth.LevelReadOnly, auth.LevelReadWrite} {
		t.Run("accepted on "+level+": the app's safe-mode dialog still appears, and its No denies", func(t *testing.T) {
			before := r.notes(t)
			args := insertArgs("notes", "safe mode "+level)
			state := first(t, level, args)
			r.person.will(approval.Deny)
			wantDenied(t, r.call(t, ctx, flowCall{level: level, elicit: true, tool: NameExecuteQuery, args: args, state: state, responses: accept}))
			if len(r.person.questions()) != 1 || r.notes(t) != before {
				t.Fatalf("dialog %d, rows %d -> %d", len(r.person.questions()), before, r.notes(t))
			}
		})
	}

	for name, resp := range map[string]map[string]any{
		"declined":     {approval.RequestName: map[string]any{"action": "decline"}},
		"cancelled":    {approval.RequestName: map[string]any{"action": "cancel"}},
		"not approved": {approval.RequestName: map[string]any{"action": "accept", "content": map[string]any{"approved": false}}},
	} {
		t.Run("follow-up "+name+": tool error denied", func(t *testing.T) {
			args := insertArgs("notes", name)
			state := first(t, auth.LevelFullAccess, args)
			wantDenied(t, r.call(t, ctx, flowCall{level: auth.LevelFullAccess, elicit: true, tool: NameExecuteQuery, args: args, state: state, responses: resp}))
		})
	}

	t.Run("follow-up with changed arguments, tampered, foreign or replayed state: -32602", func(t *testing.T) {
		args := insertArgs("notes", "original")
		state := first(t, auth.LevelFullAccess, args)
		for name, c := range map[string]flowCall{
			"changed arguments": {level: auth.LevelFullAccess, args: insertArgs("notes", "changed")},
			"tampered":          {level: auth.LevelFullAccess, args: args, state: "x" + state},
			"foreign principal": {level: auth.LevelReadWrite, args: args},
		} {
			c.elicit, c.tool, c.responses = true, NameExecuteQuery, accept
			if c.state == "" {
				c.state = state
			}
			if rep := r.call(t, ctx, c); rep.code != mcp.CodeInvalidParams || rep.status != http.StatusBadRequest {
				t.Fatalf("%s: got %d %d %v", name, rep.status, rep.code, rep.result)
			}
		}
		// The state is still good (each refusal above left it unused): use it, then replay it.
		wantOK(t, r.call(t, ctx, flowCall{level: auth.LevelFullAccess, elicit: true, tool: NameExecuteQuery, args: args, state: state, responses: accept}))
		if rep := r.call(t, ctx, flowCall{level: auth.LevelFullAccess, elicit: true, tool: NameExecuteQuery, args: args, state: state, responses: accept}); rep.code != mcp.CodeInvalidParams {
			t.Fatalf("replay: %d %v", rep.code, rep.result)
		}
	})

	t.Run("a destructive statement is refused by execute_query and pointed to confirm_destructive_operation", func(t *testing.T) {
		rep := r.call(t, ctx, flowCall{level: auth.LevelFullAccess, tool: NameExecuteQuery, args: map[string]any{"connection": "notes", "query": "DELETE /v1/objects/Note/00000000-0000-0000-0000-000000000001"}})
		if rep.result["isError"] != true || !strings.Contains(rep.text(), NameConfirmDestructive) {
			t.Fatalf("%v", rep.result)
		}
	})

	t.Run("a request waiting for the dialog gets advancing progress: waiting for approval in App", func(t *testing.T) {
		r.person.will(approval.Approve)
		r.person.mu.Lock()
		r.person.hold = make(chan struct{})
		hold := r.person.hold
		r.person.mu.Unlock()
		defer func() { r.person.mu.Lock(); r.person.hold = nil; r.person.mu.Unlock() }()
		// The person answers only once the client has seen the dialog wait through two
		// waiting periods.
		seen := 0
		c := flowCall{level: auth.LevelReadWrite, progress: true, tool: NameExecuteQuery, args: insertArgs("notes", "after a wait"),
			onProgress: func(p map[string]any) {
				if p["message"] == approval.WaitingMessage {
					if seen++; seen == 3 {
						close(hold)
					}
				}
			}}
		done := make(chan flowReply, 1)
		go func() { done <- r.call(t, ctx, c) }()
		rep := <-done
		wantOK(t, rep)
		waiting := 0
		last := -1.0
		for _, p := range rep.progress {
			v := p["progress"].(float64)
			if v <= last {
				t.Fatalf("progress did not advance: %v", rep.progress)
			}
			last = v
			if p["message"] == approval.WaitingMessage {
				waiting++
			}
		}
		if waiting < 2 {
			t.Fatalf("want advancing waiting progress, got %v", rep.progress)
		}
	})
}
