package mcp

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// Prompt is one entry of the prompt table: listed by prompts/list, rendered
// by prompts/get, its arguments completed by completion/complete.
type Prompt struct {
	Name        string
	Title       string
	Description string
	Arguments   []PromptArgument
	// Get renders the prompt for validated arguments (every required one
	// present, no unknown one). A *Error is a protocol error; any other
	// error is -32603.
	Get func(ctx context.Context, args map[string]string) (*PromptResult, error)
	// Complete suggests values for an argument starting with prefix, given
	// the arguments already chosen; nil suggests nothing.
	Complete func(ctx context.Context, argument, prefix string, chosen map[string]string) ([]string, error)
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// PromptResult is what prompts/get returns.
type PromptResult struct {
	Description string
	Messages    []PromptMessage
}

// PromptMessage is one message of a rendered prompt: text, or any content
// block (an image, an embedded resource, ...).
type PromptMessage struct {
	// Role is "user" or "assistant".
	Role string
	Text string
	// Content, when set, is the message's content block; Text is then not used.
	Content *Content
}

// promptRegistry is the prompt table, fixed at NewServer
// (prompts.listChanged is false).
type promptRegistry struct {
	byName map[string]*Prompt
	order  []*Prompt
}

func newPromptRegistry(prompts []Prompt) (*promptRegistry, error) {
	r := &promptRegistry{byName: map[string]*Prompt{}}
	for _, p := range prompts {
		if p.Name == "" || p.Get == nil {
			return nil, fmt.Errorf("mcp: prompt %q needs a name and a renderer", p.Name)
		}
		if _, dup := r.byName[p.Name]; dup {
			return nil, fmt.Errorf("mcp: prompt %q registered twice", p.Name)
		}
		r.byName[p.Name] = &p
		r.order = append(r.order, &p)
	}
	return r, nil
}

// MaxCompletionValues is the most values completion/complete returns.
const MaxCompletionValues = 100

// handlePromptsList serves prompts/list, 50 a page.
func (s *Server) handlePromptsList(ctx context.Context, req *Request[ListParams]) (any, error) {
	all := s.prompts.order
	start, end, next, e := s.pageBounds(req.Call, req.Params, len(all))
	if e != nil {
		return nil, e
	}
	key := cacheKey{method: "prompts/list", era: req.Era, principal: req.Principal.ID, offset: start}
	return s.shapedOnce(req.Call, key, func() (any, *Error) {
		page := make([]map[string]any, 0, end-start)
		for _, p := range all[start:end] {
			item := map[string]any{"name": p.Name}
			putNonEmpty(item, "title", p.Title)
			putNonEmpty(item, "description", p.Description)
			if len(p.Arguments) > 0 {
				item["arguments"] = p.Arguments
			}
			page = append(page, item)
		}
		out := map[string]any{"prompts": page}
		if next != "" {
			out["nextCursor"] = next
		}
		return out, nil
	})
}

func errUnknownPrompt(name string) *Error {
	return invalidParams("unknown prompt " + truncate(name, 100))
}

// handlePromptsGet serves prompts/get: an unknown prompt, a missing
// required argument or an unknown argument is -32602.
func (s *Server) handlePromptsGet(ctx context.Context, req *Request[GetPromptParams]) (any, error) {
	p := s.prompts.byName[req.Params.Name]
	if p == nil {
		return nil, errUnknownPrompt(req.Params.Name)
	}
	args := req.Params.Arguments
	known := map[string]bool{}
	for _, a := range p.Arguments {
		known[a.Name] = true
		if a.Required && strings.TrimSpace(args[a.Name]) == "" {
			return nil, invalidParams("argument " + a.Name + " is required")
		}
	}
	for name := range args {
		if !known[name] {
			return nil, invalidParams("unknown argument " + truncate(name, 100))
		}
	}
	if args == nil {
		args = map[string]string{}
	}
	res, err := p.Get(ctx, args)
	if err != nil {
		return nil, err
	}
	msgs := make([]map[string]any, 0, len(res.Messages))
	for _, m := range res.Messages {
		var content any = map[string]any{"type": "text", "text": m.Text}
		if m.Content != nil {
			content = *m.Content
		}
		msgs = append(msgs, map[string]any{"role": m.Role, "content": content})
	}
	out := map[string]any{"messages": msgs}
	putNonEmpty(out, "description", res.Description)
	return out, nil
}

// handleComplete serves completion/complete for a prompt's argument or a
// resource template's variable: at most MaxCompletionValues values that
// start with the typed prefix, with the total and whether more exist.
func (s *Server) handleComplete(ctx context.Context, req *Request[CompleteParams]) (any, error) {
	ref, arg := req.Params.Ref, req.Params.Argument
	chosen := req.Params.Context.Arguments
	var values []string
	var err error
	switch ref.Type {
	case "ref/prompt":
		p := s.prompts.byName[ref.Name]
		if p == nil {
			return nil, errUnknownPrompt(ref.Name)
		}
		if !promptHasArgument(p, arg.Name) {
			return nil, invalidParams("prompt " + p.Name + " has no argument " + truncate(arg.Name, 100))
		}
		if p.Complete != nil {
			values, err = p.Complete(ctx, arg.Name, arg.Value, chosen)
		}
	case "ref/resource":
		t := s.resources.template(ref.URI)
		if t == nil {
			return nil, invalidParams("unknown resource")
		}
		if !t.hasVariable(arg.Name) {
			return nil, invalidParams("the template has no variable " + truncate(arg.Name, 100))
		}
		if t.Complete != nil {
			values, err = t.Complete(ctx, arg.Name, arg.Value, chosen)
		}
	default:
		return nil, invalidParams("ref.type must be ref/prompt or ref/resource")
	}
	if err != nil {
		return nil, err
	}
	return completionResult(arg.Value, values), nil
}

func promptHasArgument(p *Prompt, name string) bool {
	for _, a := range p.Arguments {
		if a.Name == name {
			return true
		}
	}
	return false
}

func (t *resourceTemplate) hasVariable(name string) bool {
	for _, p := range t.parts {
		if p == "{"+name+"}" {
			return true
		}
	}
	return false
}

// completionResult keeps the values that start with prefix (case
// insensitive), sorted and without duplicates, capped at
// MaxCompletionValues.
func completionResult(prefix string, values []string) map[string]any {
	seen := map[string]bool{}
	out := []string{}
	lp := strings.ToLower(prefix)
	for _, v := range values {
		if !seen[v] && strings.HasPrefix(strings.ToLower(v), lp) {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	total := len(out)
	if len(out) > MaxCompletionValues {
		out = out[:MaxCompletionValues]
	}
	return map[string]any{"completion": map[string]any{
		"values": out, "total": total, "hasMore": total > len(out),
	}}
}
