package dto

import (
	"app/backend/driver"
	"app/backend/queries"
)

// RunResultDTO is Run's answer. Kind is "grid" (a Get: Grid holds the selected fields,
// `_additional.id` as uuid, every other `_additional` member its own column), "json" (JSON
// holds the formatted document) or "not_run" (the user said No; Message says so).
type RunResultDTO struct {
	Kind RunKind  `json:"kind"`
	Grid *GridDTO `json:"grid"`
	JSON string   `json:"json"`
	// Text is prose the database wrote to be read as it stands (a query plan), kind "text".
	Text        string `json:"text"`
	Table       string `json:"table"`
	Status      int    `json:"status"`
	Message     string `json:"message"`
	Access      string `json:"access"`
	Destructive bool   `json:"destructive"`
	ElapsedMs   int64  `json:"elapsedMs"`
	// Notice is what the driver says about the answer (translated from GraphQL to the
	// server's gRPC API; cut at a row limit), "" when nothing.
	Notice string `json:"notice"`
	// Tag is the database's word for what the statement did ("SELECT 3", "INSERT 0 1"), "" when
	// it has none.
	Tag string `json:"tag"`
	// Before are the answers of the statements before the last, in order, when the text held
	// several (the fields above are the last one's).
	Before []ResultSetDTO `json:"before"`
}

// RunKind is what Run's answer holds: a result of the driver's kind, or nothing run.
type RunKind string

// The kinds of Run's answer.
const (
	RunGrid RunKind = RunKind(driver.ResultGrid)
	RunJSON RunKind = RunKind(driver.ResultJSON)
	RunText RunKind = RunKind(driver.ResultText)
	// RunNotRun: the person said No to a write; nothing was sent.
	RunNotRun RunKind = "not_run"
)

// ResultSetDTO is one statement's answer in a run of several: kind "grid", "json" or "text",
// as RunResultDTO's.
type ResultSetDTO struct {
	Kind   driver.ResultKind `json:"kind"`
	Grid   *GridDTO          `json:"grid"`
	JSON   string            `json:"json"`
	Text   string            `json:"text"`
	Tag    string            `json:"tag"`
	Notice string            `json:"notice"`
}

// ResultSet is one driver result as the window shows it: a grid, a plan's text, or JSON.
func ResultSet(r *driver.Result) ResultSetDTO {
	out := ResultSetDTO{Kind: r.Kind, Tag: r.Tag, Notice: r.Notice}
	switch {
	case r.Kind == driver.ResultGrid && r.Grid != nil:
		g := FromGrid(r.Grid)
		out.Grid = &g
	case r.Kind == driver.ResultText:
		out.Text = r.Text
	default:
		out.Kind = driver.ResultJSON
		out.JSON = string(r.JSON)
	}
	return out
}

// EditorWordsDTO are the editor's words for a connection (driver.Completions); Named is false
// when its driver names none.
type EditorWordsDTO struct {
	Named     bool                `json:"named"`
	Tables    map[string][]string `json:"tables"`
	Functions []string            `json:"functions"`
}

// HistoryEntryDTO is one statement run in the editor (queries.Entry); Error holds the
// `code: message` text of a failure.
type HistoryEntryDTO struct {
	Text  string `json:"text"`
	At    string `json:"at"`
	OK    bool   `json:"ok"`
	Error string `json:"error"`
}

// SavedQueryDTO is a named query of a connection.
type SavedQueryDTO struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// FromHistory is a connection's history (never null).
func FromHistory(h []queries.Entry) []HistoryEntryDTO {
	out := make([]HistoryEntryDTO, len(h))
	for i, e := range h {
		out[i] = HistoryEntryDTO(e)
	}
	return out
}

// FromSaved are a connection's saved queries (never null).
func FromSaved(list []queries.Query) []SavedQueryDTO {
	out := make([]SavedQueryDTO, len(list))
	for i, q := range list {
		out[i] = SavedQueryDTO(q)
	}
	return out
}

// TemplateDTO is one entry of the editor's template menu: a statement in the connection's
// language, written for one table (driver.Template).
type TemplateDTO struct {
	Name string `json:"name"`
	Text string `json:"text"`
}
