package activity

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// The log is stored as blocks: one row per batch the writer commits, holding the batch's
// entries as a JSON array, oldest first. One SQLite row per request cost the server about
// 12% of its throughput (16 columns, a time index: 9 to 10 us of the writer's CPU per entry,
// which on two cores is CPU the requests do not get); a block costs about 1 to 2 us an entry
// (issue 25: the log costs at most 10%). A block's entries have consecutive ids from
// first_id; each keeps its own hash, and the block keeps the hash of the entry before its
// first (prev_hash), so the chain is the same as before and Verify still names the entry at
// which it breaks. The JSON is readable with SQLite's own functions:
//
//	SELECT e.value->>'time', e.value->>'client', e.value->>'statement'
//	FROM blocks, json_each(blocks.entries) AS e ORDER BY blocks.first_id, e.key;

// storedEntry is an entry as a block holds it: its id is first_id plus its index, its
// prev_hash the hash before it; empty fields are left out.
type storedEntry struct {
	Time          string `json:"time"`
	ClientName    string `json:"client,omitempty"`
	ClientVersion string `json:"clientVersion,omitempty"`
	Principal     string `json:"principal,omitempty"`
	TokenName     string `json:"token,omitempty"`
	Level         string `json:"level,omitempty"`
	Method        string `json:"method,omitempty"`
	Name          string `json:"name,omitempty"`
	Connection    string `json:"connection,omitempty"`
	Statement     string `json:"statement,omitempty"`
	Outcome       string `json:"outcome,omitempty"`
	DurationMS    int64  `json:"ms,omitempty"`
	Trace         string `json:"trace,omitempty"`
	Hash          string `json:"hash"`
}

// block is one row of blocks.
type block struct {
	firstID, lastID int64
	prevHash        string
	entries         string
}

// appendBlock appends the JSON array of entries (chained and hashed) to buf. It writes what
// storedEntry's tags say, by hand: encoding/json's reflection cost as much as the row it
// replaced. Every text field is valid UTF-8 by now (redactEntryCached), so the bytes are
// copied as they are and read back identical, which the hashes depend on.
func appendBlock(buf []byte, entries []*Entry) []byte {
	buf = append(buf, '[')
	for i, e := range entries {
		if i > 0 {
			buf = append(buf, ',')
		}
		t := e.rawTime
		if t == "" {
			t = formatTime(e.Time)
		}
		buf = append(buf, `{"time":`...)
		buf = appendJSONString(buf, t)
		for _, f := range [...]struct {
			key string
			v   *string
		}{
			{`,"client":`, &e.ClientName}, {`,"clientVersion":`, &e.ClientVersion}, {`,"principal":`, &e.Principal},
			{`,"token":`, &e.TokenName}, {`,"level":`, &e.Level}, {`,"method":`, &e.Method}, {`,"name":`, &e.Name},
			{`,"connection":`, &e.Connection}, {`,"statement":`, &e.Statement}, {`,"outcome":`, &e.Outcome},
		} {
			if *f.v != "" {
				buf = append(buf, f.key...)
				buf = appendJSONString(buf, *f.v)
			}
		}
		if e.DurationMS != 0 {
			buf = append(buf, `,"ms":`...)
			buf = strconv.AppendInt(buf, e.DurationMS, 10)
		}
		if e.Trace != "" {
			buf = append(buf, `,"trace":`...)
			buf = appendJSONString(buf, e.Trace)
		}
		buf = append(buf, `,"hash":`...)
		buf = appendJSONString(buf, e.Hash)
		buf = append(buf, '}')
	}
	return append(buf, ']')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string: quote, backslash and control characters
// escaped, everything else (valid UTF-8) as it is.
func appendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		buf = append(buf, s[start:i]...)
		switch c {
		case '"', '\\':
			buf = append(buf, '\\', c)
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\t':
			buf = append(buf, '\\', 't')
		default:
			buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// decode reads a block's entries, each with its id, prev_hash and the stored time text its
// hash covers. A block whose text is not its entries (edited by hand, cut short) is an
// error naming its first entry, which Verify reports as the break.
func (b block) decode() ([]Entry, error) {
	var stored []storedEntry
	if err := json.Unmarshal([]byte(b.entries), &stored); err != nil {
		return nil, &Broken{ID: b.firstID, Reason: fmt.Sprintf("the block of entries %d to %d does not read as entries: %v", b.firstID, b.lastID, err)}
	}
	if int64(len(stored)) != b.lastID-b.firstID+1 {
		return nil, &Broken{ID: b.firstID, Reason: fmt.Sprintf("the block of entries %d to %d holds %d: an entry was removed or inserted", b.firstID, b.lastID, len(stored))}
	}
	out := make([]Entry, len(stored))
	prev := b.prevHash
	for i, s := range stored {
		e := &out[i]
		*e = Entry{
			ID: b.firstID + int64(i), ClientName: s.ClientName, ClientVersion: s.ClientVersion, Principal: s.Principal,
			TokenName: s.TokenName, Level: s.Level, Method: s.Method, Name: s.Name, Connection: s.Connection,
			Statement: s.Statement, Outcome: s.Outcome, DurationMS: s.DurationMS, Trace: s.Trace,
			PrevHash: prev, Hash: s.Hash, rawTime: s.Time,
		}
		// A time that no longer parses is shown as the zero time; its hash no longer
		// matches, which Verify reports.
		e.Time, _ = parseTime(s.Time)
		prev = s.Hash
	}
	return out, nil
}
