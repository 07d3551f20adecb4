package mcp

import (
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
