package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// The frontend's types in the tree are what the Go types make now: a DTO changed without
// `go generate ./app/dto` fails here, not in the window.
func TestTheFrontendTypesAreCurrent(t *testing.T) {
	root, files := generate(t)
	if stale := Stale(filepath.Join(root, outDir), files); len(stale) > 0 {
		t.Fatalf("%s is not what the Go types make (%s): run go generate ./app/dto", outDir, strings.Join(stale, ", "))
	}
}

// What the Go types say reads as the frontend expects: names without DTO, enums as unions,
// pointers nullable or optional, omitempty filled in answers and optional in what is sent.
func TestGoTypesReadAsTypeScript(t *testing.T) {
	_, files := generate(t)
	for file, want := range map[string][]string{
		"dto.ts": {
			"export interface Connection {",                               // ConnectionDTO
			"export interface ApprovalGranted {",                          // ApprovalGrantedEvent
			`export type RunKind = "grid" | "json" | "text" | "not_run";`, // constants, one of them from driver's
			"  refused: FilterRefusal | null;",                            // a pointer
			"  tenants?: number;",                                         // a pointer with omitempty: left out, never null
			"  message: string;",                                          // omitempty in an answer: the reader fills it
			"  group?: number;",                                           // omitempty in what the window sends
			"  rows: (string | null)[][];",                                // [][]*string
			"  searches: driver.SearchMode[];",                            // another package's type
			"  values: Record<string, string | null>;",                    // a ts tag
			"  kind: driver.ColumnKind;",
			"  xy: string;", // []byte is base64
		},
		"driver.ts": {`export type FieldKind = "text" | "int" | "bool" | "enum" | "secret" | "path";`},
		"shapes.ts": {
			`"dto.Grid": { columns: "[]dto.Column", rows: "[][]*string", offset: "number", hasMore: "boolean", notice: "string", refused: "*dto.FilterRefusal" },`,
			`tenants: "?number"`,
		},
	} {
		for _, line := range want {
			if !strings.Contains(string(files[file]), line) {
				t.Errorf("%s has no line %q", file, line)
			}
		}
	}
}

// generate is the module's root and the files the generator makes of it.
func generate(t *testing.T) (string, map[string][]byte) {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	files, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	return root, files
}
