package pairing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/tailscale/hujson"
	"gopkg.in/yaml.v3"
)

// A format reads and edits one kind of client config file in place: the app's entry is one
// member of a root table that maps server names to servers. Everything else in the file, the
// other servers, members and comments, is left as it was written; that is the promise a
// person needs before letting a program edit a file they wrote by hand.
type format interface {
	// name is what a person calls the format ("JSON", "TOML", "YAML").
	name() string
	// entry returns the named server under root (nil when absent); doc is the whole file as
	// plain data, for a caller that wants other members.
	entry(b []byte, root, server string) (map[string]any, error)
	// put sets root.server to e, adding root when missing.
	put(b []byte, root, server string, e map[string]any) ([]byte, error)
	// remove deletes root.server; ok is false (and b unchanged) when there was none.
	remove(b []byte, root, server string) (out []byte, ok bool, err error)
	// render is the document {root: {server: e}} alone, to show and to paste.
	render(root, server string, e map[string]any) (string, error)
}

// Formats by the name a Client gives.
const (
	FormatJSON = "json"
	FormatTOML = "toml"
	FormatYAML = "yaml"
)

func formatOf(name string) format {
	switch name {
	case FormatTOML:
		return tomlFormat{}
	case FormatYAML:
		return yamlFormat{}
	}
	return jsonFormat{}
}

// errUnreadable is a file the format cannot parse: the caller says so and changes nothing.
type errUnreadable struct {
	format string
	err    error
}

func (e *errUnreadable) Error() string { return fmt.Sprintf("it is not %s (%v)", e.format, e.err) }

// jsonFormat edits JSON, and JSON with comments and trailing commas (VS Code's and Zed's
// settings files are JSONC), through hujson's syntax tree: the app's member is added or
// replaced where it is, indented like its neighbours, and every other byte is kept.
type jsonFormat struct{}

func (jsonFormat) name() string { return "JSON" }

func (jsonFormat) parse(b []byte) (hujson.Value, *hujson.Object, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		b = []byte("{}\n")
	}
	v, err := hujson.Parse(b)
	if err != nil {
		return v, nil, &errUnreadable{"JSON", err}
	}
	top, ok := v.Value.(*hujson.Object)
	if !ok {
		return v, nil, &errUnreadable{"JSON", errors.New("the top level is not an object")}
	}
	return v, top, nil
}

func (f jsonFormat) entry(b []byte, root, server string) (map[string]any, error) {
	_, top, err := f.parse(b)
	if err != nil {
		return nil, err
	}
	r := jsonMember(top, root)
	if r == nil {
		return nil, nil
	}
	obj, ok := r.Value.Value.(*hujson.Object)
	if !ok {
		return nil, fmt.Errorf("%q is not an object", root)
	}
	m := jsonMember(obj, server)
	if m == nil {
		return nil, nil
	}
	v := m.Value.Clone()
	v.Standardize()
	var e map[string]any
	if err := json.Unmarshal(v.Pack(), &e); err != nil {
		return nil, fmt.Errorf("the %q server is not an object", server)
	}
	return e, nil
}

func (f jsonFormat) put(b []byte, root, server string, e map[string]any) ([]byte, error) {
	v, top, err := f.parse(b)
	if err != nil {
		return nil, err
	}
	unit := jsonIndentUnit(b)
	r := jsonMember(top, root)
	if r == nil {
		if err := jsonAppend(top, root, map[string]any{server: e}, 1, unit); err != nil {
			return nil, err
		}
		return v.Pack(), nil
	}
	obj, ok := r.Value.Value.(*hujson.Object)
	if !ok {
		return nil, fmt.Errorf("%q is not an object", root)
	}
	if m := jsonMember(obj, server); m != nil {
		pv, err := jsonValue(e, 2, unit)
		if err != nil {
			return nil, err
		}
		m.Value.Value = pv.Value
		return v.Pack(), nil
	}
	if err := jsonAppend(obj, server, e, 2, unit); err != nil {
		return nil, err
	}
	return v.Pack(), nil
}

func (f jsonFormat) remove(b []byte, root, server string) ([]byte, bool, error) {
	v, top, err := f.parse(b)
	if err != nil {
		return b, false, err
	}
	r := jsonMember(top, root)
	if r == nil {
		return b, false, nil
	}
	obj, ok := r.Value.Value.(*hujson.Object)
	if !ok {
		return b, false, fmt.Errorf("%q is not an object", root)
	}
	for i := range obj.Members {
		if jsonName(obj.Members[i]) != server {
			continue
		}
		// A comment before the member's line ends (it follows the previous member's comma)
		// belongs to the previous member: it moves to whatever follows.
		before := string(obj.Members[i].Name.BeforeExtra)
		lead := ""
		if j := strings.LastIndex(before, "\n"); j >= 0 {
			lead = before[:j]
		}
		obj.Members = append(obj.Members[:i], obj.Members[i+1:]...)
		if strings.TrimSpace(lead) != "" {
			if i < len(obj.Members) {
				obj.Members[i].Name.BeforeExtra = hujson.Extra(lead + string(obj.Members[i].Name.BeforeExtra))
			} else {
				obj.AfterExtra = hujson.Extra(lead + string(obj.AfterExtra))
			}
		}
		return v.Pack(), true, nil
	}
	return b, false, nil
}

func (jsonFormat) render(root, server string, e map[string]any) (string, error) {
	b, err := json.MarshalIndent(map[string]any{root: map[string]any{server: e}}, "", "  ")
	if err != nil {
		return "", err
	}
	return string(b) + "\n", nil
}

func jsonName(m hujson.ObjectMember) string {
	if l, ok := m.Name.Value.(hujson.Literal); ok {
		return l.String()
	}
	return ""
}

func jsonMember(obj *hujson.Object, name string) *hujson.ObjectMember {
	for i := range obj.Members {
		if jsonName(obj.Members[i]) == name {
			return &obj.Members[i]
		}
	}
	return nil
}

// jsonValue is val as JSON indented for a member at depth (the top object's members are at 1).
func jsonValue(val any, depth int, unit string) (hujson.Value, error) {
	raw, err := json.MarshalIndent(val, strings.Repeat(unit, depth), unit)
	if err != nil {
		return hujson.Value{}, err
	}
	return hujson.Parse(raw)
}

// jsonAppend adds name: val as the object's last member, on a line of its own. A comment that
// followed the old last member's comma stays on that member's line.
func jsonAppend(obj *hujson.Object, name string, val any, depth int, unit string) error {
	pv, err := jsonValue(val, depth, unit)
	if err != nil {
		return err
	}
	ind := strings.Repeat(unit, depth)
	lead, closing := "", "\n"+strings.Repeat(unit, depth-1)
	if len(obj.Members) > 0 {
		after := string(obj.AfterExtra)
		if i := strings.LastIndex(after, "\n"); i >= 0 {
			lead, closing = after[:i], after[i:]
		} else {
			lead = strings.TrimRight(after, " \t")
		}
	}
	obj.Members = append(obj.Members, hujson.ObjectMember{
		Name:  hujson.Value{BeforeExtra: hujson.Extra(lead + "\n" + ind), Value: hujson.String(name)},
		Value: hujson.Value{BeforeExtra: hujson.Extra(" "), Value: pv.Value},
	})
	obj.AfterExtra = hujson.Extra(closing)
	return nil
}

var jsonIndentRe = regexp.MustCompile(`\n([ \t]+)"`)

// jsonIndentUnit is the file's indentation step (its first indented member's), two spaces in
// a new or one-line file.
func jsonIndentUnit(b []byte) string {
	if m := jsonIndentRe.FindSubmatch(b); m != nil {
		return string(m[1])
	}
	return "  "
}

// tomlFormat edits TOML (Codex's config.toml) as lines: the app's table, [root.server], and
// its sub-tables are cut out and the new table is appended, so every other line, comments
// included, stays byte for byte. The result is parsed again before it is written. A server
// defined in a way that line editing cannot replace safely (an inline table, dotted keys) is
// refused, with nothing changed.
type tomlFormat struct{}

func (tomlFormat) name() string { return "TOML" }

func (tomlFormat) decode(b []byte) (map[string]any, error) {
	doc := map[string]any{}
	if _, err := toml.Decode(string(b), &doc); err != nil {
		return nil, &errUnreadable{"TOML", err}
	}
	return doc, nil
}

func (f tomlFormat) entry(b []byte, root, server string) (map[string]any, error) {
	doc, err := f.decode(b)
	if err != nil {
		return nil, err
	}
	servers, _ := doc[root].(map[string]any)
	e, _ := servers[server].(map[string]any)
	return e, nil
}

// tomlHeader matches a table or array-of-tables header line and captures its key.
var tomlHeader = regexp.MustCompile(`^\s*\[\[?\s*(.*?)\s*\]\]?\s*(#.*)?$`)

// tomlKeyPath splits a dotted TOML key (bare or quoted parts) into its parts.
func tomlKeyPath(key string) []string {
	var parts []string
	for key != "" {
		key = strings.TrimLeft(key, " \t")
		var part string
		switch {
		case strings.HasPrefix(key, `"`):
			end := 1
			for end < len(key) && (key[end] != '"' || key[end-1] == '\\') {
				end++
			}
			quoted := key[:min(end+1, len(key))]
			var d map[string]string
			if _, err := toml.Decode("k = "+quoted, &d); err == nil {
				part = d["k"]
			} else {
				part = quoted
			}
			key = key[len(quoted):]
		case strings.HasPrefix(key, `'`):
			end := strings.Index(key[1:], `'`)
			if end < 0 {
				return append(parts, key)
			}
			part, key = key[1:end+1], key[end+2:]
		default:
			end := strings.IndexAny(key, ". \t")
			if end < 0 {
				end = len(key)
			}
			part, key = key[:end], key[end:]
		}
		parts = append(parts, part)
		key = strings.TrimLeft(key, " \t")
		key = strings.TrimPrefix(key, ".")
	}
	return parts
}

// tomlCut returns the lines without the tables at root.server and below, and whether any
// header named them.
func tomlCut(b []byte, root, server string) (out []string, found bool) {
	lines := strings.SplitAfter(string(b), "\n")
	in := false
	// Comment and blank lines at the end of the app's table are held back: they belong to
	// the next table's header when one follows.
	var held []string
	for _, l := range lines {
		trimmed := strings.TrimSpace(l)
		if m := tomlHeader.FindStringSubmatch(strings.TrimRight(l, "\r\n")); m != nil {
			p := tomlKeyPath(m[1])
			wasIn := in
			in = len(p) >= 2 && p[0] == root && p[1] == server
			found = found || in
			if wasIn && !in {
				out = append(out, held...)
			}
			held = nil
		} else if in && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			held = append(held, l)
			continue
		} else if in {
			held = nil
		}
		if !in {
			out = append(out, l)
		}
	}
	return out, found
}

func (f tomlFormat) put(b []byte, root, server string, e map[string]any) ([]byte, error) {
	doc, err := f.decode(b)
	if err != nil {
		return nil, err
	}
	lines, found := tomlCut(b, root, server)
	servers, _ := doc[root].(map[string]any)
	if _, defined := servers[server]; defined && !found {
		return nil, fmt.Errorf("the %q server is defined inline (not as a [%s.%s] table), which the app does not rewrite", server, root, server)
	}
	block, err := f.render(root, server, e)
	if err != nil {
		return nil, err
	}
	text := strings.TrimRight(strings.Join(lines, ""), "\n")
	if text != "" {
		text += "\n\n"
	}
	text += block
	// The edit is checked by parsing: the new entry must read back as written.
	got, err := f.entry([]byte(text), root, server)
	if err != nil {
		return nil, fmt.Errorf("the edited file would not parse (%v)", err)
	}
	if fmt.Sprint(got) != fmt.Sprint(e) {
		return nil, fmt.Errorf("the edited file would not hold the entry as written")
	}
	return []byte(text), nil
}

func (f tomlFormat) remove(b []byte, root, server string) ([]byte, bool, error) {
	doc, err := f.decode(b)
	if err != nil {
		return b, false, err
	}
	servers, _ := doc[root].(map[string]any)
	if _, defined := servers[server]; !defined {
		return b, false, nil
	}
	lines, found := tomlCut(b, root, server)
	if !found {
		return b, false, fmt.Errorf("the %q server is defined inline (not as a [%s.%s] table), which the app does not rewrite", server, root, server)
	}
	text := strings.TrimRight(strings.Join(lines, ""), "\n") + "\n"
	if strings.TrimSpace(text) == "" {
		text = ""
	}
	if _, err := f.decode([]byte(text)); err != nil {
		return b, false, fmt.Errorf("the edited file would not parse (%v)", err)
	}
	return []byte(text), true, nil
}

// render writes one table: plain values first, then each table-valued member inline (env).
func (tomlFormat) render(root, server string, e map[string]any) (string, error) {
	var sb strings.Builder
	fmt.Fprintf(&sb, "[%s.%s]\n", tomlKey(root), tomlKey(server))
	for _, k := range sortedKeys(e) {
		v, err := tomlValue(e[k])
		if err != nil {
			return "", fmt.Errorf("%s: %w", k, err)
		}
		fmt.Fprintf(&sb, "%s = %s\n", tomlKey(k), v)
	}
	return sb.String(), nil
}

var tomlBare = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func tomlKey(k string) string {
	if tomlBare.MatchString(k) {
		return k
	}
	return tomlString(k)
}

// tomlString is a TOML basic string: quotes, backslashes and control characters escaped.
func tomlString(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			sb.WriteByte('\\')
			sb.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&sb, `\u%04X`, r)
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

func tomlValue(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return tomlString(x), nil
	case bool:
		return fmt.Sprint(x), nil
	case int:
		return fmt.Sprint(x), nil
	case []string:
		parts := make([]string, len(x))
		for i, s := range x {
			parts[i] = tomlString(s)
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case float64:
		if x == float64(int64(x)) {
			return fmt.Sprint(int64(x)), nil
		}
		return fmt.Sprint(x), nil
	case []any:
		parts := make([]string, len(x))
		for i, el := range x {
			v, err := tomlValue(el)
			if err != nil {
				return "", err
			}
			parts[i] = v
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case map[string]any:
		parts := make([]string, 0, len(x))
		for _, k := range sortedKeys(x) {
			v, err := tomlValue(x[k])
			if err != nil {
				return "", err
			}
			parts = append(parts, tomlKey(k)+" = "+v)
		}
		return "{ " + strings.Join(parts, ", ") + " }", nil
	case map[string]string:
		parts := make([]string, 0, len(x))
		for _, k := range sortedKeys(x) {
			parts = append(parts, tomlKey(k)+" = "+tomlString(x[k]))
		}
		return "{ " + strings.Join(parts, ", ") + " }", nil
	}
	return "", fmt.Errorf("no TOML form for %T", v)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// yamlFormat edits YAML (Goose's config.yaml) through yaml.v3's node tree, which keeps
// comments; the app's member is replaced or appended under root.
type yamlFormat struct{}

func (yamlFormat) name() string { return "YAML" }

func (yamlFormat) parse(b []byte) (*yaml.Node, *yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, nil, &errUnreadable{"YAML", err}
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, nil, &errUnreadable{"YAML", errors.New("the top level is not a mapping")}
	}
	return &doc, top, nil
}

// yamlMember is the index of key's value in a mapping node's content, -1 when absent.
func yamlMember(m *yaml.Node, key string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return i + 1
		}
	}
	return -1
}

func (f yamlFormat) entry(b []byte, root, server string) (map[string]any, error) {
	_, top, err := f.parse(b)
	if err != nil {
		return nil, err
	}
	r := yamlMember(top, root)
	if r < 0 {
		return nil, nil
	}
	s := yamlMember(top.Content[r], server)
	if s < 0 {
		return nil, nil
	}
	var e map[string]any
	if err := top.Content[r].Content[s].Decode(&e); err != nil {
		return nil, fmt.Errorf("the %q server is not a mapping", server)
	}
	return e, nil
}

func (f yamlFormat) put(b []byte, root, server string, e map[string]any) ([]byte, error) {
	doc, top, err := f.parse(b)
	if err != nil {
		return nil, err
	}
	var val yaml.Node
	if err := val.Encode(e); err != nil {
		return nil, err
	}
	r := yamlMember(top, root)
	if r < 0 {
		top.Content = append(top.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: root},
			&yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"})
		r = len(top.Content) - 1
	}
	servers := top.Content[r]
	if servers.Kind == yaml.ScalarNode && servers.Tag == "!!null" {
		*servers = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	if servers.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%q is not a mapping", root)
	}
	if s := yamlMember(servers, server); s >= 0 {
		val.HeadComment, val.LineComment = servers.Content[s].HeadComment, servers.Content[s].LineComment
		servers.Content[s] = &val
	} else {
		servers.Content = append(servers.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: server}, &val)
	}
	return yamlEncode(doc)
}

func (f yamlFormat) remove(b []byte, root, server string) ([]byte, bool, error) {
	doc, top, err := f.parse(b)
	if err != nil {
		return b, false, err
	}
	r := yamlMember(top, root)
	if r < 0 || top.Content[r].Kind != yaml.MappingNode {
		return b, false, nil
	}
	servers := top.Content[r]
	s := yamlMember(servers, server)
	if s < 0 {
		return b, false, nil
	}
	servers.Content = append(servers.Content[:s-1], servers.Content[s+1:]...)
	out, err := yamlEncode(doc)
	return out, err == nil, err
}

func (yamlFormat) render(root, server string, e map[string]any) (string, error) {
	b, err := yamlEncode(map[string]any{root: map[string]any{server: e}})
	return string(b), err
}

func yamlEncode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
