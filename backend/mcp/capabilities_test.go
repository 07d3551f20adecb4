package mcp

import (
	"reflect"
	"slices"
	"testing"
)

// SPEC.md B "Events", capability flags: tools.listChanged false,
// prompts.listChanged false, resources.listChanged true, resources.subscribe
// true in the modern era and false for legacy clients; and
// subscriptions/listen agrees to exactly what those flags promise.
func TestCapabilitiesAndWhatListenAgreesTo(t *testing.T) {
	s, err := NewServer(Options{Resources: []Resource{
		{URI: "app://watched", Name: "w", Subscribable: true, Read: textResource("app://watched", "w", "", 0).Read},
		textResource("app://plain", "p", "", 0),
	}})
	if err != nil {
		t.Fatal(err)
	}
	flag := func(era Era, group, name string) bool {
		return s.capabilities(era)[group].(map[string]any)[name].(bool)
	}
	t.Run("the flags are the spec's", func(t *testing.T) {
		if flag(EraModern, "tools", "listChanged") || flag(EraModern, "prompts", "listChanged") ||
			!flag(EraModern, "resources", "listChanged") || !flag(EraModern, "resources", "subscribe") ||
			flag(EraLegacy, "resources", "subscribe") {
			t.Fatalf("%v / %v", s.capabilities(EraModern), s.capabilities(EraLegacy))
		}
	})
	var all ListenParams
	all.Notifications.ToolsListChanged = true
	all.Notifications.PromptsListChanged = true
	all.Notifications.ResourcesListChanged = true
	all.Notifications.ResourceSubscriptions = []string{"app://watched", "app://plain", "app://unknown"}
	agreed := s.agreedNotifications(all)
	cases := []struct {
		kind, group, flag string
	}{
		{"toolsListChanged", "tools", "listChanged"},
		{"promptsListChanged", "prompts", "listChanged"},
		{"resourcesListChanged", "resources", "listChanged"},
	}
	for _, c := range cases {
		t.Run("listen agrees to "+c.kind+" exactly when "+c.group+"."+c.flag+" is true", func(t *testing.T) {
			_, got := agreed[c.kind]
			if got != flag(EraModern, c.group, c.flag) {
				t.Fatalf("agreed %v, capability %v", got, flag(EraModern, c.group, c.flag))
			}
		})
	}
	t.Run("listen agrees only to subscribable resources", func(t *testing.T) {
		uris, _ := agreed["resourceSubscriptions"].([]string)
		if len(uris) != 1 || uris[0] != "app://watched" {
			t.Fatalf("%v", agreed)
		}
	})
	t.Run("nothing requested, nothing agreed", func(t *testing.T) {
		if got := s.agreedNotifications(ListenParams{}); len(got) != 0 {
			t.Fatalf("%v", got)
		}
	})
}

// CapabilitiesFor is the one rule for the capabilities a handshake lists: each revision gets
// the members its schema defines (extensions in 2026-07-28 only), the legacy ones with
// resources.subscribe false and logging. The handshakes themselves, from the core and from
// app-mcp, are checked against each revision's schema in backend/bridge
// (TestEachRevisionListsOnlyTheCapabilitiesItsSchemaDefines).
func TestCapabilitiesForListsWhatTheNegotiatedRevisionDefines(t *testing.T) {
	s, err := NewServer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	modern := s.capabilities(EraModern)
	legacy := map[string]any{
		"tools":       map[string]any{"listChanged": false},
		"resources":   map[string]any{"subscribe": false, "listChanged": true},
		"prompts":     map[string]any{"listChanged": false},
		"completions": map[string]any{},
		"logging":     map[string]any{},
	}
	cases := []struct {
		version string
		want    map[string]any
	}{
		{ProtocolVersion, modern},
		{ProtocolVersion20251125, legacy},
		{ProtocolVersion20250618, legacy},
		{"2025-03-26", map[string]any{}},
	}
	for _, c := range cases {
		t.Run(c.version, func(t *testing.T) {
			got := CapabilitiesFor(c.version, modern)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for k := range got {
				if !slices.Contains(serverCapabilityMembers[c.version], k) {
					t.Fatalf("%s lists %q, which its schema does not define", c.version, k)
				}
			}
		})
	}
	t.Run("the modern object is left as it was", func(t *testing.T) {
		if _, ok := modern["extensions"]; !ok || modern["resources"].(map[string]any)["subscribe"] != true {
			t.Fatalf("%v", modern)
		}
	})
	t.Run("the legacy era's object is the legacy revisions'", func(t *testing.T) {
		if !reflect.DeepEqual(s.capabilities(EraLegacy), legacy) {
			t.Fatalf("%v", s.capabilities(EraLegacy))
		}
	})
}
