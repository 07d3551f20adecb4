package mcp

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// SPEC.md B "Progress streaming": even a method that reports no progress answers a request
// with a progressToken on its own event stream, the final response as its only frame.
func TestRequestWithAProgressTokenIsAnsweredAsAnEventStreamEvenWithoutProgress(t *testing.T) {
	ts := startServer(t, Options{})
	for _, method := range []string{"tools/list", "server/discover"} {
		t.Run(method, func(t *testing.T) {
			meta := validMeta()
			meta[MetaProgressToken] = "tok-" + method
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 5, "method": method, "params": map[string]any{"_meta": meta}})
			r := ts.post(t, modernHeaders(method, nil), b)
			if r.status != http.StatusOK || r.header.Get("Content-Type") != "text/event-stream" {
				t.Fatalf("status %d, Content-Type %q, want 200 text/event-stream", r.status, r.header.Get("Content-Type"))
			}
			if len(r.frames) != 1 || r.rpc.Result == nil {
				t.Fatalf("frames = %d, want only the final response: %s", len(r.frames), r.body)
			}
		})
	}
}

// SPEC.md B "Progress streaming".
func TestProgressStreaming(t *testing.T) {
	ts := startServer(t, Options{Tools: []Tool{fakeProgressTool([]float64{0, 0.3, 0.3, 0.2, 1})}})
	params := map[string]any{"name": "fake_progress", "arguments": map[string]any{}}
	body := func(token any) []byte {
		b := map[string]any{"jsonrpc": "2.0", "id": 42, "method": "tools/call", "params": map[string]any{
			"name": "fake_progress", "arguments": map[string]any{},
			"_meta": map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: map[string]any{}, MetaProgressToken: token},
		}}
		out, _ := json.Marshal(b)
		return out
	}
	r := ts.post(t, modernHeaders("tools/call", params), body("tok-1"))
	if r.header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("content type %q", r.header.Get("Content-Type"))
	}
	if strings.Contains(string(r.body), "event:") {
		t.Fatal("frames carry an event name")
	}
	var progress []float64
	for i, f := range r.frames {
		var m map[string]any
		if err := json.Unmarshal(f, &m); err != nil {
			t.Fatal(err)
		}
		if i == len(r.frames)-1 {
			if m["id"] != float64(42) || m["result"] == nil {
				t.Fatalf("last frame is not the response: %s", f)
			}
			continue
		}
		if m["method"] != "notifications/progress" {
			t.Fatalf("frame %d: %s", i, f)
		}
		p := m["params"].(map[string]any)
		if p["progressToken"] != "tok-1" || p["total"] != float64(1) || p["message"] != "step" {
			t.Fatalf("params %v", p)
		}
		progress = append(progress, p["progress"].(float64))
	}
	t.Run("progress strictly increases; non-advancing updates are dropped", func(t *testing.T) {
		if !reflect.DeepEqual(progress, []float64{0, 0.3, 1}) {
			t.Fatalf("progress %v", progress)
		}
	})
	t.Run("the final JSON-RPC response is the last frame", func(t *testing.T) {
		if r.rpc.Result["resultType"] != "complete" || r.rpc.Result["isError"] != false {
			t.Fatalf("%v", r.rpc.Result)
		}
	})
	t.Run("an integer progressToken is echoed as an integer", func(t *testing.T) {
		r := ts.post(t, modernHeaders("tools/call", params), body(7))
		if !strings.Contains(string(r.frames[0]), `"progressToken":7`) {
			t.Fatalf("%s", r.frames[0])
		}
	})
	t.Run("without a progressToken the response is plain JSON", func(t *testing.T) {
		r := ts.call(t, 1, "tools/call", params)
		if r.header.Get("Content-Type") != "application/json" {
			t.Fatalf("content type %q", r.header.Get("Content-Type"))
		}
	})
	t.Run("an error before any progress keeps its status on the stream", func(t *testing.T) {
		p := map[string]any{"name": "nope", "arguments": map[string]any{}}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{
			"name": "nope", "arguments": map[string]any{},
			"_meta": map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: map[string]any{}, MetaProgressToken: "x"}}})
		r := ts.post(t, modernHeaders("tools/call", p), b)
		if r.status != 400 || r.code() != CodeInvalidParams || len(r.frames) != 1 {
			t.Fatalf("status %d code %d frames %d", r.status, r.code(), len(r.frames))
		}
	})
}

// SPEC.md B "Progress streaming": each message is one "data: <json>" frame, even when the
// JSON handed to the stream was indented across lines.
func TestEventStreamFramesStayOneDataLineForIndentedJSON(t *testing.T) {
	rec := httptest.NewRecorder()
	st := newSSEStream(rec)
	if err := st.send([]byte("{\n  \"a\": \"x\\ny\",\r\n  \"b\": [1,\n 2]\n}")); err != nil {
		t.Fatal(err)
	}
	frames := sseFrames(t, rec.Body.Bytes())
	var got struct {
		A string
		B []int
	}
	if len(frames) != 1 || json.Unmarshal(frames[0], &got) != nil || got.A != "x\ny" || len(got.B) != 2 {
		t.Fatalf("frames %q, want one data line with the same JSON value", rec.Body.String())
	}
	if err := st.send([]byte("{\n broken")); err == nil {
		t.Fatal("invalid JSON with a line break was written as a frame")
	}
}
