package dto

import "app/backend/windowlayout"

// LayoutTabDTO is one remembered tab (windowlayout.Tab). ConnectionID is set for every kind but
// "settings"; Table only for "table".
type LayoutTabDTO struct {
	Kind         windowlayout.TabKind `json:"kind"`
	ConnectionID string               `json:"connectionId"`
	Table        string               `json:"table"`
}

// LayoutDTO is what the window remembers between runs (windowlayout.Layout): the open tabs and
// the active one (its tab key, opaque here), the last table opened per connection id, and
// column widths per "connectionId/table" key, column name -> pixels.
type LayoutDTO struct {
	Tabs         []LayoutTabDTO            `json:"tabs"`
	Active       string                    `json:"active"`
	LastTable    map[string]string         `json:"lastTable"`
	ColumnWidths map[string]map[string]int `json:"columnWidths"`
}

// FromLayout is the remembered layout.
func FromLayout(l windowlayout.Layout) LayoutDTO {
	out := LayoutDTO{Tabs: make([]LayoutTabDTO, len(l.Tabs)), Active: l.Active, LastTable: l.LastTable, ColumnWidths: l.ColumnWidths}
	for i, t := range l.Tabs {
		out.Tabs[i] = LayoutTabDTO(t)
	}
	return out
}

// Layout is the layout to remember.
func (l LayoutDTO) Layout() windowlayout.Layout {
	out := windowlayout.Layout{Tabs: make([]windowlayout.Tab, len(l.Tabs)), Active: l.Active, LastTable: l.LastTable, ColumnWidths: l.ColumnWidths}
	for i, t := range l.Tabs {
		out.Tabs[i] = windowlayout.Tab(t)
	}
	return out
}
