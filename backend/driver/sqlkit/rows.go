package sqlkit

import (
	"fmt"

	"github.com/sirupsen/logrus"

	"app/backend/driver"
)

// Insert, Update and Delete of a SQL driver write their rows in one transaction: all of them
// or none. The row that fails says why; the others say they were not written because of it.
// A row without a key (Update, Delete) or without edited cells (Update) is skipped and logged,
// nothing sent.

// PlanRows sorts the rows of one write (action "insert", "update" or "delete") on table, whose
// key is key, before anything is sent: out holds a result for every row, run the rows to
// write in order. done: nothing is to be sent (no row to write, or a row was refused, which
// stops the transaction as a failed row would, and out says so).
func PlanRows(log logrus.FieldLogger, table string, key []string, rows []driver.Row, action string) (out []driver.RowResult, run []int, done bool) {
	out = make([]driver.RowResult, len(rows))
	run = make([]int, 0, len(rows))
	for i, r := range rows {
		out[i] = driver.RowResult{Index: i, Key: r.Key}
		switch {
		case action != "insert" && len(key) == 0:
			out[i].Status, out[i].Kind = driver.RowFailed, driver.KindUnsupported
			out[i].Message = table + " has no primary key, so its rows are not " + action + "d one by one"
		case action != "insert" && len(r.Key) == 0:
			log.WithFields(map[string]any{"table": table, "row": i, "action": action}).Warn("row without a key skipped; no statement sent")
			out[i].Status, out[i].Message = driver.RowSkipped, fmt.Sprintf("row %d has no key: %s skipped, nothing sent", i+1, action)
		case action == "update" && len(r.Values) == 0:
			out[i].Status, out[i].Message = driver.RowSkipped, "no edited cells: nothing sent"
		case action != "insert":
			if err := driver.CheckKey(key, r.Key, fmt.Sprintf("the key of row %d", i+1)); err != nil {
				Fail(&out[i], err)
				break
			}
			run = append(run, i)
		default:
			run = append(run, i)
		}
	}
	for i := range out {
		if out[i].Status == driver.RowFailed {
			NotWritten(out, run, i)
			return out, run, true
		}
	}
	return out, run, len(run) == 0
}

// NotWritten marks the rows of run but failed as not written because row failed did.
func NotWritten(out []driver.RowResult, run []int, failed int) {
	for _, j := range run {
		if j != failed {
			out[j].Status, out[j].Kind = driver.RowFailed, ""
			out[j].Message = fmt.Sprintf("not written: row %d failed, and a commit writes all its rows or none", failed+1)
		}
	}
}

// Fail marks a row failed with err.
func Fail(r *driver.RowResult, err error) {
	r.Status, r.Kind, r.Message = driver.RowFailed, driver.KindOf(err), err.Error()
}
