package mcp_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"app/backend/mcp"
)

// update rewrites the response sections of the golden files with what the
// server answers now: go test ./backend/mcp -run TestGolden -update
var update = flag.Bool("update", false, "rewrite the response sections of testdata/golden/*.txtar")

const goldenDir = "testdata/golden"

func goldenFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no golden files in %s", goldenDir)
	}
	return files
}

// TestGolden replays every golden conversation of testdata/golden against
// the real handler on a fresh loopback server (the profile its header
// names) and compares each response with the file (STYLE.md habit 9).
func TestGolden(t *testing.T) {
	for _, path := range goldenFiles(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			rig := newGoldenRig(t, goldenProfile(ar.Comment))
			got, diffs := goldenRun(t, rig, ar)
			if *update {
				if b := txtar.Format(got); !bytes.Equal(b, txtar.Format(ar)) {
					if err := os.WriteFile(path, b, 0o644); err != nil {
						t.Fatal(err)
					}
					t.Logf("updated %s", path)
				}
				return
			}
			for _, d := range diffs {
				t.Error(d)
			}
			if len(diffs) > 0 {
				t.Log("if the new answer is right, run: go test ./backend/mcp -run TestGolden -update")
			}
		})
	}
}

// specErrorTable is the protocol error table of SPEC.md B "Errors": code ->
// HTTP status.
var specErrorTable = map[int]int{
	mcp.CodeParseError:         400,
	mcp.CodeInvalidRequest:     400,
	mcp.CodeMethodNotFound:     404,
	mcp.CodeInvalidParams:      400,
	mcp.CodeInternalError:      500,
	mcp.CodeHeaderMismatch:     400,
	mcp.CodeMissingCapability:  400,
	mcp.CodeUnsupportedVersion: 400,
	mcp.CodeServiceUnavailable: 503,
	mcp.CodeSessionNotFound:    404,
	mcp.CodeRequestCancelled:   200,
	mcp.CodeRequestTimeout:     200,
	mcp.CodePayloadTooLarge:    413,
	mcp.CodeServerDisabled:     503,
	mcp.CodeForbidden:          403,
	mcp.CodeTokenExpired:       401,
	mcp.CodeUnauthenticated:    401,
	mcp.CodeRateLimited:        429,
}

// goldenUncovered are the rows of the error table with no golden exchange,
// each with the reason. The coverage test fails when one of them gains an
// exchange, so the entry is removed then.
var goldenUncovered = map[int]string{
	// -33006 server disabled: nothing in package mcp emits it. A disabled
	// server does not listen at all; the stdio bridge answers it when the
	// app's settings have MCP off (backend/bridge/disabled.go, proven by
	// tests/headless TestTheBridgeAnswersServerDisabledWhenMCPIsOff).
	mcp.CodeServerDisabled: "no emitter: a disabled server does not listen",
}

// specCacheableMethods are the six methods with cache hints (SPEC.md B
// "Cache hints").
var specCacheableMethods = []string{
	"server/discover", "tools/list", "resources/list",
	"resources/templates/list", "prompts/list", "resources/read",
}

// goldenUnhinted are the cacheable methods whose golden exchange cannot
// show the hints yet, each with the reason. A file must still call them; the
// coverage test fails when one gains a hinted answer, so the entry is
// removed then.
var goldenUnhinted = map[string]string{}

// TestGoldenCoverage holds the golden folder to the spec: every code of the
// protocol error table is answered in at least one golden file (except the
// documented goldenUncovered rows), every error answer has the HTTP status
// the table gives its code, every cacheable method is called in one whose
// answer carries ttlMs and cacheScope (except the documented goldenUnhinted
// ones), and every file's header names the spec rule it guards.
func TestGoldenCoverage(t *testing.T) {
	codeFiles := map[int][]string{}
	calledFiles := map[string][]string{} // method -> files calling it
	hintedFiles := map[string][]string{} // method -> files whose answer to it has hints
	for _, path := range goldenFiles(t) {
		name := filepath.Base(path)
		ar, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(ar.Comment), "SPEC.md") {
			t.Errorf("%s: the header must name the SPEC.md rule the exchange guards", name)
		}
		profile := goldenProfile(ar.Comment)
		if !slices.Contains(goldenProfiles, profile) {
			t.Errorf("%s: unknown server profile %q", name, profile)
		}
		methodOf := map[string]string{} // step key -> JSON-RPC method of its request
		for _, f := range ar.Files {
			st, ok := parseStep(f.Name)
			if !ok {
				t.Errorf("%s: section %q is neither a request nor a response", name, f.Name)
				continue
			}
			if st.kind == "request" {
				if m := requestMethod(f.Data); m != "" {
					methodOf[st.key] = m
					calledFiles[m] = append(calledFiles[m], name)
				}
				continue
			}
			m, err := readResponseSection(f.Data)
			if err != nil {
				t.Errorf("%s: %s: %v", name, f.Name, err)
				continue
			}
			if m.hinted {
				hintedFiles[methodOf[st.key]] = append(hintedFiles[methodOf[st.key]], name)
			}
			for _, code := range m.codes {
				want, known := specErrorTable[code]
				if !known {
					t.Errorf("%s: %s carries code %d, which is not in the spec's error table", name, f.Name, code)
					continue
				}
				codeFiles[code] = append(codeFiles[code], name)
				// An event stream's status is sent before its last frame; only
				// plain JSON answers carry the code's own status.
				if m.contentType == "application/json" && m.status != want {
					t.Errorf("%s: %s: code %d answered with HTTP %d, the spec says %d", name, f.Name, code, m.status, want)
				}
			}
		}
	}
	for code := range specErrorTable {
		reason, exempt := goldenUncovered[code]
		switch files := codeFiles[code]; {
		case exempt && len(files) > 0:
			t.Errorf("code %d is listed as uncovered (%s) but %v answer it: drop it from goldenUncovered", code, reason, files)
		case !exempt && len(files) == 0:
			t.Errorf("code %d of the spec's error table has no golden exchange", code)
		}
	}
	for _, m := range specCacheableMethods {
		reason, exempt := goldenUnhinted[m]
		switch {
		case len(calledFiles[m]) == 0:
			t.Errorf("cacheable method %s has no golden exchange", m)
		case exempt && len(hintedFiles[m]) > 0:
			t.Errorf("cacheable method %s is listed as unhinted (%s) but %v show its hints: drop it from goldenUnhinted", m, reason, hintedFiles[m])
		case !exempt && len(hintedFiles[m]) == 0:
			t.Errorf("cacheable method %s: no golden answer to it carries ttlMs and cacheScope", m)
		}
	}
	for m := range hintedFiles {
		if !slices.Contains(specCacheableMethods, m) {
			t.Errorf("%s is not cacheable, but golden answers to it carry ttlMs and cacheScope: %v", m, hintedFiles[m])
		}
	}
}
