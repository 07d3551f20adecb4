package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Resource is one concrete resource: listed by resources/list, read by
// resources/read.
type Resource struct {
	// URI is the resource's unique address.
	URI         string
	Name        string
	Title       string
	Description string
	MIMEType    string
	// TTL is the resources/read cache hint for this URI (SPEC.md B "Cache
	// hints": between 5 s and 300 s); 0 takes the method's default, 60 s.
	TTL time.Duration
	// Subscribable resources may be named in subscriptions/listen
	// resourceSubscriptions.
	Subscribable bool
	// Read returns the contents.
	Read func(ctx context.Context, uri string) ([]ResourceContents, error)
}

// ResourceTemplate is a parameterised resource: its URITemplate has
// {variable} parts (RFC 6570 level 1), each matching one non-empty path
// segment (no "/").
type ResourceTemplate struct {
	URITemplate string
	Name        string
	Title       string
	Description string
	MIMEType    string
	TTL         time.Duration
	// Subscribable: a URI the template matches may be named in subscriptions/listen
	// resourceSubscriptions (Options.OnSubscribe may still refuse it).
	Subscribable bool
	// Read serves a URI the template matches, with its variables. It
	// returns ErrUnknownResource when the variables name nothing.
	Read func(ctx context.Context, uri string, vars map[string]string) ([]ResourceContents, error)
	// Complete suggests values for a variable starting with prefix
	// (completion/complete with ref/resource); nil suggests nothing.
	Complete func(ctx context.Context, variable, prefix string, chosen map[string]string) ([]string, error)
}

// ResourceContents is one item of a resources/read result: text, or a blob
// (base64 on the wire).
type ResourceContents struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     []byte `json:"blob,omitempty"`
}

// ErrUnknownResource is returned by a reader for a URI that names nothing;
// the client gets -32602 (SPEC.md B "Errors": an unknown resource has no
// code of its own).
var ErrUnknownResource = errors.New("mcp: unknown resource")

// resourceRegistry holds the resources (which change at run time: every
// change bumps version, and version is part of every cached list page) and
// the templates (fixed at NewServer, so templates/list is cacheable as
// public for an hour).
type resourceRegistry struct {
	mu        sync.RWMutex
	byURI     map[string]*Resource
	order     []*Resource
	version   uint64
	templates []*resourceTemplate
}

type resourceTemplate struct {
	ResourceTemplate
	parts []string // literal text and "{var}" parts, alternating
}

func newResourceRegistry(resources []Resource, templates []ResourceTemplate) (*resourceRegistry, error) {
	r := &resourceRegistry{byURI: map[string]*Resource{}}
	for _, res := range resources {
		if err := r.add(res); err != nil {
			return nil, err
		}
	}
	for _, t := range templates {
		parts, err := parseURITemplate(t.URITemplate)
		if err != nil || t.Name == "" || t.Read == nil {
			return nil, fmt.Errorf("mcp: resource template %q needs a valid URI template, a name and a reader (%v)", t.URITemplate, err)
		}
		r.templates = append(r.templates, &resourceTemplate{ResourceTemplate: t, parts: parts})
	}
	return r, nil
}

func (r *resourceRegistry) add(res Resource) error {
	if res.URI == "" || res.Name == "" || res.Read == nil {
		return fmt.Errorf("mcp: resource %q needs a URI, a name and a reader", res.URI)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byURI[res.URI]; dup {
		return fmt.Errorf("mcp: resource %q registered twice", res.URI)
	}
	p := &res
	r.byURI[res.URI] = p
	r.order = append(r.order, p)
	r.version++
	return nil
}

func (r *resourceRegistry) remove(uri string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	p, ok := r.byURI[uri]
	if !ok {
		return false
	}
	delete(r.byURI, uri)
	for i, q := range r.order {
		if q == p {
			r.order = append(r.order[:i:i], r.order[i+1:]...)
			break
		}
	}
	r.version++
	return true
}

// snapshot is the resource list and the version it belongs to.
func (r *resourceRegistry) snapshot() ([]*Resource, uint64) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.order, r.version
}

func (r *resourceRegistry) lookup(uri string) *Resource {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.byURI[uri]
}

// subscribable tells whether uri is a subscribable resource, or matches a subscribable
// template.
func (r *resourceRegistry) subscribable(uri string) bool {
	if res := r.lookup(uri); res != nil {
		return res.Subscribable
	}
	for _, t := range r.templates {
		if _, ok := t.match(uri); ok {
			return t.Subscribable
		}
	}
	return false
}

// template finds the template with exactly this URI template text.
func (r *resourceRegistry) template(uriTemplate string) *resourceTemplate {
	for _, t := range r.templates {
		if t.URITemplate == uriTemplate {
			return t
		}
	}
	return nil
}

// AddResource registers a resource while the server runs; resources/list
// shows it at once (no page cached before the change is served again).
func (s *Server) AddResource(res Resource) error { return s.resources.add(res) }

// RemoveResource unregisters the resource with this URI; it reports whether
// one was there.
func (s *Server) RemoveResource(uri string) bool { return s.resources.remove(uri) }

// parseURITemplate splits "a://{x}/b/{y}" into literal and variable parts.
func parseURITemplate(t string) ([]string, error) {
	var parts []string
	for t != "" {
		open := strings.IndexByte(t, '{')
		if open < 0 {
			parts = append(parts, t)
			break
		}
		end := strings.IndexByte(t[open:], '}')
		if end < 0 {
			return nil, errors.New("unclosed {")
		}
		name := t[open+1 : open+end]
		if name == "" || strings.ContainsAny(name, "{/,+#?&") {
			return nil, fmt.Errorf("variable %q is not a simple name", name)
		}
		if open > 0 {
			parts = append(parts, t[:open])
		} else if len(parts) > 0 && strings.HasPrefix(parts[len(parts)-1], "{") {
			return nil, errors.New("two variables must be separated by literal text")
		}
		parts = append(parts, "{"+name+"}")
		t = t[open+end+1:]
	}
	if len(parts) == 0 {
		return nil, errors.New("empty template")
	}
	return parts, nil
}

// match returns the template's variables for uri, or false.
func (t *resourceTemplate) match(uri string) (map[string]string, bool) {
	vars := map[string]string{}
	rest := uri
	for i, p := range t.parts {
		if !strings.HasPrefix(p, "{") {
			if !strings.HasPrefix(rest, p) {
				return nil, false
			}
			rest = rest[len(p):]
			continue
		}
		// A variable runs to the next literal part (or the end) and is one
		// non-empty segment.
		end := len(rest)
		if i+1 < len(t.parts) {
			end = strings.Index(rest, t.parts[i+1])
			if end < 0 {
				return nil, false
			}
		}
		v := rest[:end]
		if v == "" || strings.Contains(v, "/") {
			return nil, false
		}
		vars[p[1:len(p)-1]] = v
		rest = rest[end:]
	}
	return vars, rest == ""
}

func ttlMs(d time.Duration) any {
	if d <= 0 {
		return nil
	}
	return d.Milliseconds()
}

// handleResourcesList serves resources/list: the resources, 50 a page. The
// page is cached by the registry version, so a change is seen at once.
func (s *Server) handleResourcesList(ctx context.Context, req *Request[ListParams]) (any, error) {
	all, version := s.resources.snapshot()
	start, end, next, e := s.pageBounds(req.Call, req.Params, len(all))
	if e != nil {
		return nil, e
	}
	key := cacheKey{method: "resources/list", era: req.Era, principal: req.Principal.ID, version: version, offset: start}
	return s.shapedOnce(req.Call, key, func() (any, *Error) {
		page := make([]map[string]any, 0, end-start)
		for _, r := range all[start:end] {
			item := map[string]any{"uri": r.URI, "name": r.Name}
			putNonEmpty(item, "title", r.Title)
			putNonEmpty(item, "description", r.Description)
			putNonEmpty(item, "mimeType", r.MIMEType)
			page = append(page, item)
		}
		out := map[string]any{"resources": page}
		if next != "" {
			out["nextCursor"] = next
		}
		return out, nil
	})
}

// handleResourceTemplatesList serves resources/templates/list, 50 a page.
func (s *Server) handleResourceTemplatesList(ctx context.Context, req *Request[ListParams]) (any, error) {
	all := s.resources.templates
	start, end, next, e := s.pageBounds(req.Call, req.Params, len(all))
	if e != nil {
		return nil, e
	}
	key := cacheKey{method: "resources/templates/list", era: req.Era, principal: req.Principal.ID, offset: start}
	return s.shapedOnce(req.Call, key, func() (any, *Error) {
		page := make([]map[string]any, 0, end-start)
		for _, t := range all[start:end] {
			item := map[string]any{"uriTemplate": t.URITemplate, "name": t.Name}
			putNonEmpty(item, "title", t.Title)
			putNonEmpty(item, "description", t.Description)
			putNonEmpty(item, "mimeType", t.MIMEType)
			page = append(page, item)
		}
		out := map[string]any{"resourceTemplates": page}
		if next != "" {
			out["nextCursor"] = next
		}
		return out, nil
	})
}

// handleResourcesRead serves resources/read: a registered resource, else the
// first template that matches the URI; an unknown URI is -32602.
func (s *Server) handleResourcesRead(ctx context.Context, req *Request[ReadResourceParams]) (any, error) {
	uri := req.Params.URI
	var contents []ResourceContents
	var err error
	var ttl time.Duration
	if r := s.resources.lookup(uri); r != nil {
		contents, err = r.Read(ctx, uri)
		ttl = r.TTL
	} else {
		found := false
		for _, t := range s.resources.templates {
			if vars, ok := t.match(uri); ok {
				contents, err = t.Read(ctx, uri, vars)
				ttl, found = t.TTL, true
				break
			}
		}
		if !found {
			err = ErrUnknownResource
		}
	}
	if errors.Is(err, ErrUnknownResource) {
		return nil, NewError(CodeInvalidParams, "invalid params: unknown resource", map[string]any{"uri": truncate(uri, 200)})
	}
	if err != nil {
		return nil, err
	}
	if contents == nil {
		contents = []ResourceContents{}
	}
	out := map[string]any{"contents": contents}
	if v := ttlMs(ttl); v != nil {
		out[fieldTTL] = v
	}
	return out, nil
}

func putNonEmpty(m map[string]any, k, v string) {
	if v != "" {
		m[k] = v
	}
}
