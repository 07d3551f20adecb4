package dto

import (
	"app/backend/driver"
	"app/backend/explore"
)

// RowChangeDTO is one pending row of the grid. Ref is the grid's own name for the row,
// echoed in its outcome. Updates carry the row's key (its key columns' cells as read, by
// column) and only the edited cells; inserts the typed cells, key columns among them only
// when the user typed them; deletes the key. Each cell is the text the user typed, or null
// for NULL; the driver types it from the schema. (Values is map[string]any rather than
// map[string]*string because the Wails binding generator cannot model the latter; anything
// but text or null is refused. Its ts tag gives the frontend's type what it holds.)
type RowChangeDTO struct {
	Ref    string         `json:"ref"`
	Key    map[string]any `json:"key"`
	Values map[string]any `json:"values" ts:"Record<string, string | null>"`
	// Original are an update's edited cells as the grid read them (text or null): a driver
	// that can writes the row only if they still hold, else reports a conflict.
	Original map[string]any `json:"original,omitempty" ts:"Record<string, string | null>"`
}

// CommitRequestDTO is every pending change of one table.
type CommitRequestDTO struct {
	Updates []RowChangeDTO `json:"updates"`
	Inserts []RowChangeDTO `json:"inserts"`
	Deletes []RowChangeDTO `json:"deletes"`
}

// RowOutcomeDTO is what happened to one pending row.
type RowOutcomeDTO struct {
	Ref    string         `json:"ref"`
	Action explore.Action `json:"action"`
	// Key is the row's key by column; for an insert, the one the database stored it under.
	Key map[string]any `json:"key"`
	// Status is "ok", "skipped" (nothing sent: a row without a key, no edited cells) or
	// "failed"; Code and Message say why when it is not ok.
	Status  driver.RowStatus `json:"status"`
	Code    string           `json:"code"`
	Message string           `json:"message"`
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
		out[i] = explore.RowChange{Ref: r.Ref, Key: r.Key, Values: r.Values, Original: r.Original}
	}
	return out
}
