package tools

import (
	"context"

	"app/backend/connections"
)

// storeConnections shows the saved connections of a store to the tools,
// without the ones AI clients may not see.
type storeConnections struct{ store *connections.Store }

// FromStore adapts the saved-connections store to Connections.
func FromStore(s *connections.Store) Connections { return storeConnections{s} }

func (l storeConnections) List(ctx context.Context) ([]Connection, error) {
	list, err := l.store.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Connection, 0, len(list))
	for _, c := range list {
		if !connections.VisibleToAI(c) {
			continue
		}
		out = append(out, Connection{ID: c.ID, Name: c.Name, Type: c.Type, Host: c.Settings.Host, Port: c.Settings.Port})
	}
	return out, nil
}
