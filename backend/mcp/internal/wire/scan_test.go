package wire

import (
	"testing"
)

// The member scanner splits valid JSON objects the way encoding/json reads
// them, and refuses a member named twice, so that no two readers of one
// body can see different values.
func TestObjectMembers(t *testing.T) {
	cases := []struct {
		name, in string
		want     map[string]string
		err      error
	}{
		{"members and nested values", `{"a":1,"b":{"c":[1,"}"]},"d":"x"}`, map[string]string{"a": "1", "b": `{"c":[1,"}"]}`, "d": `"x"`}, nil},
		{"an escaped name is the same member", `{"\u006dethod":"m"}`, map[string]string{"method": `"m"`}, nil},
		{"an empty object", ` { } `, map[string]string{}, nil},
		{"a member named twice is refused", `{"a":1,"a":2}`, nil, ErrDuplicateMember},
		{"names equal after unescaping are refused", `{"a":1,"\u0061":2}`, nil, ErrDuplicateMember},
		{"an array is not an object", `[1]`, nil, ErrNotObject},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ObjectMembers([]byte(c.in))
			if err != c.err {
				t.Fatalf("err %v, want %v", err, c.err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("%v", got)
			}
			for k, v := range c.want {
				if string(got[k]) != v {
					t.Fatalf("%s = %s, want %s", k, got[k], v)
				}
			}
		})
	}
}

// RawString reads a JSON string value, escapes and all; anything else is
// not a string.
func TestRawString(t *testing.T) {
	for in, want := range map[string]string{`"abc"`: "abc", `"a\"b"`: `a"b`, `"\u00e9"`: "é", ` "x" `: "x"} {
		if got, ok := RawString([]byte(in)); !ok || got != want {
			t.Errorf("RawString(%s) = %q %v", in, got, ok)
		}
	}
	for _, in := range []string{`1`, `null`, `"a" "b"`, `{}`, `"`} {
		if _, ok := RawString([]byte(in)); ok {
			t.Errorf("RawString(%s) accepted", in)
		}
	}
}
