package wire

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends the JSON encoding of v. It handles the shapes results
// are built from (maps, slices of raw JSON, strings, numbers, booleans)
// directly, with sorted object keys like encoding/json, and falls back to
// json.Marshal for anything else. json.RawMessage values are trusted as
// compact JSON produced by the server (tool listings, echoed ids, handler
// results already marshalled), so they are not re-validated.
func AppendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case json.RawMessage:
		if x == nil {
			return append(b, "null"...), nil
		}
		return append(b, x...), nil
	case string:
		return AppendString(b, x), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			break
		}
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.AppendInt(b, int64(x), 10), nil
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, k)
			b = append(b, ':')
			var err error
			if b, err = AppendJSON(b, x[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []json.RawMessage:
		b = append(b, '[')
		for i, r := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, r...)
		}
		return append(b, ']'), nil
	case []string:
		b = append(b, '[')
		for i, s := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, s)
		}
		return append(b, ']'), nil
	}
	m, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, m...), nil
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string, escaping exactly as
// encoding/json does (HTML-sensitive characters, U+2028/U+2029, invalid
// UTF-8 as U+FFFD).
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// EncodeResult builds {"jsonrpc":"2.0","id":<id>,"result":<result>}.
func EncodeResult(id json.RawMessage, result any) ([]byte, error) {
	b := make([]byte, 0, 1024)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	if id == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, id...)
	}
	b = append(b, `,"result":`...)
	b, err := AppendJSON(b, result)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// EncodeError builds {"jsonrpc":"2.0","id":<id>,"error":{"code","message"[,"data"]}}.
// A data value that cannot be encoded is left out rather than losing the error.
func EncodeError(id json.RawMessage, code int, message string, data any) []byte {
	b := make([]byte, 0, 128+len(message))
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	if id == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, id...)
	}
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, `,"message":`...)
	b = AppendString(b, message)
	if data != nil {
		if d, err := AppendJSON(nil, data); err == nil {
			b = append(b, `,"data":`...)
			b = append(b, d...)
		}
	}
	return append(b, "}}"...)
}
