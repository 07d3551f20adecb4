package mcp

import (
	"maps"
	"slices"
)

// The server's capability flags (SPEC.md B "Events", capability flags;
// "Result envelope", server/discover). They are stated once here: the
// capabilities object of server/discover and legacy initialize is built
// from them, and subscriptions/listen agrees only to what they promise.
const (
	capToolsListChanged     = false
	capPromptsListChanged   = false
	capResourcesListChanged = true
	// resources.subscribe is true in the modern era only: the legacy eras
	// have no channel on which an update could arrive.
	capResourcesSubscribeModern = true
)

// capabilities is the server capabilities object for an era: the modern one is
// server/discover's; the legacy one is what CapabilitiesFor makes of it for the legacy
// revisions (the two list the same members of what this server serves).
func (s *Server) capabilities(era Era) map[string]any {
	modern := map[string]any{
		"tools":       map[string]any{"listChanged": capToolsListChanged},
		"resources":   map[string]any{"subscribe": capResourcesSubscribeModern, "listChanged": capResourcesListChanged},
		"prompts":     map[string]any{"listChanged": capPromptsListChanged},
		"completions": map[string]any{},
		"extensions":  map[string]any{},
	}
	if era == EraModern {
		return modern
	}
	return CapabilitiesFor(ProtocolVersion20251125, modern)
}

// serverCapabilityMembers are the members of ServerCapabilities that each revision's schema
// defines (github.com/modelcontextprotocol/modelcontextprotocol, schema/<rev>/schema.ts).
// The object is open in all three ("not a closed set: any server can define its own,
// additional capabilities"), but the 2025 revisions give a capability they do not define a
// place of its own, experimental ("Experimental, non-standard capabilities", 2025-06-18
// schema.ts:260, 2025-11-25 schema.ts:388): a top-level member they do not define means
// nothing to their clients. extensions is one: absent from ServerCapabilities in 2025-06-18
// (schema.ts:258-302) and 2025-11-25 (schema.ts:386-457), first defined in 2026-07-28
// (schema.ts:872-882; its changelog, Minor changes 1: "Add extensions field to
// ClientCapabilities and ServerCapabilities").
var serverCapabilityMembers = map[string][]string{
	ProtocolVersion:         {"completions", "experimental", "extensions", "logging", "prompts", "resources", "tools"},
	ProtocolVersion20251125: {"completions", "experimental", "logging", "prompts", "resources", "tasks", "tools"},
	ProtocolVersion20250618: {"completions", "experimental", "logging", "prompts", "resources", "tools"},
}

// CapabilitiesFor is the one rule for the capabilities a handshake lists in the revision
// negotiated, given the modern object (server/discover's): only the members that revision's
// schema defines (serverCapabilityMembers), and for a legacy revision resources.subscribe
// false (SPEC.md B "Events": a legacy client has no channel an update could arrive on) and
// logging (logging/setLevel is served in the legacy eras only). The core's legacy initialize
// and app-mcp's both answer with it, so the two cannot disagree. modern is not changed; an
// unknown version lists nothing.
func CapabilitiesFor(version string, modern map[string]any) map[string]any {
	members := serverCapabilityMembers[version]
	caps := map[string]any{}
	for k, v := range modern {
		if slices.Contains(members, k) {
			caps[k] = v
		}
	}
	if !isLegacyVersion(version) {
		return caps
	}
	if res, ok := caps["resources"].(map[string]any); ok {
		copied := maps.Clone(res)
		copied["subscribe"] = false
		caps["resources"] = copied
	}
	caps["logging"] = map[string]any{}
	return caps
}

// agreedNotifications is what subscriptions/listen (modern only) agrees
// to: each requested kind the capabilities promise, and the requested
// resource URIs that can be subscribed to. Kinds that are not agreed are
// left out of the acknowledgement.
func (s *Server) agreedNotifications(want ListenParams) map[string]any {
	agreed := map[string]any{}
	n := want.Notifications
	if n.ToolsListChanged && capToolsListChanged {
		agreed["toolsListChanged"] = true
	}
	if n.PromptsListChanged && capPromptsListChanged {
		agreed["promptsListChanged"] = true
	}
	if n.ResourcesListChanged && capResourcesListChanged {
		agreed["resourcesListChanged"] = true
	}
	if capResourcesSubscribeModern && len(n.ResourceSubscriptions) > 0 {
		var uris []string
		for _, uri := range n.ResourceSubscriptions {
			if s.resources.subscribable(uri) {
				uris = append(uris, uri)
			}
		}
		if len(uris) > 0 {
			agreed["resourceSubscriptions"] = uris
		}
	}
	return agreed
}
