package mcp

import (
	"net/http"
	"strings"
	"testing"
)

// The same envelope rules over HTTP, with the code table's statuses, and
// the request id carried back whenever it can be read.
func TestEnvelopeOverHTTP(t *testing.T) {
	ts := startServer(t, Options{})
	h := modernHeaders("tools/list", nil)
	cases := []struct {
		name   string
		body   string
		status int
		code   int
		id     string
	}{
		{"body is not JSON: HTTP 400 -32700, id null", `{nope`, 400, CodeParseError, "null"},
		{"a JSON array (batch): HTTP 400 -32600", `[` + string(modernBody(1, "tools/list", nil)) + `]`, 400, CodeInvalidRequest, "null"},
		{"a JSON-RPC response sent to the server: HTTP 400 -32600 with its id", `{"jsonrpc":"2.0","id":9,"result":{}}`, 400, CodeInvalidRequest, "9"},
		{"unknown method: HTTP 404 -32601 with its id", string(modernBody(5, "nope/nope", nil)), 404, CodeMethodNotFound, "5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hh := h.Clone()
			if strings.Contains(c.body, "nope/nope") {
				hh.Set("Mcp-Method", "nope/nope")
			}
			r := ts.post(t, hh, []byte(c.body))
			if r.status != c.status || r.code() != c.code || string(r.rpc.ID) != c.id {
				t.Fatalf("status %d code %d id %s: %s", r.status, r.code(), r.rpc.ID, r.body)
			}
		})
	}
}

// SPEC.md B "Methods" rule 3: notifications are answered 202; only
// notifications/cancelled is acted on.
func TestNotificationsAnswered202(t *testing.T) {
	ts := startServer(t, Options{})
	for _, m := range []string{"notifications/initialized", "notifications/cancelled", "notifications/roots/list_changed", "notifications/whatever"} {
		t.Run(m+" is answered 202 with no body", func(t *testing.T) {
			body := []byte(`{"jsonrpc":"2.0","method":"` + m + `","params":{"requestId":1}}`)
			h := modernHeaders(m, nil)
			r := ts.post(t, h, body)
			if r.status != http.StatusAccepted || len(r.body) != 0 {
				t.Fatalf("status %d body %q", r.status, r.body)
			}
		})
	}
}

// The pipeline's order, decided once (doc.go): the envelope is read before
// authentication, so a garbage body from a caller without a token is 400,
// and a valid envelope without a token is 401 carrying its id.
func TestPipelineOrderEnvelopeBeforeAuth(t *testing.T) {
	deny := AuthenticatorFunc(func(*http.Request) (Principal, error) {
		e := NewError(CodeUnauthenticated, "unauthenticated", nil)
		e.Header = http.Header{"Www-Authenticate": {`Bearer realm="App"`}}
		return Principal{}, e
	})
	ts := startServer(t, Options{Authenticator: deny})
	t.Run("garbage body without a token is 400 -32700", func(t *testing.T) {
		r := ts.post(t, modernHeaders("tools/list", nil), []byte(`{nope`))
		if r.status != 400 || r.code() != CodeParseError {
			t.Fatalf("status %d code %d", r.status, r.code())
		}
	})
	t.Run("a valid envelope without a token is 401 -33009 with its id", func(t *testing.T) {
		r := ts.post(t, modernHeaders("tools/list", nil), modernBody(7, "tools/list", nil))
		if r.status != 401 || r.code() != CodeUnauthenticated || string(r.rpc.ID) != "7" {
			t.Fatalf("status %d code %d id %s", r.status, r.code(), r.rpc.ID)
		}
	})
	t.Run("a notification without a token is 401 too (nothing is acted on for nobody)", func(t *testing.T) {
		r := ts.post(t, modernHeaders("notifications/cancelled", nil), []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`))
		if r.status != 401 {
			t.Fatalf("status %d", r.status)
		}
	})
	t.Run("the stages are named and in the documented order", func(t *testing.T) {
		var got []string
		for _, st := range pipeline {
			got = append(got, st.name)
		}
		want := []string{"limits", "envelope", "auth", "available", "content-type", "era", "notification", "headers", "method"}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("%v", got)
		}
	})
}
