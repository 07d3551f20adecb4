package activity

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// The filter index (issue 44: "a filtered count over millions of log entries decodes every
// block"). The Settings panel counts what its filter chooses on every page, and a count
// decoded every block in the time range: about 1.5 us an entry, seconds for a few million.
// filter_index keeps, for consecutive runs of blocks of about segmentEntries entries
// (segments), what a filter asks about: the entries' time range and count, and the set of
// clients, token names, principals, connections and outcomes. A filter then skips a segment
// that cannot hold a match without reading its blocks, and a count takes a segment every entry
// of which matches from its count.
//
// The index is derived data, outside the hash chain, and never trusted further than this:
//   - a segment says what its blocks may hold (a superset): one that says less is a lie.
//     Verify checks every segment against the entries it walks anyway, and names a lie as the
//     break (the app then drops the segment and rebuilds it), as it does a block's min_time
//     and max_time, which time filters and pruning already rely on;
//   - a segment's count is used only while none of its entries was pruned (its first id above
//     the anchor);
//   - a segment that does not parse, of another summary version, or overlapping the one before
//     it is ignored (its blocks are decoded), and removed and rebuilt by the app;
//   - blocks no segment covers (written by migrate, or by a build before the index, which
//     ignores the table) are decoded, and indexed by the app in the background.
//
// The writer extends the newest segment in the transaction that writes a block, from the
// entries it has in hand (no decoding), so the index is never behind what it wrote.

// segmentEntries is how many entries a segment gathers before the next block starts a new one:
// a full batch is one segment, and a million entries are about 250 rows to read before any
// block.
const segmentEntries = 4096

// summaryVersion is the form of filter_index.summary; a segment of another version is ignored.
const summaryVersion = 1

// A value set stops listing values past maxSetValues or maxSetBytes (a client may name itself
// anything, and send a new name with every request) and then says only "any value".
const (
	maxSetValues = 64
	maxSetBytes  = 4 << 10
)

// indexSchema is the filter index's table: no trigger, since the app replaces the newest
// segment as it grows and rebuilds what it cannot trust.
const indexSchema = `
CREATE TABLE IF NOT EXISTS filter_index (
	first_id INTEGER PRIMARY KEY,
	last_id  INTEGER NOT NULL,
	entries  INTEGER NOT NULL,
	min_time TEXT    NOT NULL,
	max_time TEXT    NOT NULL,
	summary  TEXT    NOT NULL
) STRICT;
`

// valueSet is the distinct values of one field in a segment, sorted, or any (too many to list).
type valueSet struct {
	vals  []string
	any   bool
	bytes int
}

func (s *valueSet) add(v string) {
	if s.any {
		return
	}
	i, found := slices.BinarySearch(s.vals, v)
	if found {
		return
	}
	if len(s.vals) >= maxSetValues || s.bytes+len(v) > maxSetBytes {
		*s = valueSet{any: true}
		return
	}
	s.vals = slices.Insert(s.vals, i, v)
	s.bytes += len(v)
}

// may reports whether an entry with value v may be in the segment.
func (s *valueSet) may(v string) bool {
	if s.any {
		return true
	}
	_, found := slices.BinarySearch(s.vals, v)
	return found
}

// only reports whether every entry of the segment has value v.
func (s *valueSet) only(v string) bool { return !s.any && len(s.vals) == 1 && s.vals[0] == v }

// MarshalJSON writes the sorted values, or "*" for any.
func (s valueSet) MarshalJSON() ([]byte, error) {
	if s.any {
		return []byte(`"*"`), nil
	}
	if s.vals == nil {
		return []byte(`[]`), nil
	}
	return json.Marshal(s.vals)
}

// UnmarshalJSON reads what MarshalJSON writes; values out of order or repeated are an error
// (the segment is then ignored): may's binary search depends on the order.
func (s *valueSet) UnmarshalJSON(b []byte) error {
	if string(b) == `"*"` {
		*s = valueSet{any: true}
		return nil
	}
	var vals []string
	if err := json.Unmarshal(b, &vals); err != nil {
		return err
	}
	if vals == nil {
		return errors.New("no value list")
	}
	*s = valueSet{vals: vals}
	for i, v := range vals {
		if i > 0 && vals[i-1] >= v {
			return errors.New("values out of order")
		}
		s.bytes += len(v)
	}
	return nil
}

// summary is filter_index.summary: the value sets of a segment.
type summary struct {
	V           int      `json:"v"`
	Clients     valueSet `json:"client"`
	Tokens      valueSet `json:"token"`
	Principals  valueSet `json:"principal"`
	Connections valueSet `json:"connection"`
	Outcomes    valueSet `json:"outcome"`
}

// segment is one row of filter_index: blocks whose first_id lies in [firstID, lastID].
type segment struct {
	firstID, lastID  int64
	entries          int64
	minTime, maxTime string
	sum              summary
}

// add counts e (an entry with its id and stored time) into the segment.
func (s *segment) add(e *Entry) {
	t := e.rawTime
	if s.entries == 0 {
		s.firstID, s.minTime, s.maxTime = e.ID, t, t
	}
	s.lastID = max(s.lastID, e.ID)
	s.minTime, s.maxTime = min(s.minTime, t), max(s.maxTime, t)
	s.entries++
	s.sum.Clients.add(e.ClientName)
	s.sum.Tokens.add(e.TokenName)
	s.sum.Principals.add(e.Principal)
	s.sum.Connections.add(e.Connection)
	s.sum.Outcomes.add(e.Outcome)
}

// holds reports whether the segment says e may be in it (Verify).
func (s *segment) holds(e *Entry) (bool, string) {
	switch {
	case e.rawTime < s.minTime || e.rawTime > s.maxTime:
		return false, "time " + strconv.Quote(e.rawTime)
	case !s.sum.Clients.may(e.ClientName):
		return false, "client " + strconv.Quote(e.ClientName)
	case !s.sum.Tokens.may(e.TokenName):
		return false, "token " + strconv.Quote(e.TokenName)
	case !s.sum.Principals.may(e.Principal):
		return false, "principal " + strconv.Quote(e.Principal)
	case !s.sum.Connections.may(e.Connection):
		return false, "connection " + strconv.Quote(e.Connection)
	case !s.sum.Outcomes.may(e.Outcome):
		return false, "outcome " + strconv.Quote(e.Outcome)
	}
	return true, ""
}

// mayMatch reports whether an entry of the segment may be one m chooses.
func (s *segment) mayMatch(m matcher) bool {
	f := m.f
	switch {
	case m.since != "" && s.maxTime < m.since,
		m.until != "" && s.minTime >= m.until,
		f.Client != "" && !s.sum.Clients.may(f.Client),
		f.Connection != "" && !s.sum.Connections.may(f.Connection),
		f.Token != "" && !s.sum.Tokens.may(f.Token) && !s.sum.Principals.may(f.Token),
		f.Outcome == OutcomeError && !s.sum.Outcomes.any && !slices.ContainsFunc(s.sum.Outcomes.vals, func(o string) bool { return o != OutcomeOK }),
		f.Outcome != "" && f.Outcome != OutcomeError && !s.sum.Outcomes.may(f.Outcome):
		return false
	}
	return true
}

// allMatch reports whether m chooses every entry of the segment. A text search is never
// answered from the index.
func (s *segment) allMatch(m matcher) bool {
	f := m.f
	switch {
	case m.search != "",
		m.since != "" && s.minTime < m.since,
		m.until != "" && s.maxTime >= m.until,
		f.Client != "" && !s.sum.Clients.only(f.Client),
		f.Connection != "" && !s.sum.Connections.only(f.Connection),
		f.Token != "" && !s.sum.Tokens.only(f.Token) && !s.sum.Principals.only(f.Token),
		f.Outcome == OutcomeError && (s.sum.Outcomes.any || len(s.sum.Outcomes.vals) == 0 || s.sum.Outcomes.may(OutcomeOK)),
		f.Outcome != "" && f.Outcome != OutcomeError && !s.sum.Outcomes.only(f.Outcome):
		return false
	}
	return true
}

// encode is the segment's summary text.
func (s *segment) encode() (string, error) {
	s.sum.V = summaryVersion
	b, err := json.Marshal(&s.sum)
	return string(b), err
}

// segmentColumns is what a SELECT of filter_index reads (scanSegment's order).
const segmentColumns = `first_id, last_id, entries, min_time, max_time, summary`

// scanSegment reads a row of segmentColumns; ok is false for a segment that cannot be trusted
// as it is (see the top of this file).
func scanSegment(s scanner) (seg segment, ok bool, err error) {
	var text string
	if err := s.Scan(&seg.firstID, &seg.lastID, &seg.entries, &seg.minTime, &seg.maxTime, &text); err != nil {
		return seg, false, err
	}
	if seg.lastID < seg.firstID || seg.entries < 1 || seg.maxTime < seg.minTime {
		return seg, false, nil
	}
	if err := json.Unmarshal([]byte(text), &seg.sum); err != nil || seg.sum.V != summaryVersion {
		return seg, false, nil
	}
	// Every entry has a value in every field ("" included): a set left out or empty would
	// rule every entry out.
	for _, set := range []*valueSet{&seg.sum.Clients, &seg.sum.Tokens, &seg.sum.Principals, &seg.sum.Connections, &seg.sum.Outcomes} {
		if !set.any && len(set.vals) == 0 {
			return seg, false, nil
		}
	}
	return seg, true, nil
}

type rowsQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// loadSegments reads the segments a reader may trust, in id order, and the first ids of those
// it may not.
func loadSegments(ctx context.Context, q rowsQuerier) (trusted []segment, untrusted []int64, err error) {
	rows, err := q.QueryContext(ctx, `SELECT `+segmentColumns+` FROM filter_index ORDER BY first_id`)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the filter index: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		s, ok, err := scanSegment(rows)
		if err != nil {
			return nil, nil, fmt.Errorf("reading the filter index: %w", err)
		}
		if n := len(trusted); ok && n > 0 && s.firstID <= trusted[n-1].lastID {
			ok = false
		}
		if !ok {
			untrusted = append(untrusted, s.firstID)
			continue
		}
		trusted = append(trusted, s)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("reading the filter index: %w", err)
	}
	return trusted, untrusted, nil
}

// span is a run of block ids a reader handles alike: read (decode the blocks in it, the time
// bounds applied), or counted (n entries, every one chosen, taken from the index).
type span struct {
	lo, hi  int64
	counted bool
	n       int64
}

// plan is the spans a filter reads, in id order: the segments that may hold a match and every
// run of blocks no segment covers; segments that cannot hold one are left out. counting allows
// counted spans (Count, which has no offset or limit): segments every entry of which matches,
// none of them pruned (above anchorID).
func plan(segs []segment, m matcher, anchorID int64, counting bool) []span {
	var out []span
	read := func(lo, hi int64) {
		if lo > hi {
			return
		}
		if n := len(out); n > 0 && !out[n-1].counted && out[n-1].hi+1 == lo {
			out[n-1].hi = hi
			return
		}
		out = append(out, span{lo: lo, hi: hi})
	}
	next := int64(math.MinInt64)
	for i := range segs {
		s := &segs[i]
		read(next, s.firstID-1)
		switch {
		case !s.mayMatch(m):
		case counting && s.firstID > anchorID && s.allMatch(m):
			out = append(out, span{lo: s.firstID, hi: s.lastID, counted: true, n: s.entries})
		default:
			read(s.firstID, s.lastID)
		}
		next = s.lastID + 1
	}
	read(next, math.MaxInt64)
	return out
}

// extendSegment records a batch the writer just wrote as one block (entries chained, ids and
// stored times set) in the index, in the writer's transaction: the newest segment grows when
// it ends right before the batch and is not full, else the batch starts a new one. A newest
// segment that ends elsewhere (blocks written by a build before the index) is left as it is,
// and the blocks between are indexed by the indexer.
func (st *writeStmts) extendSegment(ctx context.Context, tx *sql.Tx, batch []*Entry, size int) error {
	seg, ok, err := scanSegment(tx.StmtContext(ctx, st.lastSegment).QueryRowContext(ctx))
	if errors.Is(err, sql.ErrNoRows) {
		ok, err = false, nil
	}
	if err != nil {
		return fmt.Errorf("reading the filter index: %w", err)
	}
	if !ok || seg.lastID != batch[0].ID-1 || seg.entries >= int64(size) {
		seg = segment{}
	}
	for _, e := range batch {
		seg.add(e)
	}
	text, err := seg.encode()
	if err != nil {
		return err
	}
	if _, err := tx.StmtContext(ctx, st.upsertSegment).ExecContext(ctx, seg.firstID, seg.lastID, seg.entries, seg.minTime, seg.maxTime, text); err != nil {
		return fmt.Errorf("writing the filter index: %w", err)
	}
	return nil
}

const (
	selectLastSegment = `SELECT ` + segmentColumns + ` FROM filter_index ORDER BY first_id DESC LIMIT 1`
	upsertSegment     = `INSERT INTO filter_index(` + segmentColumns + `) VALUES (?,?,?,?,?,?)
	ON CONFLICT(first_id) DO UPDATE SET last_id = excluded.last_id, entries = excluded.entries,
	min_time = excluded.min_time, max_time = excluded.max_time, summary = excluded.summary`
)

// startIndexer indexes what no segment covers now, in the background, and again whenever
// reindex is signalled (Verify found a segment that lies), until Close.
func (l *Log) startIndexer() {
	ctx, cancel := context.WithCancel(context.Background())
	l.indexStop, l.indexDone, l.reindex = cancel, make(chan struct{}), make(chan struct{}, 1)
	go func() {
		defer close(l.indexDone)
		for {
			if err := l.indexGaps(ctx); err != nil && ctx.Err() == nil {
				l.logger.Warn("activity log: indexing for filters failed, filters decode every block meanwhile: " + l.redactor.Error(err))
			}
			select {
			case <-ctx.Done():
				return
			case <-l.reindex:
			}
		}
	}()
}

// indexGaps removes the segments a reader does not trust and those wholly pruned (by a build
// before the index, which prunes blocks only), then writes segments for the blocks none
// covers, one transaction each: the writer waits at most one segment's decoding (a few
// milliseconds) for the lock.
func (l *Log) indexGaps(ctx context.Context) error {
	if err := l.dropUntrusted(ctx); err != nil {
		return err
	}
	pos := int64(math.MinInt64)
	for {
		next, done, err := l.indexOne(ctx, pos)
		if err != nil || done {
			return err
		}
		pos = next
	}
}

func (l *Log) dropUntrusted(ctx context.Context) error {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	_, untrusted, err := loadSegments(ctx, tx)
	if err != nil {
		return err
	}
	for _, id := range untrusted {
		if _, err := tx.ExecContext(ctx, `DELETE FROM filter_index WHERE first_id = ?`, id); err != nil {
			return fmt.Errorf("removing a filter index segment: %w", err)
		}
	}
	anchorID, _, err := anchor(ctx, tx)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM filter_index WHERE last_id <= ?`, anchorID); err != nil {
		return fmt.Errorf("removing pruned filter index segments: %w", err)
	}
	return tx.Commit()
}

// indexOne writes one segment for the first blocks from pos on that no segment covers, and
// returns where to look next; done when no such block is left. A block that does not read is
// left out (readers decode it, and list it as unreadable).
func (l *Log) indexOne(ctx context.Context, pos int64) (next int64, done bool, err error) {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, false, err
	}
	defer tx.Rollback()
	limit := int64(math.MaxInt64)
	var start int64
	for {
		var first, last int64
		err := tx.QueryRowContext(ctx, `SELECT first_id, last_id FROM filter_index WHERE first_id <= ? ORDER BY first_id DESC LIMIT 1`, pos).Scan(&first, &last)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return 0, false, err
		}
		if err == nil && last >= pos {
			pos = last + 1 // inside a segment
			continue
		}
		if err := tx.QueryRowContext(ctx, `SELECT first_id FROM blocks WHERE first_id >= ? ORDER BY first_id LIMIT 1`, pos).Scan(&start); errors.Is(err, sql.ErrNoRows) {
			return 0, true, nil
		} else if err != nil {
			return 0, false, err
		}
		err = tx.QueryRowContext(ctx, `SELECT first_id FROM filter_index WHERE first_id > ? ORDER BY first_id LIMIT 1`, pos).Scan(&first)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return 0, false, err
		}
		if err == nil {
			if start >= first {
				pos = first // the next block is covered
				continue
			}
			limit = first - 1
		}
		break
	}
	rows, err := tx.QueryContext(ctx, `SELECT first_id, last_id, min_time, max_time, prev_hash, entries, 1 FROM blocks WHERE first_id BETWEEN ? AND ? ORDER BY first_id`, start, limit)
	if err != nil {
		return 0, false, err
	}
	defer rows.Close()
	var seg segment
	next = start
	for seg.entries < int64(l.segmentSize) && rows.Next() {
		b, err := scanBlock(rows)
		if err != nil {
			return 0, false, err
		}
		entries, err := b.decode()
		if err != nil || b.lastID > limit {
			if seg.entries == 0 {
				next = max(b.firstID, b.lastID) + 1 // step over it
			}
			break
		}
		for i := range entries {
			seg.add(&entries[i])
		}
		next = b.lastID + 1
	}
	if err := rows.Err(); err != nil {
		return 0, false, err
	}
	rows.Close()
	if seg.entries == 0 {
		return next, false, nil
	}
	text, err := seg.encode()
	if err != nil {
		return 0, false, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO filter_index(`+segmentColumns+`) VALUES (?,?,?,?,?,?)`, seg.firstID, seg.lastID, seg.entries, seg.minTime, seg.maxTime, text); err != nil {
		return 0, false, fmt.Errorf("writing the filter index: %w", err)
	}
	return next, false, tx.Commit()
}

// segmentCheck is Verify's check of the index against the blocks it walks.
type segmentCheck struct {
	segs     []segment
	anchorID int64
	i        int
	n        int64 // entries seen in segs[i]
	lying    []int64
}

// block checks a verified block's entries against the segment covering it.
func (c *segmentCheck) block(b block, entries []Entry) *Broken {
	for c.i < len(c.segs) && c.segs[c.i].lastID < b.firstID {
		if broken := c.finish(); broken != nil {
			return broken
		}
	}
	if c.i == len(c.segs) || b.firstID < c.segs[c.i].firstID {
		return nil
	}
	s := &c.segs[c.i]
	if b.lastID > s.lastID {
		return c.lie(s, b.lastID, fmt.Sprintf("ends at entry %d, inside the block of entries %d to %d", s.lastID, b.firstID, b.lastID))
	}
	for i := range entries {
		if ok, what := s.holds(&entries[i]); !ok {
			return c.lie(s, entries[i].ID, fmt.Sprintf("does not hold the %s of entry %d", what, entries[i].ID))
		}
	}
	c.n += int64(len(entries))
	return nil
}

// finish checks the count of the current segment, which a count may use while none of its
// entries was pruned, and moves to the next.
func (c *segmentCheck) finish() *Broken {
	s := &c.segs[c.i]
	c.i++
	n := c.n
	c.n = 0
	if s.firstID > c.anchorID && n != s.entries {
		return c.lie(s, s.firstID, fmt.Sprintf("says it holds %d entries, its blocks hold %d", s.entries, n))
	}
	return nil
}

// end finishes the segments after the last block.
func (c *segmentCheck) end() *Broken {
	for c.i < len(c.segs) {
		if broken := c.finish(); broken != nil {
			return broken
		}
	}
	return nil
}

func (c *segmentCheck) lie(s *segment, id int64, what string) *Broken {
	c.lying = append(c.lying, s.firstID)
	return &Broken{ID: id, Reason: fmt.Sprintf("the filter index for entries %d to %d %s: the index was edited, and filtered lists and counts left out entries it hid; the app rebuilds it when it checks the log",
		s.firstID, s.lastID, what)}
}

// dropSegments removes segments found lying and has the indexer rebuild them (a writable log).
func (l *Log) dropSegments(ctx context.Context, ids []int64) error {
	for _, id := range ids {
		if _, err := l.db.ExecContext(ctx, `DELETE FROM filter_index WHERE first_id = ?`, id); err != nil {
			return fmt.Errorf("removing a filter index segment that lies: %w", err)
		}
	}
	select {
	case l.reindex <- struct{}{}:
	default:
	}
	return nil
}
