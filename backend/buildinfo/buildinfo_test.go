package buildinfo

import (
	"runtime/debug"
	"testing"
)

// Issue 20: the version is the git tag's, else 0.0.0-dev+<commit>.
func TestVersionOfABuild(t *testing.T) {
	vcs := func(rev, modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}}
	}
	cases := []struct {
		rule    string
		stamped string
		info    *debug.BuildInfo
		want    string
	}{
		{"a release build is its tag, without the v", "v1.4.0", vcs("0123456789abcdef0123", "false"), "1.4.0"},
		{"a stamped version is taken as it is", "2.0.0-rc.1", nil, "2.0.0-rc.1"},
		{"a developer build names its commit", "", vcs("0123456789abcdef0123", "false"), "0.0.0-dev+0123456789ab"},
		{"uncommitted changes are said", "", vcs("0123456789abcdef0123", "true"), "0.0.0-dev+0123456789ab.dirty"},
		{"a build without version control is 0.0.0-dev", "", &debug.BuildInfo{}, "0.0.0-dev"},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			if got := versionOf(c.stamped, c.info, c.info != nil); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}
