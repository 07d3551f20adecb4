package mcp

import (
	"encoding/json"
	"testing"
)

// subscriptions/listen: the acknowledgement is the first frame and carries
// the subscription id; the stream is exempt from the handler deadline.
func TestSubscriptionsListen(t *testing.T) {
	ts := startServer(t, Options{})
	p := map[string]any{"notifications": map[string]any{"toolsListChanged": true}}
	r := ts.call(t, 77, "subscriptions/listen", p)
	if r.header.Get("Content-Type") != "text/event-stream" || len(r.frames) != 2 {
		t.Fatalf("%s", r.body)
	}
	var ack map[string]any
	_ = json.Unmarshal(r.frames[0], &ack)
	params := ack["params"].(map[string]any)
	if ack["method"] != "notifications/subscriptions/acknowledged" || params["_meta"].(map[string]any)["io.modelcontextprotocol/subscriptionId"] != float64(77) {
		t.Fatalf("%s", r.frames[0])
	}
	if len(params["notifications"].(map[string]any)) != 0 {
		t.Fatalf("agreed to a notification the capabilities do not promise: %v", params)
	}
}
