package driver

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Description is what a driver plugin says about the connections it serves (contract 3,
// item 1), in the manner of Terraform's provider schema: the host renders the connection
// form, the CLI's flags and Settings from it, and knows nothing of a database it does not
// read here.
type Description struct {
	// Types are the connection types the plugin serves, with the words the chooser shows.
	Types []ConnectionType `json:"types"`
	// Settings are the fields of one connection, in the order the form shows them.
	Settings []SettingField `json:"settings"`
	// Suggestions are what the form offers as fields change (a hosted host suggests its
	// port, TLS and a key).
	Suggestions []Suggestion `json:"suggestions,omitempty"`
	// Address are the keys whose values say where a connection points (host and port, or a
	// file's path), joined for the sidebar and list_connections.
	Address []string `json:"address,omitempty"`
	// Words are what AI clients read about these connections; nil says nothing.
	Words *Words `json:"words,omitempty"`
	// URL is how a connection URL fills the settings, where the database has one; nil none.
	URL *URLForm `json:"url,omitempty"`
}

// Valid checks the description itself, as the host does before it draws or saves anything
// from it: today, that a URL form fills only its settings.
func (d Description) Valid() error {
	return d.checkURLForm()
}

// Words are what AI clients read about a type's connections: the MCP server's instructions,
// list_connections and the prompts say them for each connection of the type.
type Words struct {
	// Language is what execute_query takes, in a few words ("SQL (PostgreSQL 18)").
	Language string `json:"language"`
	// Table and Row are what the database calls them ("collection", "object"); "" is the
	// plain words.
	Table string `json:"table,omitempty"`
	Row   string `json:"row,omitempty"`
	// Instructions are a sentence or two for the server's instructions: how to read and
	// write, with a short example of each.
	Instructions string `json:"instructions,omitempty"`
	// Notes are the prompts' paragraph on how this database is queried, with examples.
	Notes string `json:"notes,omitempty"`
	// ActivateTenant is the statement that activates a tenant that is not active, for an AI
	// client to run through confirm_destructive_operation: {table} stands for the table,
	// {tenant} for the tenant's name as a JSON string. "" where tenants need no activation.
	ActivateTenant string `json:"activateTenant,omitempty"`
}

// TenantActivation is w's statement activating tenant of table, or "" where it has none.
func (w *Words) TenantActivation(table, tenant string) string {
	if w == nil || w.ActivateTenant == "" {
		return ""
	}
	name, _ := json.Marshal(tenant)
	return strings.NewReplacer("{table}", table, "{tenant}", string(name)).Replace(w.ActivateTenant)
}

// ConnectionType is one type of connection a plugin serves.
type ConnectionType struct {
	// Name is the type's id, saved with each connection ("weaviate").
	Name string `json:"name"`
	// Label is its display name; Summary one line for the chooser.
	Label   string `json:"label"`
	Summary string `json:"summary,omitempty"`
}

// FieldKind is how a setting is entered and checked.
type FieldKind string

// The kinds of a setting field.
const (
	FieldText   FieldKind = "text"
	FieldInt    FieldKind = "int"
	FieldBool   FieldKind = "bool"
	FieldEnum   FieldKind = "enum"
	FieldSecret FieldKind = "secret" // kept in the keyring, never in a file or sent back
	FieldPath   FieldKind = "path"   // a file on this machine, chosen with the open dialog
)

// FieldKinds lists every field kind.
func FieldKinds() []FieldKind {
	return []FieldKind{FieldText, FieldInt, FieldBool, FieldEnum, FieldSecret, FieldPath}
}

// FormatHost is SettingField.Format for a host name: no scheme, path, user or spaces.
const FormatHost = "host"

// SettingField is one field of a connection's settings.
type SettingField struct {
	// Key names the value in the settings (SetValue/Value) and on the CLI (--set key=value).
	Key   string    `json:"key"`
	Label string    `json:"label"`
	Kind  FieldKind `json:"kind"`
	// Default is a new connection's value ("" for none; "true"/"false" for a bool).
	Default     string `json:"default,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	Help        string `json:"help,omitempty"`
	// Required: the field must have a value (when it applies, see ShowWhen).
	Required bool `json:"required,omitempty"`
	// Section groups fields apart from the main ones ("Advanced"); "" is the main group.
	Section string `json:"section,omitempty"`
	// Options are an enum's values, in order; OptionHelp may say a word about each.
	Options    []string          `json:"options,omitempty"`
	OptionHelp map[string]string `json:"optionHelp,omitempty"`
	// Min and Max bound an int (both 0: no bound). An int that is not Required may be empty.
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
	// Format is a text's shape the host checks (FormatHost), "" for any text.
	Format string `json:"format,omitempty"`
	// ShowWhen: the field applies only while another field has one of some values; it is
	// hidden, not checked and not saved otherwise.
	ShowWhen *Condition `json:"showWhen,omitempty"`
}

// Condition is a field's value being one of some values.
type Condition struct {
	Key string   `json:"key"`
	In  []string `json:"in"`
}

// Holds reports whether the condition holds for the settings.
func (c *Condition) Holds(s Settings) bool {
	if c == nil {
		return true
	}
	v := s.Value(c.Key)
	for _, w := range c.In {
		if v == w {
			return true
		}
	}
	return false
}

// Suggestion is what the form offers when a field's value ends with one of some suffixes
// (case-insensitive), while the settings differ from what it would set.
type Suggestion struct {
	Key      string            `json:"key"`
	Suffixes []string          `json:"suffixes"`
	Set      map[string]string `json:"set"`
	// Text says why; Action is the button that applies Set.
	Text   string `json:"text"`
	Action string `json:"action"`
}

// Field returns the field with this key.
func (d Description) Field(key string) (SettingField, bool) {
	for _, f := range d.Settings {
		if f.Key == key {
			return f, true
		}
	}
	return SettingField{}, false
}

// Serves reports whether the description serves a connection type.
func (d Description) Serves(connType string) bool {
	_, ok := d.Type(connType)
	return ok
}

// Type returns the connection type of that name.
func (d Description) Type(connType string) (ConnectionType, bool) {
	for _, t := range d.Types {
		if t.Name == connType {
			return t, true
		}
	}
	return ConnectionType{}, false
}

// AddressOf is where a connection points, from the description's Address keys: "host:port"
// for a host and a port (an IPv6 literal bracketed), else the values joined by a space.
func (d Description) AddressOf(s Settings) string {
	var parts []string
	for _, k := range d.Address {
		if v := s.Value(k); v != "" && v != "0" {
			parts = append(parts, v)
		}
	}
	if len(d.Address) == 2 && len(parts) == 2 {
		if f, ok := d.Field(d.Address[1]); ok && f.Kind == FieldInt {
			h := parts[0]
			if strings.Contains(h, ":") {
				h = "[" + h + "]"
			}
			return h + ":" + parts[1]
		}
	}
	return strings.Join(parts, " ")
}

// Defaults are the settings of a new connection: each field's default.
func (d Description) Defaults() Settings {
	var s Settings
	for _, f := range d.Settings {
		if f.Default != "" && f.Kind != FieldSecret {
			_ = s.SetValue(f.Key, f.Default)
		}
	}
	return s
}

// Applies reports whether a field applies to the settings (its ShowWhen holds).
func (f SettingField) Applies(s Settings) bool { return f.ShowWhen.Holds(s) }

// Check validates settings against the description: each applying field's kind, bounds,
// options, format and presence. saved tells whether a secret is already in the keyring (an
// edit that does not retype it). The error is KindInvalidArgument with Field set to the key.
func (d Description) Check(s Settings, saved func(key string) bool) error {
	for _, f := range d.Settings {
		if !f.Applies(s) {
			continue
		}
		if err := f.check(s, saved, d); err != nil {
			return err
		}
	}
	return nil
}

func (f SettingField) check(s Settings, saved func(key string) bool, d Description) error {
	bad := func(format string, args ...any) error {
		e := Errorf(KindInvalidArgument, format, args...)
		e.Field = f.Key
		return e
	}
	if f.Kind == FieldSecret {
		if f.Required && s.Secret(f.Key) == "" && (saved == nil || !saved(f.Key)) {
			if f.ShowWhen != nil {
				return bad("%s is required when %s", f.Label, f.whenText(d))
			}
			return bad("%s is required", f.Label)
		}
		return nil
	}
	v := strings.TrimSpace(s.Value(f.Key))
	switch f.Kind {
	case FieldInt:
		n, err := strconv.Atoi(v)
		if v == "" || (err == nil && n == 0 && !f.Required) {
			if f.Required {
				return bad("%s is required", f.Label)
			}
			return nil
		}
		if err != nil && f.Min == 0 && f.Max == 0 {
			return bad("%s must be a whole number", f.Label)
		}
		if err != nil || (f.Min != 0 || f.Max != 0) && (n < f.Min || n > f.Max) {
			if f.Required {
				return bad("%s must be between %d and %d", f.Label, f.Min, f.Max)
			}
			return bad("%s must be between %d and %d (or empty for the default)", f.Label, f.Min, f.Max)
		}
	case FieldBool:
		if v != "" && v != "true" && v != "false" {
			return bad("%s must be true or false", f.Label)
		}
	case FieldEnum:
		if v == "" {
			if f.Required {
				return bad("%s is required", f.Label)
			}
			return nil
		}
		for _, o := range f.Options {
			if v == o {
				return nil
			}
		}
		return bad("%s %q is not one of %s", f.Label, v, strings.Join(f.Options, ", "))
	default:
		if v == "" {
			if f.Required {
				return bad("%s is required", f.Label)
			}
			return nil
		}
		if f.Format == FormatHost {
			switch {
			case strings.Contains(v, "://"):
				return bad("%s must be a host name without a scheme", f.Label)
			case strings.ContainsAny(v, "/?#@ "):
				return bad("%s must be a host name, without path, user or spaces", f.Label)
			}
		}
	}
	return nil
}

func (f SettingField) whenText(d Description) string {
	if f.ShowWhen == nil || len(f.ShowWhen.In) == 0 {
		return ""
	}
	label := f.ShowWhen.Key
	if o, ok := d.Field(label); ok {
		label = o.Label
	}
	return fmt.Sprintf("%s is %s", label, strings.Join(f.ShowWhen.In, " or "))
}

// Secrets lists the keys of the description's secret fields.
func (d Description) Secrets() []string {
	var out []string
	for _, f := range d.Settings {
		if f.Kind == FieldSecret {
			out = append(out, f.Key)
		}
	}
	return out
}
