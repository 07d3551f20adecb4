package registry

import (
	"strconv"
	"strings"
)

// CompareVersions compares two semantic versions (major.minor.patch[-pre][+build]) and
// returns -1, 0 or 1. A pre-release sorts before its release (1.0.0-dev < 1.0.0); build
// metadata is ignored. Text that is no version sorts before every version.
func CompareVersions(a, b string) int {
	pa, oka := parseVersion(a)
	pb, okb := parseVersion(b)
	switch {
	case !oka && !okb:
		return strings.Compare(a, b)
	case !oka:
		return -1
	case !okb:
		return 1
	}
	for i := range 3 {
		if pa.num[i] != pb.num[i] {
			if pa.num[i] < pb.num[i] {
				return -1
			}
			return 1
		}
	}
	return comparePre(pa.pre, pb.pre)
}

type version struct {
	num [3]uint64
	pre []string
}

func parseVersion(s string) (version, bool) {
	if !versionRE.MatchString(s) {
		return version{}, false
	}
	if i := strings.IndexByte(s, '+'); i >= 0 {
		s = s[:i]
	}
	var v version
	core := s
	if i := strings.IndexByte(s, '-'); i >= 0 {
		core = s[:i]
		v.pre = strings.Split(s[i+1:], ".")
	}
	for i, p := range strings.SplitN(core, ".", 3) {
		n, err := strconv.ParseUint(p, 10, 64)
		if err != nil {
			return version{}, false
		}
		v.num[i] = n
	}
	return v, true
}

func comparePre(a, b []string) int {
	switch {
	case len(a) == 0 && len(b) == 0:
		return 0
	case len(a) == 0:
		return 1
	case len(b) == 0:
		return -1
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := compareIdent(a[i], b[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

func compareIdent(a, b string) int {
	na, ea := strconv.ParseUint(a, 10, 64)
	nb, eb := strconv.ParseUint(b, 10, 64)
	switch {
	case ea == nil && eb == nil:
		if na == nb {
			return 0
		}
		if na < nb {
			return -1
		}
		return 1
	case ea == nil:
		return -1 // numeric identifiers sort before alphanumeric ones
	case eb == nil:
		return 1
	}
	return strings.Compare(a, b)
}
