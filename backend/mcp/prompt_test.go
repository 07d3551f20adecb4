package mcp

import (
	"context"
	"fmt"
	"testing"
)

func explainPrompt() Prompt {
	return Prompt{
		Name: "explain", Title: "Explain", Description: "explains a table",
		Arguments: []PromptArgument{{Name: "connection", Required: true}, {Name: "table"}},
		Get: func(_ context.Context, args map[string]string) (*PromptResult, error) {
			return &PromptResult{Description: "d", Messages: []PromptMessage{{Role: "user", Text: "explain " + args["connection"] + "/" + args["table"]}}}, nil
		},
		Complete: func(_ context.Context, arg, _ string, chosen map[string]string) ([]string, error) {
			if arg == "table" {
				return []string{"Article", "Author", chosen["connection"] + "-only"}, nil
			}
			var many []string
			for i := 0; i < 150; i++ {
				many = append(many, fmt.Sprintf("c%03d", i))
			}
			return append(many, "Demo"), nil
		},
	}
}

// prompts/list (1 h, public), prompts/get with validated arguments, and
// completion/complete of a prompt's arguments and a template's variables.
func TestPrompts(t *testing.T) {
	ts := startServer(t, Options{Prompts: []Prompt{explainPrompt()}, ResourceTemplates: []ResourceTemplate{thingsTemplate()}})
	t.Run("prompts/list lists name, title, description and arguments, ttlMs 3600000 public", func(t *testing.T) {
		r := ts.call(t, 1, "prompts/list", nil)
		p := r.rpc.Result["prompts"].([]any)[0].(map[string]any)
		args := p["arguments"].([]any)
		if p["name"] != "explain" || p["title"] != "Explain" || len(args) != 2 || args[0].(map[string]any)["required"] != true ||
			r.rpc.Result["ttlMs"] != float64(3600000) || r.rpc.Result["cacheScope"] != "public" {
			t.Fatalf("%s", r.body)
		}
	})
	t.Run("prompts/get renders text messages with the arguments", func(t *testing.T) {
		r := ts.call(t, 1, "prompts/get", map[string]any{"name": "explain", "arguments": map[string]any{"connection": "demo", "table": "Article"}})
		m := r.rpc.Result["messages"].([]any)[0].(map[string]any)
		c := m["content"].(map[string]any)
		if m["role"] != "user" || c["type"] != "text" || c["text"] != "explain demo/Article" || r.rpc.Result["ttlMs"] != nil {
			t.Fatalf("%s", r.body)
		}
	})
	refusals := []struct {
		name   string
		params map[string]any
	}{
		{"an unknown prompt", map[string]any{"name": "nope"}},
		{"a missing required argument", map[string]any{"name": "explain", "arguments": map[string]any{"table": "x"}}},
		{"an unknown argument", map[string]any{"name": "explain", "arguments": map[string]any{"connection": "c", "color": "red"}}},
		{"arguments that are not strings", map[string]any{"name": "explain", "arguments": map[string]any{"connection": 1}}},
	}
	for _, c := range refusals {
		t.Run("prompts/get with "+c.name+" is -32602", func(t *testing.T) {
			if r := ts.call(t, 1, "prompts/get", c.params); r.status != 400 || r.code() != CodeInvalidParams {
				t.Fatalf("%s", r.body)
			}
		})
	}
	complete := func(ref map[string]any, arg, value string, ctx map[string]any) httpReply {
		p := map[string]any{"ref": ref, "argument": map[string]any{"name": arg, "value": value}}
		if ctx != nil {
			p["context"] = map[string]any{"arguments": ctx}
		}
		return ts.call(t, 1, "completion/complete", p)
	}
	values := func(r httpReply) (vals []string, total float64, more bool) {
		c := r.rpc.Result["completion"].(map[string]any)
		for _, v := range c["values"].([]any) {
			vals = append(vals, v.(string))
		}
		return vals, c["total"].(float64), c["hasMore"].(bool)
	}
	prompt := map[string]any{"type": "ref/prompt", "name": "explain"}
	t.Run("completion keeps values starting with the typed prefix, case-insensitive, sorted", func(t *testing.T) {
		v, total, more := values(complete(prompt, "table", "a", map[string]any{"connection": "demo"}))
		if fmt.Sprint(v) != "[Article Author]" || total != 2 || more {
			t.Fatalf("%v %v %v", v, total, more)
		}
	})
	t.Run("completion sees the arguments already chosen", func(t *testing.T) {
		v, _, _ := values(complete(prompt, "table", "de", map[string]any{"connection": "demo"}))
		if fmt.Sprint(v) != "[demo-only]" {
			t.Fatalf("%v", v)
		}
	})
	t.Run("completion returns at most 100 values, with the total and hasMore", func(t *testing.T) {
		v, total, more := values(complete(prompt, "connection", "", nil))
		if len(v) != MaxCompletionValues || total != 151 || !more {
			t.Fatalf("%d %v %v", len(v), total, more)
		}
	})
	t.Run("completion of a resource template's variable", func(t *testing.T) {
		v, _, _ := values(complete(map[string]any{"type": "ref/resource", "uri": "app://things/{id}/rows/{table}"}, "id", "t", nil))
		if fmt.Sprint(v) != "[t1 t2]" {
			t.Fatalf("%v", v)
		}
	})
	for _, c := range []struct {
		name string
		ref  map[string]any
		arg  string
	}{
		{"an unknown prompt", map[string]any{"type": "ref/prompt", "name": "nope"}, "a"},
		{"an argument the prompt does not have", prompt, "color"},
		{"an unknown template", map[string]any{"type": "ref/resource", "uri": "app://nope/{x}"}, "x"},
		{"a variable the template does not have", map[string]any{"type": "ref/resource", "uri": "app://things/{id}/rows/{table}"}, "zz"},
		{"an unknown ref type", map[string]any{"type": "ref/tool", "name": "x"}, "a"},
	} {
		t.Run("completion of "+c.name+" is -32602", func(t *testing.T) {
			if r := complete(c.ref, c.arg, "", nil); r.status != 400 || r.code() != CodeInvalidParams {
				t.Fatalf("%s", r.body)
			}
		})
	}
}

// Prompt tables with nothing registered: the list is empty, every name
// unknown.
func TestEmptyPromptTable(t *testing.T) {
	ts := startServer(t, Options{})
	r := ts.call(t, 1, "prompts/list", nil)
	if list, ok := r.rpc.Result["prompts"].([]any); r.status != 200 || !ok || len(list) != 0 {
		t.Fatalf("%s", r.body)
	}
	for _, c := range []struct {
		m string
		p map[string]any
	}{
		{"prompts/get", map[string]any{"name": "x"}},
		{"completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "x"}, "argument": map[string]any{"name": "a", "value": ""}}},
	} {
		t.Run(c.m+" of an unknown name is -32602", func(t *testing.T) {
			if r := ts.call(t, 1, c.m, c.p); r.code() != CodeInvalidParams || r.status != 400 {
				t.Fatalf("%s", r.body)
			}
		})
	}
}
