package mcp

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

// capabilities is the server capabilities object for an era.
func (s *Server) capabilities(era Era) map[string]any {
	return map[string]any{
		"tools":       map[string]any{"listChanged": capToolsListChanged},
		"resources":   map[string]any{"subscribe": capResourcesSubscribeModern && era == EraModern, "listChanged": capResourcesListChanged},
		"prompts":     map[string]any{"listChanged": capPromptsListChanged},
		"completions": map[string]any{},
		"extensions":  map[string]any{},
	}
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
