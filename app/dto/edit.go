package dto

import "app/backend/explore"

// RowChangeDTO is one pending row of the grid. Key is the grid's own name for the row,
// echoed in its outcome. Updates carry the uuid and only the edited cells; inserts the typed
// cells and a uuid only when the user typed one; deletes the uuid. Each cell is the text the
// user typed, or null for NULL; the driver types it from the schema. (Values is map[string]any
// rather than map[string]*string because the Wails binding generator cannot model the
// latter; anything but text or null is refused.)
type RowChangeDTO struct {
	Key    string         `json:"key"`
	UUID   string         `json:"uuid"`
	Values map[string]any `json:"values"`
}

// CommitRequestDTO is every pending change of one table.
type CommitRequestDTO struct {
	Updates []RowChangeDTO `json:"updates"`
	Inserts []RowChangeDTO `json:"inserts"`
	Deletes []RowChangeDTO `json:"deletes"`
}

// RowOutcomeDTO is what happened to one pending row.
type RowOutcomeDTO struct {
	Key    string `json:"key"`
	Action string `json:"action"`
	// UUID is the row's uuid; for an insert, the one the database gave it.
	UUID string `json:"uuid"`
	// Status is "ok", "skipped" (nothing sent: a row without uuid, no edited cells) or
	// "failed"; Code and Message say why when it is not ok.
	Status  string `json:"status"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// CommitResultDTO is Commit's answer: one outcome per pending row, in the request's order
// (updates, inserts, deletes), or Declined when the deletion was not confirmed and nothing
// was sent.
type CommitResultDTO struct {
	Outcomes []RowOutcomeDTO `json:"outcomes"`
	Declined bool            `json:"declined"`
}

// RowChanges are the pending rows for explore.Commit.
func RowChanges(in []RowChangeDTO) []explore.RowChange {
	out := make([]explore.RowChange, len(in))
	for i, r := range in {
		out[i] = explore.RowChange(r)
	}
	return out
}
