package agentproof

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func contextWithTimeout(t testing.TB, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(t.Context(), d)
}

// stillAnswers asserts the app still serves another client, and the person's terminal still
// gets and decides a question, once an attack is over.
func stillAnswers(a *attempt) {
	a.Helper()
	r := a.tool(tokRO, "list_tables", map[string]any{"connection": connLite})
	if r.result == nil || r.result["isError"] == true {
		a.Fatalf("the app no longer answers another client: %s", r)
	}
}

// exhaustion: more than the app should take. Each is bounded with the spec's error, runs
// nothing, and leaves the app answering others.
func exhaustion(h *harness) group {
	var cases []attackCase
	add := func(name string, run func(a *attempt)) { cases = append(cases, attackCase{name: name, run: run}) }

	add("a body over 10 MB", func(a *attempt) {
		body := append([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"`), bytes.Repeat([]byte("x"), 11<<20)...)
		body = append(body, `"}}`...)
		r := a.call(req{token: tokFull, method: "tools/list", raw: body, untraced: "-33005"})
		if r.status != 413 || r.code() != -33005 {
			a.Fatalf("want 413 -33005: HTTP %d %.200s", r.status, r.body)
		}
		stillAnswers(a)
	})
	add("JSON nested 100,000 deep", func(a *attempt) {
		body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`)
		r := a.call(req{token: tokFull, method: "tools/list", raw: body, untraced: "-32700"})
		if r.status != 400 || r.code() != -32700 {
			a.Fatalf("want 400 -32700: %s", r)
		}
		stillAnswers(a)
	})
	add("arguments nested 5,000 deep", func(a *attempt) {
		deep := strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000)
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"insert_rows","arguments":{"connection":%q,"table":"notes","rows":[{"values":{"body":%s}}]},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"traceparent":%q}}}`,
			connLite, deep, a.traceparent())
		r := a.call(req{token: tokFull, method: "tools/call", raw: []byte(body), params: map[string]any{"name": "insert_rows"}})
		notRun(a, r)
		stillAnswers(a)
	})
	add("a JSON-RPC batch of 1,000 requests", func(a *attempt) {
		var b strings.Builder
		b.WriteString("[")
		for i := range 1000 {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"insert_rows","arguments":{"connection":%q,"table":"notes","rows":[{"values":{"body":"batched"}}]}}}`, i, connLite)
		}
		b.WriteString("]")
		r := a.call(req{token: tokFull, method: "tools/call", raw: []byte(b.String()), untraced: "-32600", params: map[string]any{"name": "insert_rows"}})
		if r.code() != -32600 {
			a.Fatalf("want -32600 (no batching): %s", r)
		}
		stillAnswers(a)
	})
	for _, pad := range []int{2001, 5000, 100000} {
		add(fmt.Sprintf("a write of %d characters hides its tail past what the person is shown", pad), func(a *attempt) {
			head := "INSERT INTO notes (id, body) VALUES (5000, 'visible')"
			stmt := head + ";" + strings.Repeat(" ", pad) + "DELETE FROM notes WHERE id = 1"
			a.h.person.will(head)
			r := a.tool(tokRW, "execute_query", map[string]any{"connection": connLite, "query": stmt})
			notRun(a, r)
			if len(a.h.person.questions()) != 0 {
				a.Errorf("the person was shown a statement cut short: %q", a.h.person.questions()[0][:200])
			}
		})
	}
	add("seventeen writes waiting for a person who is away: the seventeenth is refused at once", func(a *attempt) {
		a.h.person.away(true)
		var wg sync.WaitGroup
		replies := make([]reply, 16)
		// One after the other, each once it waits for the person (its progress says so).
		for i := range 16 {
			waiting := make(chan struct{})
			var once sync.Once
			wg.Add(1)
			go func() {
				defer wg.Done()
				replies[i] = a.call(req{token: tokRW, method: "tools/call", params: map[string]any{"name": "execute_query",
					"arguments": map[string]any{"connection": connLite, "query": fmt.Sprintf("INSERT INTO notes (id, body) VALUES (%d, 'queued')", 6000+i)},
					"_meta":     map[string]any{"progressToken": fmt.Sprintf("queued-%d", i)}},
					onLine: func(l string) {
						if strings.Contains(l, "waiting for approval") {
							once.Do(func() { close(waiting) })
						}
					}})
				once.Do(func() { close(waiting) })
			}()
			<-waiting
		}
		start := time.Now()
		last := a.tool(tokRW, "execute_query", map[string]any{"connection": connLite, "query": "INSERT INTO notes (id, body) VALUES (6100, 'queued')"})
		if !strings.Contains(last.text(), "already wait") || time.Since(start) > 5*time.Second {
			a.Errorf("the 17th: want refused at once, saying 16 wait: %s", last)
		}
		a.h.person.away(false)
		wg.Wait()
		for i, r := range replies {
			if r.toolError() != "denied" {
				a.Errorf("write %d: want denied once the person said no: %s", i, r)
			}
		}
	})
	add("nine requests at once from one token (eight may be in flight)", func(a *attempt) {
		var wg sync.WaitGroup
		replies := make([]reply, 9)
		for i := range replies {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Three seconds each, so that all nine overlap however slowly they are sent.
				replies[i] = a.tool(tokFull2, "execute_query", map[string]any{"connection": connPG, "query": "SELECT pg_sleep(3)"})
			}()
		}
		wg.Wait()
		refused := 0
		for _, r := range replies {
			if r.code() != 0 {
				refused++
			}
		}
		if refused < 1 {
			a.Errorf("nine ran at once; want the ninth refused: %s", replies[8])
		}
		stillAnswers(a)
	})
	add("thousands of subscriptions in one listen", func(a *attempt) {
		uris := make([]string, 5000)
		for i := range uris {
			uris[i] = fmt.Sprintf("app://connections/%s/tables/t%d", a.h.connIDs[connLite], i)
		}
		r := a.listen(tokFull, uris)
		if r.code() != -32602 || !strings.Contains(r.err.Message, "at most 100") {
			a.Fatalf("want -32602 naming the bound of 100: %s", r)
		}
		stillAnswers(a)
	})
	add("a thousand notifications", func(a *attempt) {
		for i := range 1000 {
			r := a.call(req{token: tokFull, method: "notifications/progress", raw: mustJSON(map[string]any{"jsonrpc": "2.0", "method": "notifications/progress",
				"params": map[string]any{"progressToken": i, "progress": i}})})
			if r.status != http.StatusAccepted {
				a.Fatalf("notification %d: want 202: %s", i, r)
			}
		}
		stillAnswers(a)
	})
	add("headers over 16 KB", func(a *attempt) {
		r := a.call(req{token: tokFull, method: "tools/list", raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`),
			header: func(hd http.Header) { hd.Set("X-Pad", strings.Repeat("x", 20<<10)) }})
		if r.status != http.StatusRequestHeaderFieldsTooLarge {
			a.Fatalf("want 431: %s", r)
		}
		stillAnswers(a)
	})
	add("a tool name of a megabyte", func(a *attempt) {
		name := strings.Repeat("n", 1<<20)
		body := mustJSON(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{"name": name, "arguments": map[string]any{},
			"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": map[string]any{}, "traceparent": a.traceparent()}}})
		r := a.call(req{token: tokFull, method: "tools/call", raw: body})
		if r.code() == 0 {
			a.Fatalf("want an error: %s", r)
		}
		stillAnswers(a)
	})
	add("200,000 rows in one insert_rows", func(a *attempt) {
		rows := make([]any, 200000)
		for i := range rows {
			rows[i] = map[string]any{"values": map[string]any{"body": "flood"}}
		}
		r := a.elicit(tokFull, "insert_rows", map[string]any{"connection": connLite, "table": "notes", "rows": rows})
		if r.stateOf() != "" {
			// Asked, not run: the agent does not get to answer for the person here.
			return
		}
		notRun(a, r)
		stillAnswers(a)
	})
	add("a client that keeps going past its rate limit", func(a *attempt) {
		a.h.cli(a, nil, "settings", "set", "mcp.rateLimitPerMinute", "20")
		defer a.h.cli(a, nil, "settings", "set", "mcp.rateLimitPerMinute", "0")
		// The app reads its settings file once a second: the limit is in force once a burst of
		// calls meets it (a burst is at most the limit, so the first 20 may all pass).
		limited := 0
		for deadline := time.Now().Add(15 * time.Second); limited == 0; {
			if a.tool(tokFull2, "list_tables", map[string]any{"connection": connLite}).code() == -33010 {
				limited++
			}
			if time.Now().After(deadline) {
				a.Fatal("no call was limited within 15 s of the limit being set")
			}
		}
		for range 39 {
			r := a.tool(tokFull2, "list_tables", map[string]any{"connection": connLite})
			if r.code() == -33010 {
				limited++
				if r.status != 429 || r.header.Get("Retry-After") == "" {
					a.Fatalf("want 429 with Retry-After: %s", r)
				}
			}
		}
		if limited < 35 {
			a.Fatalf("%d of 40 calls limited past the limit of 20 a minute", limited)
		}
		// Another token is not held back by it.
		r := a.tool(tokRO, "list_tables", map[string]any{"connection": connLite})
		if r.code() != 0 {
			a.Fatalf("another token was limited too: %s", r)
		}
	})
	add("a connection that sends half a request and waits", func(a *attempt) {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", a.h.port))
		if err != nil {
			a.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":")
		stillAnswers(a)
	})
	add("a wrong Content-Type", func(a *attempt) {
		r := a.call(req{token: tokFull, method: "tools/call", params: map[string]any{"name": "insert_rows", "arguments": map[string]any{"connection": connLite, "table": "notes",
			"rows": []any{map[string]any{"values": map[string]any{"body": "typed"}}}}},
			header: func(hd http.Header) { hd.Set("Content-Type", "text/plain") }})
		notRun(a, r)
	})
	add("a method header that disagrees with the body", func(a *attempt) {
		r := a.call(req{token: tokFull, method: "tools/call", params: map[string]any{"name": "insert_rows", "arguments": map[string]any{"connection": connLite, "table": "notes",
			"rows": []any{map[string]any{"values": map[string]any{"body": "lied"}}}}},
			header: func(hd http.Header) { hd.Set("Mcp-Method", "tools/list"); hd.Set("Mcp-Name", "list_tables") }})
		if r.code() != -32020 {
			a.Fatalf("want -32020: %s", r)
		}
	})
	add("after it all, the person still decides at the terminal", func(a *attempt) {
		stmt := "UPDATE items SET n = n WHERE id = 1"
		a.h.person.will(stmt)
		r := a.tool(tokRW, "execute_query", map[string]any{"connection": connLite, "query": stmt})
		if r.result == nil || r.result["isError"] == true || len(a.h.person.questions()) != 1 {
			a.Fatalf("the person's yes did not run it: %s", r)
		}
	})
	return group{name: "resource exhaustion", cases: cases}
}
