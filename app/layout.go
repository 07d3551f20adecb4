package app

import (
	"app/app/dto"
	"app/backend/core"
	"app/backend/windowlayout"
)

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
func (a *LayoutAPI) Layout() (dto.LayoutDTO, error) {
	l, err := a.store.Load()
	return dto.FromLayout(l), apiError(err)
}

// SaveLayout replaces the remembered layout. A layout that breaks a rule (an unknown tab kind,
// a width outside 40..2000 px, too many entries, ...) is invalid_argument and changes nothing.
func (a *LayoutAPI) SaveLayout(l dto.LayoutDTO) error {
	return apiError(a.store.Save(l.Layout()))
}
