package activity

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// DefaultRetention is how long entries are kept when the settings do not say.
const DefaultRetention = 90 * 24 * time.Hour

// PruneEvery is how often the background pruning runs (and once at its start).
const PruneEvery = time.Hour

// Prune removes the entries older than before, oldest first, a whole block at a time,
// stopping at the first block with an entry that is not (so an entry recorded out of time
// order never opens a gap), and keeps the hash of the last one removed as the anchor Verify
// starts from. It refuses, and removes
// nothing, when the entries it would remove do not verify: pruning never hides a broken
// link. Prune runs in the writer, after the entries queued before it.
func (l *Log) Prune(ctx context.Context, before time.Time) (int, error) {
	res := make(chan pruneResult, 1)
	if err := l.send(ctx, item{prune: &pruneJob{before: func() time.Time { return before }, result: res}}); err != nil {
		return 0, err
	}
	select {
	case r := <-res:
		return r.n, r.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// StartPruning prunes entries older than retention() now (queued before StartPruning
// returns, so a Flush after it waits for that first prune) and then every PruneEvery, until
// Close. retention is read at each run, so a settings change applies at the next one.
func (l *Log) StartPruning(retention func() time.Duration) error {
	l.mu.Lock()
	if l.closed || l.pruneStop != nil {
		l.mu.Unlock()
		if l.closed {
			return errors.New("activity log: closed")
		}
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	l.pruneStop, l.pruneDone = cancel, make(chan struct{})
	done := l.pruneDone
	l.mu.Unlock()

	job := func() item {
		return item{prune: &pruneJob{before: func() time.Time { return time.Now().Add(-retention()) }, result: make(chan pruneResult, 1)}}
	}
	first := job()
	if err := l.send(ctx, first); err != nil {
		cancel()
		close(done)
		return err
	}
	go func() {
		defer close(done)
		l.report(ctx, first)
		tick := time.NewTicker(PruneEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				it := job()
				if l.send(ctx, it) == nil {
					l.report(ctx, it)
				}
			}
		}
	}()
	return nil
}

// report logs a background prune's result.
func (l *Log) report(ctx context.Context, it item) {
	select {
	case r := <-it.prune.result:
		switch {
		case r.err != nil:
			l.logger.Error("activity log: pruning failed: " + l.redactor.Error(r.err))
		case r.n > 0:
			l.logger.WithField("entries", r.n).Info("activity log: pruned old entries")
		}
	case <-ctx.Done():
	}
}

// prune is Prune in the writer.
func (l *Log) prune(ctx context.Context, before time.Time) (int, error) {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	anchorID, anchorHash, err := anchor(ctx, tx)
	if err != nil {
		return 0, err
	}
	// Whole blocks go, oldest first, up to the first block holding an entry that is not old
	// enough; what is about to go is verified first.
	rows, err := tx.QueryContext(ctx, `SELECT `+blockColumns+` FROM `+l.source()+` WHERE first_id > ? ORDER BY first_id`, anchorID)
	if err != nil {
		return 0, err
	}
	cutoff := formatTime(before)
	w := walker{prevID: anchorID, prevHash: anchorHash, anchored: anchorID > 0}
	for rows.Next() {
		b, err := scanBlock(rows)
		if err != nil {
			rows.Close()
			return 0, err
		}
		// max_time is checked against the entries' own times below: an edited one refuses
		// the prune.
		if b.maxTime >= cutoff {
			break
		}
		if _, broken := w.block(b); broken != nil {
			rows.Close()
			return 0, fmt.Errorf("not pruning: the chain is broken at entry %d: %s", broken.ID, broken.Reason)
		}
	}
	if err := rows.Close(); err != nil {
		return 0, err
	}
	if w.count == 0 {
		return 0, nil
	}
	// The anchor moves first: the delete trigger allows removing entries up to it only.
	if err := setMeta(ctx, tx, metaAnchorID, strconv.FormatInt(w.prevID, 10)); err != nil {
		return 0, err
	}
	if err := setMeta(ctx, tx, metaAnchorHash, w.prevHash); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM blocks WHERE last_id <= ?`, w.prevID); err != nil {
		return 0, err
	}
	// A segment partly pruned stays: what it says of the rest is still true, and counts stop
	// using its total (index.go).
	if _, err := tx.ExecContext(ctx, `DELETE FROM filter_index WHERE last_id <= ?`, w.prevID); err != nil {
		return 0, fmt.Errorf("pruning the filter index: %w", err)
	}
	return w.count, tx.Commit()
}
