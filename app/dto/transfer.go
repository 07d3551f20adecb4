package dto

import (
	"fmt"

	"app/backend/transfer"
)

// TransferProgressDTO is how far an export or import is.
type TransferProgressDTO struct {
	ID    string `json:"id"`
	Rows  int64  `json:"rows"`
	Total int64  `json:"total"` // -1 when unknown
	Rate  int64  `json:"rate"`  // rows a second
	// LeftMs is the time left at the current rate (0 when unknown).
	LeftMs int64 `json:"leftMs"`
}

// ExportRequestDTO is an export from the grid: the format, whether the grid's filters and
// sort apply, and the vectors.
type ExportRequestDTO struct {
	Format  transfer.Format `json:"format"`
	Filters []FilterDTO     `json:"filters"`
	Sort    []SortDTO       `json:"sort"`
	Vectors bool            `json:"vectors"`
}

// ExportStatus is how an export ended.
type ExportStatus string

// The ends of an export.
const (
	// ExportDone: the file is complete.
	ExportDone ExportStatus = "done"
	// ExportCancelled: the export was stopped; no file is left.
	ExportCancelled ExportStatus = "cancelled"
	// ExportNotChosen: the save dialog was closed; nothing ran.
	ExportNotChosen ExportStatus = "not_chosen"
)

// ExportResultDTO is a finished (or cancelled) export.
type ExportResultDTO struct {
	Status    ExportStatus `json:"status"`
	Rows      int64        `json:"rows"`
	Path      string       `json:"path"`
	Bytes     int64        `json:"bytes"`
	ElapsedMs int64        `json:"elapsedMs"`
}

// ImportPreviewDTO is transfer.Preview for the window.
type ImportPreviewDTO struct {
	Path     string                       `json:"path"`
	Format   transfer.Format              `json:"format"`
	Columns  []string                     `json:"columns"`
	Targets  []string                     `json:"targets"`
	Rows     [][]*string                  `json:"rows"`
	Problems map[string]map[string]string `json:"problems"` // row index (text) -> column -> reason
	Broken   []RejectedDTO                `json:"broken"`
	Exists   bool                         `json:"exists"`
	// TableColumns are the table's columns a file column may go to ("uuid", properties, vectors).
	TableColumns []string `json:"tableColumns"`
}

// RejectedDTO is a row an import did not write.
type RejectedDTO struct {
	Line int `json:"line"`
	// Key is the row's key as text, "" when the file gave none.
	Key    string `json:"key"`
	Reason string `json:"reason"`
}

// ImportStatus is how an import ended.
type ImportStatus string

// The ends of an import.
const (
	// ImportDone: every row was read.
	ImportDone ImportStatus = "done"
	// ImportStopped: cancelled or cut; the counts say what was written.
	ImportStopped ImportStatus = "stopped"
	// ImportNotConfirmed: creating the table was declined; nothing was written.
	ImportNotConfirmed ImportStatus = "not_confirmed"
)

// ImportResultDTO is a finished, stopped or declined import.
type ImportResultDTO struct {
	Status    ImportStatus  `json:"status"`
	Written   int64         `json:"written"`
	Skipped   int64         `json:"skipped"`
	Failed    int64         `json:"failed"`
	Unknown   int64         `json:"unknown"`
	Created   bool          `json:"created"`
	Report    string        `json:"report"`
	Rejected  []RejectedDTO `json:"rejected"`
	Message   string        `json:"message"`
	ElapsedMs int64         `json:"elapsedMs"`
}

// FromTransferProgress is how far transfer id is.
func FromTransferProgress(id string, p transfer.Progress) TransferProgressDTO {
	return TransferProgressDTO{ID: id, Rows: p.Rows, Total: p.Total, Rate: int64(p.Rate()), LeftMs: p.Left().Milliseconds()}
}

// FromExport is a finished export.
func FromExport(sum transfer.Summary) ExportResultDTO {
	return ExportResultDTO{Status: ExportDone, Rows: sum.Rows, Path: sum.Path, Bytes: sum.Bytes, ElapsedMs: sum.Took.Milliseconds()}
}

// FromPreview is an import's preview of path; tableColumns are the existing table's (none
// when it is to be created). Lists and maps are never null.
func FromPreview(path string, p *transfer.Preview, tableColumns []string) ImportPreviewDTO {
	out := ImportPreviewDTO{Path: path, Format: p.Format, Columns: p.Columns, Targets: p.Targets, Rows: p.Rows,
		Problems: map[string]map[string]string{}, Broken: []RejectedDTO{}, Exists: p.Exists, TableColumns: tableColumns}
	for i, pr := range p.Problems {
		out.Problems[fmt.Sprint(i)] = pr
	}
	for _, b := range p.Broken {
		out.Broken = append(out.Broken, RejectedDTO(b))
	}
	if out.TableColumns == nil {
		out.TableColumns = []string{}
	}
	if out.Rows == nil {
		out.Rows = [][]*string{}
	}
	return out
}

// FromImport is what an import wrote: "done" (ImportFile makes it "stopped" when it was cut).
func FromImport(sum transfer.ImportSummary) ImportResultDTO {
	out := ImportResultDTO{Status: ImportDone, Written: sum.Written, Skipped: sum.Skipped, Failed: sum.Failed, Unknown: sum.Unknown,
		Created: sum.Created, Report: sum.Report, Rejected: []RejectedDTO{}, ElapsedMs: sum.Took.Milliseconds()}
	for _, r := range sum.Rejected {
		out.Rejected = append(out.Rejected, RejectedDTO(r))
	}
	return out
}
