package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

func textResource(uri, name, text string, ttl time.Duration) Resource {
	return Resource{URI: uri, Name: name, MIMEType: "text/plain", TTL: ttl,
		Read: func(context.Context, string) ([]ResourceContents, error) {
			return []ResourceContents{{URI: uri, MIMEType: "text/plain", Text: text}}, nil
		}}
}

// A template over app://things/{id}/rows/{table}; only id "t1" exists.
func thingsTemplate() ResourceTemplate {
	return ResourceTemplate{URITemplate: "app://things/{id}/rows/{table}", Name: "rows", MIMEType: "application/json",
		TTL: time.Hour, // above the cap: clamped to 300 s
		Read: func(_ context.Context, uri string, vars map[string]string) ([]ResourceContents, error) {
			if vars["id"] != "t1" {
				return nil, ErrUnknownResource
			}
			return []ResourceContents{{URI: uri, Text: vars["id"] + "/" + vars["table"]}}, nil
		},
		Complete: func(_ context.Context, variable, prefix string, _ map[string]string) ([]string, error) {
			if variable == "id" {
				return []string{"t1", "t2", "x9"}, nil
			}
			return nil, nil
		}}
}

// SPEC.md B "Cache hints" and "Errors": resources/list (30 s, private),
// resources/templates/list (1 h, public), resources/read (5 s to 300 s by
// URI, private); an unknown resource URI is -32602 with no code of its own.
func TestResources(t *testing.T) {
	ts := startServer(t, Options{
		Resources: []Resource{
			textResource("app://short", "short", "s", time.Second), // below the floor: clamped to 5 s
			textResource("app://plain", "plain", "p", 0),
		},
		ResourceTemplates: []ResourceTemplate{thingsTemplate()},
	})
	t.Run("resources/list lists each resource with uri, name and mimeType, ttlMs 30000 private", func(t *testing.T) {
		r := ts.call(t, 1, "resources/list", nil)
		list := r.rpc.Result["resources"].([]any)
		first := list[0].(map[string]any)
		if len(list) != 2 || first["uri"] != "app://short" || first["name"] != "short" || first["mimeType"] != "text/plain" ||
			r.rpc.Result["ttlMs"] != float64(30000) || r.rpc.Result["cacheScope"] != "private" {
			t.Fatalf("%s", r.body)
		}
	})
	t.Run("resources/templates/list lists the template, ttlMs 3600000 public", func(t *testing.T) {
		r := ts.call(t, 1, "resources/templates/list", nil)
		list := r.rpc.Result["resourceTemplates"].([]any)
		if len(list) != 1 || list[0].(map[string]any)["uriTemplate"] != "app://things/{id}/rows/{table}" ||
			r.rpc.Result["ttlMs"] != float64(3600000) || r.rpc.Result["cacheScope"] != "public" {
			t.Fatalf("%s", r.body)
		}
	})
	reads := []struct {
		name, uri, text string
		ttl             float64
	}{
		{"a resource's TTL below 5 s is raised to 5000", "app://short", "s", 5000},
		{"a resource without a TTL gets the method's 60000", "app://plain", "p", 60000},
		{"a template's TTL above 300 s is capped at 300000, its variables filled", "app://things/t1/rows/Article", "t1/Article", 300000},
	}
	for _, c := range reads {
		t.Run("resources/read: "+c.name, func(t *testing.T) {
			r := ts.call(t, 1, "resources/read", map[string]any{"uri": c.uri})
			contents := r.rpc.Result["contents"].([]any)
			if len(contents) != 1 || contents[0].(map[string]any)["text"] != c.text ||
				r.rpc.Result["ttlMs"] != c.ttl || r.rpc.Result["cacheScope"] != "private" || r.rpc.Result["resultType"] != "complete" {
				t.Fatalf("%s", r.body)
			}
		})
	}
	for _, uri := range []string{"app://nope", "app://things/t2/rows/Article", "app://things/t1/rows/a/b", "app://things//rows/x"} {
		t.Run("resources/read of "+uri+" names nothing: -32602 with data.uri", func(t *testing.T) {
			r := ts.call(t, 1, "resources/read", map[string]any{"uri": uri})
			if r.status != 400 || r.code() != CodeInvalidParams || r.rpc.Error.Data["uri"] != uri {
				t.Fatalf("%s", r.body)
			}
		})
	}
	t.Run("resources/read without a uri is -32602", func(t *testing.T) {
		if r := ts.call(t, 1, "resources/read", map[string]any{"uri": ""}); r.code() != CodeInvalidParams {
			t.Fatalf("%s", r.body)
		}
	})
}

// The shaped-list cache is keyed by the registry version: a resource added
// or removed while the server runs shows in the very next resources/list
// (resources.listChanged is advertised, so a stale list would be a lie).
func TestResourcesListIsNeverStaleAfterARegistryChange(t *testing.T) {
	ts := startServer(t, Options{Resources: []Resource{textResource("app://a", "a", "a", 0)}})
	names := func() []string {
		r := ts.call(t, 1, "resources/list", nil)
		var out []string
		for _, x := range r.rpc.Result["resources"].([]any) {
			out = append(out, x.(map[string]any)["name"].(string))
		}
		return out
	}
	if got := names(); fmt.Sprint(got) != "[a]" {
		t.Fatalf("before: %v", got)
	}
	_ = names() // served from the cache now
	if err := ts.AddResource(textResource("app://b", "b", "b", 0)); err != nil {
		t.Fatal(err)
	}
	t.Run("an added resource is listed at once", func(t *testing.T) {
		if got := names(); fmt.Sprint(got) != "[a b]" {
			t.Fatalf("after add: %v", got)
		}
	})
	t.Run("a removed resource is gone at once, and no longer readable", func(t *testing.T) {
		if !ts.RemoveResource("app://a") {
			t.Fatal("not removed")
		}
		if got := names(); fmt.Sprint(got) != "[b]" {
			t.Fatalf("after remove: %v", got)
		}
		if r := ts.call(t, 1, "resources/read", map[string]any{"uri": "app://a"}); r.code() != CodeInvalidParams {
			t.Fatalf("%s", r.body)
		}
	})
	t.Run("a URI registered twice is refused", func(t *testing.T) {
		if err := ts.AddResource(textResource("app://b", "b2", "b", 0)); err == nil {
			t.Fatal("duplicate accepted")
		}
	})
}

// SPEC.md B "Pagination" for resources/list: 50 a page, then nextCursor.
func TestResourcesListPages(t *testing.T) {
	var res []Resource
	for i := 0; i < 60; i++ {
		res = append(res, textResource(fmt.Sprintf("app://r/%02d", i), fmt.Sprintf("r%02d", i), "x", 0))
	}
	ts := startServer(t, Options{Resources: res})
	r := ts.call(t, 1, "resources/list", nil)
	next, _ := r.rpc.Result["nextCursor"].(string)
	if len(r.rpc.Result["resources"].([]any)) != PageSize || next == "" {
		t.Fatalf("%s", r.body)
	}
	r = ts.call(t, 2, "resources/list", map[string]any{"cursor": next})
	if len(r.rpc.Result["resources"].([]any)) != 10 || r.rpc.Result["nextCursor"] != nil {
		t.Fatalf("%s", r.body)
	}
}

// Resource tables with nothing registered: lists are empty, every URI is
// unknown.
func TestEmptyResourceTables(t *testing.T) {
	ts := startServer(t, Options{})
	for _, m := range []string{"resources/list", "resources/templates/list"} {
		t.Run(m+" is an empty list", func(t *testing.T) {
			r := ts.call(t, 1, m, nil)
			field := map[string]string{"resources/list": "resources", "resources/templates/list": "resourceTemplates"}[m]
			if list, ok := r.rpc.Result[field].([]any); r.status != 200 || !ok || len(list) != 0 {
				t.Fatalf("%s", r.body)
			}
		})
	}
	if r := ts.call(t, 1, "resources/read", map[string]any{"uri": "app://x"}); r.code() != CodeInvalidParams || r.status != 400 {
		t.Fatalf("%s", r.body)
	}
}

// RFC 6570 level 1 templates: each {variable} is one non-empty segment.
func TestURITemplates(t *testing.T) {
	cases := []struct {
		tmpl, uri string
		want      map[string]string
	}{
		{"app://c/{id}", "app://c/x1", map[string]string{"id": "x1"}},
		{"app://c/{id}/t/{table}", "app://c/x1/t/Article", map[string]string{"id": "x1", "table": "Article"}},
		{"app://c/{id}/schema", "app://c/x1/schema", map[string]string{"id": "x1"}},
		{"app://c/{id}", "app://c/", nil},
		{"app://c/{id}", "app://c/a/b", nil},
		{"app://c/{id}/schema", "app://c/x1/other", nil},
		{"app://c/{id}", "app://d/x1", nil},
	}
	for _, c := range cases {
		t.Run(c.tmpl+" against "+c.uri, func(t *testing.T) {
			parts, err := parseURITemplate(c.tmpl)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := (&resourceTemplate{parts: parts}).match(c.uri)
			if ok != (c.want != nil) || fmt.Sprint(got) != fmt.Sprint(c.want) && c.want != nil {
				t.Fatalf("got %v %v, want %v", got, ok, c.want)
			}
		})
	}
	for _, bad := range []string{"", "app://{", "app://{}", "app://{a/b}", "app://{a}{b}"} {
		t.Run("template "+bad+" is refused", func(t *testing.T) {
			if _, err := parseURITemplate(bad); err == nil {
				t.Fatal("accepted")
			}
		})
	}
	t.Run("NewServer refuses a template without a reader", func(t *testing.T) {
		_, err := NewServer(Options{ResourceTemplates: []ResourceTemplate{{URITemplate: "app://{x}", Name: "x"}}})
		if err == nil || !strings.Contains(err.Error(), "app://{x}") {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("contents encode blobs as base64", func(t *testing.T) {
		b, _ := json.Marshal(ResourceContents{URI: "u", Blob: []byte{0, 1, 2}})
		if string(b) != `{"uri":"u","blob":"AAEC"}` {
			t.Fatalf("%s", b)
		}
	})
}
