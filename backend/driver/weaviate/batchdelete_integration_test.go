package weaviate_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"app/backend/driver"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// A delete by filter removes every match, past the server's per-request limit
// (QUERY_MAXIMUM_RESULTS), and says how many in how many requests (issue 40, item 2). The
// node's limit is 100 here so that the rounds are few and quick; the rule is the same at the
// default 10,000.
func TestADeleteByFilterRemovesEveryMatchPastTheServersLimit(t *testing.T) {
	opts := weaviatetest.Options(weaviatenode.Anonymous)
	opts.Env = []string{"QUERY_MAXIMUM_RESULTS=100"}
	n := weaviatetest.StartWith(t, opts)
	ctx := ctxT(t)
	const class = "Sweep"
	seed := func(t *testing.T) {
		t.Helper()
		_ = n.DoJSON(ctx, http.MethodDelete, "/v1/schema/"+class, nil, nil)
		schema := map[string]any{"class": class, "vectorizer": "none", "properties": []map[string]any{{"name": "n", "dataType": []string{"int"}}}}
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", schema, nil); err != nil {
			t.Fatal(err)
		}
		objs := make([]map[string]any, 350)
		for i := range objs {
			objs[i] = map[string]any{"class": class, "properties": map[string]any{"n": i}}
		}
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/batch/objects", map[string]any{"objects": objs}, nil); err != nil {
			t.Fatal(err)
		}
	}
	// remaining reads the collection back with the node's own REST API: the n of each object.
	remaining := func(t *testing.T) (kept, below300 int) {
		t.Helper()
		var page struct {
			Objects []struct {
				Properties struct {
					N int `json:"n"`
				} `json:"properties"`
			} `json:"objects"`
		}
		if err := n.DoJSON(ctx, http.MethodGet, "/v1/objects?class="+class+"&limit=100", nil, &page); err != nil {
			t.Fatal(err)
		}
		// The REST list is capped by the same limit: 50 left fit in one page.
		for _, o := range page.Objects {
			if o.Properties.N < 300 {
				below300++
			}
		}
		return len(page.Objects), below300
	}
	where := `{"match":{"class":"Sweep","where":{"path":["n"],"operator":"LessThan","valueInt":300}}%s}`

	t.Run("the server itself stops at its limit: one request deletes 100 of 300 matches", func(t *testing.T) {
		seed(t)
		var out struct {
			Results struct {
				Matches, Limit, Successful int
			} `json:"results"`
		}
		if err := n.DoJSON(ctx, http.MethodDelete, "/v1/batch/objects", json.RawMessage(fmt.Sprintf(where, "")), &out); err != nil {
			t.Fatal(err)
		}
		if out.Results.Successful != 100 || out.Results.Limit != 100 {
			t.Fatalf("the bare server deleted %d with limit %d; this test's premise (a capped delete) no longer holds", out.Results.Successful, out.Results.Limit)
		}
	})

	d := open(t, n, nil)
	t.Run("the driver deletes all 300 matches and says so; the 50 others stay", func(t *testing.T) {
		seed(t)
		r, err := d.Execute(ctx, "DELETE /v1/batch/objects "+fmt.Sprintf(where, ""), driver.ExecOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Tag != "DELETE 300" || !strings.Contains(r.Notice, "deleted 300 objects in 4 requests") {
			t.Fatalf("tag %q, notice %q", r.Tag, r.Notice)
		}
		if !strings.Contains(string(r.JSON), `"successful": 300`) || !strings.Contains(string(r.JSON), `"requests": 4`) {
			t.Fatalf("answer %s", r.JSON)
		}
		if kept, below := remaining(t); kept != 50 || below != 0 {
			t.Fatalf("the node holds %d objects, %d of them matching; want the 50 that did not match", kept, below)
		}
	})
	t.Run("a dry run deletes nothing and says at least how many match", func(t *testing.T) {
		seed(t)
		r, err := d.Execute(ctx, "DELETE /v1/batch/objects "+fmt.Sprintf(where, `,"dryRun":true`), driver.ExecOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(r.Tag, "DRY RUN ") || !strings.Contains(r.Notice, "nothing deleted") {
			t.Fatalf("tag %q, notice %q", r.Tag, r.Notice)
		}
		var count struct {
			Objects []any `json:"objects"`
		}
		if err := n.DoJSON(ctx, http.MethodGet, "/v1/objects?class="+class+"&limit=100", nil, &count); err != nil || len(count.Objects) != 100 {
			t.Fatalf("after a dry run the node lists %d objects (%v), want a full page of 100", len(count.Objects), err)
		}
	})
	t.Run("a filter that matches fewer than the limit is one request", func(t *testing.T) {
		seed(t)
		r, err := d.Execute(ctx, `DELETE /v1/batch/objects {"match":{"class":"Sweep","where":{"path":["n"],"operator":"GreaterThanEqual","valueInt":340}}}`, driver.ExecOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Tag != "DELETE 10" || !strings.Contains(r.Notice, "in 1 request") {
			t.Fatalf("tag %q, notice %q", r.Tag, r.Notice)
		}
	})
}
