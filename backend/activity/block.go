package activity

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The log is stored as blocks: one row per batch the writer commits, holding the batch's
// entries as a JSON array, oldest first. One SQLite row per request cost the server about
// 12% of its throughput (16 columns, a time index: about 10 us of the writer's CPU per entry,
// which on two cores is CPU the requests do not get); with blocks the writer spends about
// 3 us an entry, hash and redaction included (issue 25: the log costs at most 10%). A block's entries have consecutive ids from
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
	firstID, lastID   int64
	minTime, maxTime  string
	prevHash, entries string
	written           bool // by the writer (or migrate), not read from an older database
}

// appendBlock appends the JSON array of entries (chained and hashed) to buf.
func appendBlock(buf []byte, entries []*Entry) []byte {
	buf = append(buf, '[')
	for i, e := range entries {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendEntry(buf, e)
	}
	return append(buf, ']')
}

// appendEntry appends one entry as a JSON object. It writes what storedEntry's tags say, by
// hand: encoding/json's reflection cost as much as the row it replaced. Every text field is
// valid UTF-8 by now (redactEntryCached), so the bytes are copied as they are and read back
// identical, which the hashes depend on; the form is exact (Verify checks it), so a block's
// text holds nothing its entries do not say.
func appendEntry(buf []byte, e *Entry) []byte {
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
	return append(buf, '}')
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
	if b.lastID < b.firstID {
		return nil, &Broken{ID: b.firstID, Reason: fmt.Sprintf("the block of entries %d to %d is empty: its ids were edited", b.firstID, b.lastID)}
	}
	stored, err := decodeEntries(b.entries)
	if err != nil {
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

// decodeEntries reads a block's JSON: first the form appendBlock (and SQLite's json_object,
// for migrated blocks) writes, by hand, at a tenth of encoding/json's cost (a filtered count
// of the Settings panel decodes every block); anything else (whitespace, other keys, null,
// surrogate escapes: a block edited by hand) through encoding/json, whose answer the fast
// path always matches (FuzzDecodeEntries).
func decodeEntries(s string) ([]storedEntry, error) {
	if out, ok := decodeFast(s); ok {
		return out, nil
	}
	var out []storedEntry
	err := json.Unmarshal([]byte(s), &out)
	return out, err
}

// decodeFast parses [{"key":value,...},...] without whitespace, where every key is one of
// storedEntry's and every value a string (ms: an integer); ok is false for anything else.
func decodeFast(s string) (out []storedEntry, ok bool) {
	if len(s) < 2 || s[0] != '[' {
		return nil, false
	}
	i := 1
	if s[i] == ']' {
		return []storedEntry{}, i+1 == len(s)
	}
	out = make([]storedEntry, 0, 1+len(s)/256)
	for {
		if i >= len(s) || s[i] != '{' {
			return nil, false
		}
		i++
		var e storedEntry
		if i < len(s) && s[i] == '}' {
			i++
		} else {
			for {
				key, next, ok := fastString(s, i)
				if !ok || next >= len(s) || s[next] != ':' {
					return nil, false
				}
				i = next + 1
				if key == "ms" {
					n, next, ok := fastInt(s, i)
					if !ok {
						return nil, false
					}
					e.DurationMS, i = n, next
				} else {
					f := e.field(key)
					if f == nil {
						return nil, false
					}
					v, next, ok := fastString(s, i)
					if !ok {
						return nil, false
					}
					*f, i = v, next
				}
				if i >= len(s) {
					return nil, false
				}
				if s[i] == '}' {
					i++
					break
				}
				if s[i] != ',' {
					return nil, false
				}
				i++
			}
		}
		out = append(out, e)
		if i >= len(s) {
			return nil, false
		}
		if s[i] == ']' {
			return out, i+1 == len(s)
		}
		if s[i] != ',' {
			return nil, false
		}
		i++
	}
}

// field is the string field a key names, or nil.
func (e *storedEntry) field(key string) *string {
	switch key {
	case "time":
		return &e.Time
	case "client":
		return &e.ClientName
	case "clientVersion":
		return &e.ClientVersion
	case "principal":
		return &e.Principal
	case "token":
		return &e.TokenName
	case "level":
		return &e.Level
	case "method":
		return &e.Method
	case "name":
		return &e.Name
	case "connection":
		return &e.Connection
	case "statement":
		return &e.Statement
	case "outcome":
		return &e.Outcome
	case "trace":
		return &e.Trace
	case "hash":
		return &e.Hash
	}
	return nil
}

// fastString reads the JSON string at s[i:] and the index after it. Plain text is returned
// as a part of s; the escapes JSON has are decoded, except \u surrogates (ok false).
func fastString(s string, i int) (v string, next int, ok bool) {
	if i >= len(s) || s[i] != '"' {
		return "", 0, false
	}
	i++
	start := i
	var buf []byte
	ascii := true
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			if buf == nil {
				v = s[start:i]
			} else {
				v = string(append(buf, s[start:i]...))
			}
			if !ascii && !utf8.ValidString(v) {
				return "", 0, false // encoding/json would replace the bytes
			}
			return v, i + 1, true
		case c < 0x20:
			return "", 0, false
		case c >= 0x80:
			ascii = false
			i++
		case c == '\\':
			if i+1 >= len(s) {
				return "", 0, false
			}
			buf = append(buf, s[start:i]...)
			switch esc := s[i+1]; esc {
			case '"', '\\', '/':
				buf = append(buf, esc)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				if i+6 > len(s) {
					return "", 0, false
				}
				r, err := strconv.ParseUint(s[i+2:i+6], 16, 32)
				if err != nil || utf16.IsSurrogate(rune(r)) {
					return "", 0, false
				}
				buf = utf8.AppendRune(buf, rune(r))
				i += 4
			default:
				return "", 0, false
			}
			i += 2
			start = i
		default:
			i++
		}
	}
	return "", 0, false
}

// fastInt reads a JSON integer that fits an int64 at s[i:] and the index after it.
func fastInt(s string, i int) (n int64, next int, ok bool) {
	start := i
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	// No leading zeros, no fraction or exponent (encoding/json refuses those for an int64,
	// or reads them as JSON does not allow).
	if i == digits || (s[digits] == '0' && i-digits > 1) || (i < len(s) && (s[i] == '.' || s[i] == 'e' || s[i] == 'E')) {
		return 0, 0, false
	}
	n, err := strconv.ParseInt(s[start:i], 10, 64)
	if err != nil {
		return 0, 0, false
	}
	return n, i, true
}
