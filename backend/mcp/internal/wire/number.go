package wire

import (
	"strconv"
	"strings"
)

// CanonicalNumber turns a JSON-grammar number into a canonical text
// (sign, significant digits, exponent) so that 1, 1.0, 10e-1 and 0.1e1 all
// compare equal, exactly and without floating-point rounding or big-number
// blowups. It reports false for text that is not a JSON number.
func CanonicalNumber(s string) (string, bool) {

	i, n := 0, len(s)
	neg := false
	if i < n && s[i] == '-' {
		neg = true
		i++
	}
	startInt := i
	switch {
	case i < n && s[i] == '0':
		i++
	case i < n && s[i] >= '1' && s[i] <= '9':
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i == startInt {
		return "", false
	}
	intPart := s[startInt:i]
	frac := ""
	if i < n && s[i] == '.' {
		i++
		fs := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == fs {
			return "", false
		}
		frac = s[fs:i]
	}
	var exp int64
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		es := i
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		ds := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == ds {
			return "", false
		}
		digits := strings.TrimLeft(s[ds:i], "0")
		if len(digits) > 15 {
			return "", false // exponents beyond 1e15 are not numbers anyone sends
		}
		if digits != "" {
			v, err := strconv.ParseInt(digits, 10, 64)
			if err != nil {
				return "", false
			}
			exp = v
		}
		if s[es] == '-' {
			exp = -exp
		}
	}
	if i != n {
		return "", false
	}
	digits := intPart + frac
	exp -= int64(len(frac))
	lead := strings.TrimLeft(digits, "0")
	if lead == "" {
		return "0", true // -0 == 0
	}
	trail := strings.TrimRight(lead, "0")
	exp += int64(len(lead) - len(trail))
	sign := ""
	if neg {
		sign = "-"
	}
	return sign + trail + "e" + strconv.FormatInt(exp, 10), true
}
