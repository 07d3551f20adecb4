package registry

import (
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
)

// Platform is an operating system and architecture, in GOOS/GOARCH names.
type Platform struct {
	OS   string `json:"os"`
	Arch string `json:"arch"`
}

// Current is the platform this app runs on.
func Current() Platform { return Platform{OS: runtime.GOOS, Arch: runtime.GOARCH} }

func (p Platform) String() string { return p.OS + "/" + p.Arch }

// Mobile reports whether the platform is a mobile one (ios, android): plugins are never
// offered there, and their artifacts are never offered anywhere (SPEC A.5).
func (p Platform) Mobile() bool { return p.OS == "ios" || p.OS == "android" }

// Status is what the app can do with a plugin of the index on its platform.
type Status string

// The statuses of Choose.
const (
	// Available: Choice.Version and Choice.Artifact can be installed.
	Available Status = "available"
	// NotForPlatform: no build for this OS and architecture ("not available for this
	// platform").
	NotForPlatform Status = "not_for_platform"
	// MobileOnly: every build is for ios or android.
	MobileOnly Status = "mobile_only"
	// Incompatible: builds for this platform exist, but each needs a newer app or speaks
	// another plugin protocol.
	Incompatible Status = "incompatible"
)

// Choice is the version of a plugin to install on a platform, or why there is none.
type Choice struct {
	Status   Status
	Version  *Version
	Artifact *Artifact
	// Reason says why nothing is available, as a sentence for the user.
	Reason string
}

// Err returns the refusal of a choice that is not Available, or nil.
func (c Choice) Err() error {
	switch c.Status {
	case Available:
		return nil
	case MobileOnly:
		return &Error{Code: CodeMobileOnly, Msg: c.Reason}
	case Incompatible:
		return &Error{Code: CodeIncompatible, Msg: c.Reason}
	}
	return &Error{Code: CodeWrongPlatform, Msg: c.Reason}
}

// SortedVersions returns the plugin's versions, newest first.
func (p *Plugin) SortedVersions() []*Version {
	out := make([]*Version, len(p.Versions))
	for i := range p.Versions {
		out[i] = &p.Versions[i]
	}
	sort.SliceStable(out, func(i, j int) bool { return CompareVersions(out[i].Version, out[j].Version) > 0 })
	return out
}

// Artifact returns the version's artifact for plat; mobile artifacts are never returned.
func (v *Version) Artifact(plat Platform) (*Artifact, bool) {
	for i := range v.Artifacts {
		a := &v.Artifacts[i]
		if a.Platform() == plat && !a.Platform().Mobile() {
			return a, true
		}
	}
	return nil, false
}

// Choose picks the newest version of p that has a build for plat, speaks one of the
// protocols and runs with appVersion; or says why there is none.
func (p *Plugin) Choose(plat Platform, appVersion string, protocols []int) Choice {
	title := p.Title()
	if plat.Mobile() {
		return Choice{Status: MobileOnly, Reason: fmt.Sprintf("%s is not offered on mobile platforms (%s).", title, plat)}
	}
	var blocked []string
	var desktop, mobile []string
	for _, v := range p.SortedVersions() {
		for _, a := range v.Artifacts {
			name := a.Platform().String()
			if a.Platform().Mobile() {
				mobile = appendNew(mobile, name)
			} else {
				desktop = appendNew(desktop, name)
			}
		}
		a, ok := v.Artifact(plat)
		if !ok {
			continue
		}
		if !slices.Contains(protocols, v.ProtocolVersion) {
			blocked = append(blocked, protocolReason(title, v, protocols))
			continue
		}
		if v.MinAppVersion != "" && CompareVersions(appVersion, v.MinAppVersion) < 0 {
			blocked = append(blocked, fmt.Sprintf("%s %s needs app %s or newer (this app is %s): update the app.", title, v.Version, v.MinAppVersion, appVersion))
			continue
		}
		return Choice{Status: Available, Version: v, Artifact: a}
	}
	sort.Strings(desktop)
	sort.Strings(mobile)
	switch {
	case len(blocked) > 0:
		return Choice{Status: Incompatible, Reason: blocked[0]}
	case len(desktop) == 0 && len(mobile) > 0:
		return Choice{Status: MobileOnly, Reason: fmt.Sprintf("%s is only built for mobile platforms (%s), which the app does not run plugins on.", title, strings.Join(mobile, ", "))}
	case len(desktop) == 0:
		return Choice{Status: NotForPlatform, Reason: fmt.Sprintf("%s is not available for this platform (%s): the registry has no build of it.", title, plat)}
	}
	return Choice{Status: NotForPlatform, Reason: fmt.Sprintf("%s is not available for this platform (%s); it is built for %s.", title, plat, strings.Join(desktop, ", "))}
}

func protocolReason(title string, v *Version, protocols []int) string {
	newest := slices.Max(protocols)
	if v.ProtocolVersion > newest {
		return fmt.Sprintf("%s %s speaks plugin protocol %d and this app speaks %d: update the app.", title, v.Version, v.ProtocolVersion, newest)
	}
	return fmt.Sprintf("%s %s speaks plugin protocol %d and this app speaks %d: the registry has no build of it for this app.", title, v.Version, v.ProtocolVersion, newest)
}

func appendNew(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}
