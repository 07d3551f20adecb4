package app

import (
	"app/backend/core"
	"app/backend/windowlayout"
)

// TabDTO is one remembered tab (windowlayout.Tab). ConnectionID is set for every kind but
// "settings"; Table only for "table".
type TabDTO struct {
	Kind         string `json:"kind"`
	ConnectionID string `json:"connectionId"`
	Table        string `json:"table"`
}

// LayoutDTO is what the window remembers between runs (windowlayout.Layout): the open tabs and
// the active one (its tab key, opaque here), the last table opened per connection id, and
// column widths per "connectionId/table" key, column name -> pixels.
type LayoutDTO struct {
	Tabs         []TabDTO                  `json:"tabs"`
	Active       string                    `json:"active"`
	LastTable    map[string]string         `json:"lastTable"`
	ColumnWidths map[string]map[string]int `json:"columnWidths"`
}

// LayoutAPI is the window's layout, kept by backend/windowlayout in layout.json in the config
// dir. Its exported methods are bound to the frontend (frontend/wailsjs/go/app/LayoutAPI).
type LayoutAPI struct {
	base
	store *windowlayout.Store
}

// NewLayoutAPI returns the layout facade over dir ("" keeps it in memory).
func NewLayoutAPI(dir string) *LayoutAPI { return &LayoutAPI{store: windowlayout.Open(dir, nil)} }

func (a *LayoutAPI) wire(c *core.Core) {
	a.store = windowlayout.Open(c.Dir(), c.Log().WithField("component", "window"))
}

// Layout returns the remembered layout: empty when there is none or the file is unusable, and
// without the entries that break a rule.
func (a *LayoutAPI) Layout() (LayoutDTO, error) {
	l, err := a.store.Load()
	out := LayoutDTO{Tabs: make([]TabDTO, len(l.Tabs)), Active: l.Active, LastTable: l.LastTable, ColumnWidths: l.ColumnWidths}
	for i, t := range l.Tabs {
		out.Tabs[i] = TabDTO(t)
	}
	return out, apiError(err)
}

// SaveLayout replaces the remembered layout. A layout that breaks a rule (an unknown tab kind,
// a width outside 40..2000 px, too many entries, ...) is invalid_argument and changes nothing.
func (a *LayoutAPI) SaveLayout(l LayoutDTO) error {
	in := windowlayout.Layout{Tabs: make([]windowlayout.Tab, len(l.Tabs)), Active: l.Active, LastTable: l.LastTable, ColumnWidths: l.ColumnWidths}
	for i, t := range l.Tabs {
		in.Tabs[i] = windowlayout.Tab(t)
	}
	return apiError(a.store.Save(in))
}
