package activity

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Broken names the first broken link of the chain.
type Broken struct {
	// ID is the entry at which the chain breaks.
	ID     int64  `json:"id"`
	Reason string `json:"reason"`
}

func (b *Broken) Error() string { return fmt.Sprintf("chain broken at entry %d: %s", b.ID, b.Reason) }

// Verification is what Verify found.
type Verification struct {
	// Entries is how many entries were checked (all of them when the chain is intact).
	Entries int `json:"entries"`
	// AnchorID is the last pruned entry the chain starts after (0: nothing pruned).
	AnchorID int64 `json:"anchorId"`
	// Broken is the first broken link, nil when the chain is intact.
	Broken *Broken `json:"broken,omitempty"`
}

// Intact reports whether every link held.
func (v Verification) Intact() bool { return v.Broken == nil }

// Verify walks the chain from the anchor (or the genesis hash) in one read transaction and
// reports the first broken link: an entry whose hash does not match its contents (it was
// changed), whose prev_hash does not match the entry before it (an entry was removed,
// inserted or changed before it), or a chain that stops before the newest entry written.
func (l *Log) Verify(ctx context.Context) (Verification, error) {
	tx, err := l.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Verification{}, err
	}
	defer tx.Rollback()
	anchorID, anchorHash, err := anchor(ctx, tx)
	if err != nil {
		return Verification{}, err
	}
	v := Verification{AnchorID: anchorID}
	// The filter index is checked against the entries as they are walked: a segment that says
	// less than its blocks hold would make filters skip entries (index.go).
	check := segmentCheck{anchorID: anchorID}
	if l.indexed && l.legacy == "" {
		if check.segs, _, err = loadSegments(ctx, tx); err != nil {
			return v, err
		}
	}
	defer func() {
		// A writable log drops what lied, so counts are right again, and rebuilds it.
		if len(check.lying) > 0 && !l.readOnly {
			if err := l.dropSegments(ctx, check.lying); err != nil {
				l.logger.Warn("activity log: " + err.Error())
			}
		}
	}()
	rows, err := tx.QueryContext(ctx, `SELECT `+blockColumns+` FROM `+l.source()+` ORDER BY first_id`)
	if err != nil {
		return v, err
	}
	defer rows.Close()
	w := walker{prevID: anchorID, prevHash: anchorHash, anchored: anchorID > 0}
	for rows.Next() {
		b, err := scanBlock(rows)
		if err != nil {
			return v, err
		}
		entries, broken := w.block(b)
		if broken == nil {
			broken = check.block(b, entries)
		}
		if broken != nil {
			v.Broken, v.Entries = broken, w.count
			return v, nil
		}
	}
	if err := rows.Err(); err != nil {
		return v, err
	}
	v.Entries = w.count
	// The newest entry written must still be there.
	headID, headHash, ok, err := metaLink(ctx, tx, metaHeadID, metaHeadHash)
	if err != nil {
		return v, err
	}
	if ok && (headID != w.prevID || headHash != w.prevHash) {
		switch {
		case headID > w.prevID:
			v.Broken = &Broken{ID: headID, Reason: fmt.Sprintf("entry %d was written but the log ends at entry %d: the newest entries were removed", headID, w.prevID)}
		default:
			v.Broken = &Broken{ID: w.prevID, Reason: fmt.Sprintf("the last entry written was %d with another hash: the end of the log was replaced", headID)}
		}
		return v, nil
	}
	// The index's last segments are checked once the chain is known whole: blocks removed
	// from the end are that break, not the index's.
	v.Broken = check.end()
	return v, nil
}

// walker checks one link at a time.
type walker struct {
	prevID   int64
	prevHash string
	anchored bool
	count    int
}

// step checks e against the entry before it and its own hash, and moves on.
func (w *walker) step(e Entry) *Broken {
	before := fmt.Sprintf("entry %d", w.prevID)
	switch {
	case w.prevID == 0:
		before = "the start of the log"
	case w.count == 0 && w.anchored:
		before = fmt.Sprintf("the pruning anchor (entry %d)", w.prevID)
	}
	switch {
	case e.ID <= w.prevID:
		return &Broken{ID: e.ID, Reason: fmt.Sprintf("its id does not follow %s", before)}
	case e.PrevHash != w.prevHash:
		return &Broken{ID: e.ID, Reason: fmt.Sprintf("its prev_hash does not match the hash of %s: an entry was removed, inserted or changed before it", before)}
	case computeHash(&e) != e.Hash:
		return &Broken{ID: e.ID, Reason: "its hash does not match its contents: the entry was changed"}
	}
	w.prevID, w.prevHash = e.ID, e.Hash
	w.count++
	return nil
}

// block checks a block: its entries in order, then that its text is exactly what the writer
// writes for them (nothing else hides in it: a second copy of a key, another key, that
// SQLite's JSON functions would read differently) and that its min_time and max_time, which
// choose the blocks of a time filter and of pruning, are its entries' times.
func (w *walker) block(b block) ([]Entry, *Broken) {
	entries, err := b.decode()
	if err != nil {
		var broken *Broken
		if errors.As(err, &broken) {
			return nil, broken
		}
		return nil, &Broken{ID: b.firstID, Reason: err.Error()}
	}
	at := 1 // after the '['
	var buf []byte
	for i := range entries {
		e := &entries[i]
		if broken := w.step(*e); broken != nil {
			return nil, broken
		}
		if !b.written {
			continue
		}
		if i > 0 {
			buf = append(buf[:0], ',')
		} else {
			buf = buf[:0]
		}
		buf = appendEntry(buf, e)
		if len(b.entries)-at < len(buf) || b.entries[at:at+len(buf)] != string(buf) { // compared without a copy
			return nil, &Broken{ID: e.ID, Reason: "its stored text is not what the app writes for its contents: the block was edited"}
		}
		at += len(buf)
	}
	if b.written && b.entries[at:] != "]" {
		return nil, &Broken{ID: b.lastID, Reason: "its block has text after its entries: the block was edited"}
	}
	minTime, maxTime := entries[0].rawTime, entries[0].rawTime
	for _, e := range entries[1:] {
		minTime, maxTime = min(minTime, e.rawTime), max(maxTime, e.rawTime)
	}
	if minTime != b.minTime || maxTime != b.maxTime {
		return nil, &Broken{ID: b.firstID, Reason: fmt.Sprintf("the block of entries %d to %d says its times are %s to %s, its entries' are %s to %s: the block was edited",
			b.firstID, b.lastID, b.minTime, b.maxTime, minTime, maxTime)}
	}
	return entries, nil
}

type scanner interface{ Scan(dest ...any) error }

// scanBlock reads a row of blockColumns.
func scanBlock(s scanner) (block, error) {
	var b block
	err := s.Scan(&b.firstID, &b.lastID, &b.minTime, &b.maxTime, &b.prevHash, &b.entries, &b.written)
	return b, err
}
