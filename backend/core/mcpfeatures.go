package core

import (
	"app/backend/mcp"
	"app/backend/mcpfeatures/prompts"
	"app/backend/mcpfeatures/resources"
)

// The MCP resources and prompts, and the watcher that tells subscriptions/listen streams what
// changed (resources.Watcher: the saved connections, and the subscribed schema and table
// resources, polled every resources.PollEvery while the server runs). startLocked builds them
// with the server and stopLocked stops the watcher before the server.

// resourceDeps are what the resources read: the saved connections and the open ones (a
// resource read opens its connection when needed, as a tool call does), and the approval gate
// the tools use (a sample read is approved like browse_table).
func (m *MCPService) resourceDeps() resources.Deps {
	d := resources.Deps{Connections: m.deps.conns, Store: m.deps.conns, Open: m.deps.open}
	if m.deps.approvals != nil {
		d.Approver = m.deps.approvals
	}
	return d
}

// promptDeps are what the prompts read their live schema facts from.
func (m *MCPService) promptDeps() prompts.Deps {
	return prompts.Deps{Connections: m.deps.conns, Open: m.deps.open}
}

// newResourceWatcher is the watcher of one server lifetime; its Subscribe is the server's
// mcp.Options.OnSubscribe.
func (m *MCPService) newResourceWatcher() *resources.Watcher {
	return resources.NewWatcher(m.resourceDeps(), resources.PollEvery, m.deps.log)
}

// startWatch starts w polling for srv, which now listens.
func (m *MCPService) startWatch(srv *mcp.Server, w *resources.Watcher) {
	m.watch = w
	w.Start(srv)
}

// stopWatch stops the running watcher, if any.
func (m *MCPService) stopWatch() {
	if m.watch != nil {
		m.watch.Stop()
		m.watch = nil
	}
}
