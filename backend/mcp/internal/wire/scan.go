package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// A small scanner over JSON text that is already known to be valid (the
// whole body passed json.Valid, and every value handed around is a slice of
// it). It splits objects into members without building a token stream,
// which keeps the request path cheap. Keys with escapes are decoded with
// encoding/json so that "\u006dethod" and "method" are the same member.

// ErrNotObject is returned by ObjectMembers for a value that is not an object.
var ErrNotObject = errors.New("not an object")

// ErrDuplicateMember is returned by ObjectMembers for an object that names a member twice.
var ErrDuplicateMember = errors.New("duplicate member")

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// stringEnd returns the index just past the closing quote of the string
// starting at b[i] == '"', and whether it holds an escape.
func stringEnd(b []byte, i int) (int, bool, error) {
	esc := false
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			esc = true
			j++
		case '"':
			return j + 1, esc, nil
		}
	}
	return 0, false, errors.New("unterminated string")
}

// valueEnd returns the index just past the value starting at b[i].
func valueEnd(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errors.New("unexpected end")
	}
	switch b[i] {
	case '"':
		j, _, err := stringEnd(b, i)
		return j, err
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				k, _, err := stringEnd(b, j)
				if err != nil {
					return 0, err
				}
				j = k - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errors.New("unterminated value")
	default:
		j := i
		for j < len(b) && !isSpace(b[j]) && b[j] != ',' && b[j] != '}' && b[j] != ']' {
			j++
		}
		if j == i {
			return 0, errors.New("empty value")
		}
		return j, nil
	}
}

// ObjectMembers splits a JSON object (valid JSON) into its members, refusing
// duplicate names so that no two readers of the same body can see different
// values.
func ObjectMembers(obj []byte) (map[string]json.RawMessage, error) {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil, ErrNotObject
	}
	out := make(map[string]json.RawMessage, 4)
	i = skipSpace(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return out, nil
	}
	for {
		if i >= len(obj) || obj[i] != '"' {
			return nil, errors.New("member name expected")
		}
		end, esc, err := stringEnd(obj, i)
		if err != nil {
			return nil, err
		}
		var key string
		if esc || !utf8.Valid(obj[i+1:end-1]) {
			// Escapes and invalid UTF-8 (which encoding/json turns into
			// U+FFFD) decode exactly as encoding/json does.
			if err := json.Unmarshal(obj[i:end], &key); err != nil {
				return nil, err
			}
		} else {
			key = string(obj[i+1 : end-1])
		}
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return nil, errors.New("colon expected")
		}
		i = skipSpace(obj, i+1)
		vend, err := valueEnd(obj, i)
		if err != nil {
			return nil, err
		}
		if _, dup := out[key]; dup {
			return nil, ErrDuplicateMember
		}
		out[key] = json.RawMessage(obj[i:vend:vend])
		i = skipSpace(obj, vend)
		if i >= len(obj) {
			return nil, errors.New("unterminated object")
		}
		if obj[i] == '}' {
			return out, nil
		}
		if obj[i] != ',' {
			return nil, errors.New("comma expected")
		}
		i = skipSpace(obj, i+1)
	}
}

// RawString decodes a raw JSON string value; ok is false for any other
// value. Strings without escapes are sliced, not unmarshalled.
func RawString(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimRight(raw[skipSpace(raw, 0):], " \t\r\n")
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	end, esc, err := stringEnd(raw, 0)
	if err != nil || end != len(raw) {
		return "", false
	}
	if !esc && utf8.Valid(raw[1:end-1]) {
		return string(raw[1 : end-1]), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}
