// Command gen-frontend-types writes the frontend's types of the window's data from the Go
// types (frontend/src/api/gen): one TypeScript file per Go package, each struct an interface
// and each string type with constants a union of their values, and shapes.ts, which the
// frontend's reader (src/api/read.ts) fills every answer by. Run it as `go generate ./app/dto`;
// a test fails while the files in the tree are not what it writes.
//
// What it covers: every exported type of app/dto (the bound methods' arguments and answers,
// the events' payloads) and every type the facade's bound methods (package app) take or
// return, with all they reach. How a Go type reads in TypeScript, following encoding/json:
//
//   - a struct is an interface of its JSON fields (a "-" field left out, an embedded struct's
//     fields inlined); in app/dto its name loses the suffix DTO or Event (ConnectionDTO is
//     Connection), elsewhere it keeps its Go name;
//   - a named string type with constants in its package is the union of their values;
//   - string, bool and numbers are string, boolean and number; []byte is string (base64);
//     a slice is an array, a map a Record<string, …>, any is unknown;
//   - a pointer is `T | null`; with omitempty it is an optional field that is never null;
//   - a field Go leaves out when empty (omitempty) is always there in an answer (the reader
//     fills it), and optional in a type the window sends (Go reads a missing field as empty);
//   - a field tagged `ts:"…"` has that TypeScript type: for a Go type wider than what the
//     field holds (map[string]any where Wails' bindings cannot take map[string]*string).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

const (
	facadePkg = "app/app"
	dtoPkg    = "app/app/dto"
	// outDir is where the files go, from the module's root.
	outDir = "frontend/src/api/gen"
)

func main() {
	check := flag.Bool("check", false, "only say whether the files in the tree are current (exit 1 when not)")
	flag.Parse()
	root, err := moduleRoot()
	if err != nil {
		fail(err)
	}
	files, err := Generate(root)
	if err != nil {
		fail(err)
	}
	dir := filepath.Join(root, outDir)
	if *check {
		if stale := Stale(dir, files); len(stale) > 0 {
			fail(fmt.Errorf("%s is not current (%s): run go generate ./app/dto", outDir, strings.Join(stale, ", ")))
		}
		return
	}
	if err := Write(dir, files); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen-frontend-types:", err)
	os.Exit(1)
}

// moduleRoot is the folder of the go.mod above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = up
	}
}

// Write replaces the .ts files of dir with files (name -> text).
func Write(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(dir, "*.ts"))
	for _, p := range old {
		if _, keep := files[filepath.Base(p)]; !keep {
			if err := os.Remove(p); err != nil {
				return err
			}
		}
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), text, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Stale names the files of dir that differ from files, are missing, or are not among them.
func Stale(dir string, files map[string][]byte) []string {
	var out []string
	for name, text := range files {
		if have, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(have, text) {
			out = append(out, name)
		}
	}
	old, _ := filepath.Glob(filepath.Join(dir, "*.ts"))
	for _, p := range old {
		if _, ok := files[filepath.Base(p)]; !ok {
			out = append(out, filepath.Base(p)+" (not generated)")
		}
	}
	sort.Strings(out)
	return out
}

// Generate reads the Go packages below root and returns the files of outDir by name.
func Generate(root string) (map[string][]byte, error) {
	// Pass one finds the packages the window's types live in; pass two reads them from
	// source, so that their comments come along.
	pkgs, err := load(root, facadePkg, dtoPkg)
	if err != nil {
		return nil, err
	}
	g, err := walk(pkgs)
	if err != nil {
		return nil, err
	}
	paths := []string{facadePkg}
	for p := range g.pkgs {
		if p != facadePkg {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	if pkgs, err = load(root, paths...); err != nil {
		return nil, err
	}
	if g, err = walk(pkgs); err != nil {
		return nil, err
	}
	g.docs = docs(pkgs)
	return g.files()
}

func load(root string, paths ...string) (map[string]*packages.Package, error) {
	cfg := &packages.Config{Dir: root, Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedImports}
	list, err := packages.Load(cfg, paths...)
	if err != nil {
		return nil, err
	}
	out := map[string]*packages.Package{}
	var problems []string
	for _, p := range list {
		for _, e := range p.Errors {
			problems = append(problems, e.Error())
		}
		out[p.PkgPath] = p
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("loading %s: %s", strings.Join(paths, " "), strings.Join(problems, "; "))
	}
	return out, nil
}

// decl is one Go type the frontend gets: a struct or an enum.
type decl struct {
	obj    *types.TypeName
	fields []field  // a struct's JSON fields
	values []string // an enum's values, in the order they are declared
	st     *types.Struct
}

// field is one JSON field of a struct.
type field struct {
	json      string
	goName    string
	typ       types.Type
	omitempty bool
	owner     *types.TypeName // the struct that declares it (an embedded one's own)
	ts        string          // its TypeScript type as its ts tag gives it ("": from the Go type)
}

type gen struct {
	decls map[*types.TypeName]*decl
	pkgs  map[string]bool
	sent  map[*types.TypeName]bool
	docs  map[string]string // "pkg.Type" and "pkg.Type.Field" -> doc comment
	errs  []string
}

// walk collects every type reachable from app/dto's exported types and the facade's bound
// methods, and which of them the window sends.
func walk(pkgs map[string]*packages.Package) (*gen, error) {
	g := &gen{decls: map[*types.TypeName]*decl{}, pkgs: map[string]bool{}, sent: map[*types.TypeName]bool{}}
	app, dto := pkgs[facadePkg], pkgs[dtoPkg]
	if app == nil || dto == nil {
		return nil, fmt.Errorf("%s and %s must both load", facadePkg, dtoPkg)
	}
	facade, ok := app.Types.Scope().Lookup("facade").(*types.TypeName)
	if !ok {
		return nil, errors.New("package app declares no facade interface")
	}
	iface, _ := facade.Type().Underlying().(*types.Interface)
	if iface == nil {
		return nil, errors.New("app.facade is not an interface")
	}
	areas := 0
	for _, name := range app.Types.Scope().Names() {
		tn, ok := app.Types.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn == facade || !tn.Exported() {
			continue
		}
		ptr := types.NewPointer(tn.Type())
		if !types.Implements(ptr, iface) {
			continue
		}
		areas++
		ms := types.NewMethodSet(ptr)
		for i := range ms.Len() {
			m := ms.At(i).Obj().(*types.Func)
			if !m.Exported() {
				continue
			}
			sig := m.Type().(*types.Signature)
			for j := range sig.Params().Len() {
				g.visit(sig.Params().At(j).Type(), true)
			}
			for j := range sig.Results().Len() {
				g.visit(sig.Results().At(j).Type(), false)
			}
		}
	}
	if areas == 0 {
		return nil, errors.New("no type of package app implements facade")
	}
	for _, name := range dto.Types.Scope().Names() {
		if tn, ok := dto.Types.Scope().Lookup(name).(*types.TypeName); ok && tn.Exported() {
			g.visit(tn.Type(), false)
		}
	}
	if len(g.errs) > 0 {
		return nil, errors.New(strings.Join(g.errs, "; "))
	}
	return g, nil
}

// visit records t and what it reaches; sent marks what the window sends.
func (g *gen) visit(t types.Type, sent bool) {
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		tn := t.Obj()
		if tn.Pkg() == nil || t.TypeArgs().Len() > 0 {
			if tn.Pkg() != nil {
				g.errs = append(g.errs, fmt.Sprintf("%s: generic types are not supported", tn.Name()))
			}
			return // error, or a predeclared type
		}
		if tn.Pkg().Path() == "time" && tn.Name() == "Time" {
			g.errs = append(g.errs, "time.Time: send RFC 3339 text instead")
			return
		}
		switch u := t.Underlying().(type) {
		case *types.Struct:
			d, seen := g.decls[tn]
			if seen && (!sent || g.sent[tn]) {
				return
			}
			if sent {
				g.sent[tn] = true
			}
			if !seen {
				d = &decl{obj: tn, st: u}
				d.fields = g.fields(tn, u)
				g.decls[tn] = d
				g.pkgs[tn.Pkg().Path()] = true
			}
			for _, f := range d.fields {
				g.visit(f.typ, sent)
			}
		case *types.Basic:
			if u.Info()&types.IsString != 0 {
				if values := enumValues(tn); len(values) > 0 {
					if _, seen := g.decls[tn]; !seen {
						g.decls[tn] = &decl{obj: tn, values: values}
						g.pkgs[tn.Pkg().Path()] = true
					}
				}
			}
		default:
			g.visit(u, sent)
		}
	case *types.Pointer:
		g.visit(t.Elem(), sent)
	case *types.Slice:
		g.visit(t.Elem(), sent)
	case *types.Array:
		g.visit(t.Elem(), sent)
	case *types.Map:
		g.visit(t.Key(), sent)
		g.visit(t.Elem(), sent)
	case *types.Struct:
		if t.NumFields() > 0 {
			g.errs = append(g.errs, "an anonymous struct: give it a name")
		}
	case *types.Basic, *types.Interface:
	case *types.Signature, *types.Chan:
		// error results and the like are not data: bound methods return them beside it
	default:
		g.errs = append(g.errs, fmt.Sprintf("%s: not a type the window's data can hold", t))
	}
}

// fields are a struct's JSON fields as encoding/json writes them.
func (g *gen) fields(owner *types.TypeName, st *types.Struct) []field {
	var out []field
	for i := range st.NumFields() {
		f := st.Field(i)
		name, opts, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("json"), ",")
		if name == "-" && opts == "" {
			continue
		}
		if f.Embedded() && name == "" {
			if n, ok := types.Unalias(f.Type()).(*types.Named); ok {
				if inner, ok := n.Underlying().(*types.Struct); ok {
					out = append(out, g.fields(n.Obj(), inner)...)
					continue
				}
			}
		}
		if !f.Exported() {
			continue
		}
		if name == "" {
			name = f.Name()
		}
		if slices.Contains(strings.Split(opts, ","), "string") {
			g.errs = append(g.errs, fmt.Sprintf("%s.%s: the json option string is not supported", owner.Name(), f.Name()))
		}
		out = append(out, field{json: name, goName: f.Name(), typ: f.Type(), omitempty: slices.Contains(strings.Split(opts, ","), "omitempty"), owner: owner,
			ts: reflect.StructTag(st.Tag(i)).Get("ts")})
	}
	return out
}

// enumValues are the values of the constants of type tn declared in its package, in the order
// they are declared.
func enumValues(tn *types.TypeName) []string {
	scope := tn.Pkg().Scope()
	var consts []*types.Const
	for _, name := range scope.Names() {
		if c, ok := scope.Lookup(name).(*types.Const); ok && types.Identical(c.Type(), tn.Type()) && c.Val().Kind() == constant.String {
			consts = append(consts, c)
		}
	}
	sort.SliceStable(consts, func(i, j int) bool { return consts[i].Pos() < consts[j].Pos() })
	var out []string
	for _, c := range consts {
		if v := constant.StringVal(c.Val()); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// docs are the doc comments of the types and struct fields of pkgs.
func docs(pkgs map[string]*packages.Package) map[string]string {
	out := map[string]string{}
	for path, p := range pkgs {
		for _, file := range p.Syntax {
			for _, d := range file.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.TYPE {
					continue
				}
				for _, s := range gd.Specs {
					ts := s.(*ast.TypeSpec)
					key := path + "." + ts.Name.Name
					doc := ts.Doc
					if doc == nil && len(gd.Specs) == 1 {
						doc = gd.Doc
					}
					out[key] = doc.Text()
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, f := range st.Fields.List {
						text := f.Doc.Text()
						if text == "" {
							text = f.Comment.Text()
						}
						for _, n := range f.Names {
							out[key+"."+n.Name] = text
						}
					}
				}
			}
		}
	}
	return out
}

// tsName is the TypeScript name of a Go type.
func tsName(tn *types.TypeName) string {
	if tn.Pkg().Path() == dtoPkg {
		for _, suffix := range []string{"DTO", "Event"} {
			if n, ok := strings.CutSuffix(tn.Name(), suffix); ok && n != "" {
				return n
			}
		}
	}
	return tn.Name()
}

// files renders one file per Go package and shapes.ts.
func (g *gen) files() (map[string][]byte, error) {
	byPkg := map[string][]*decl{}
	names := map[string]string{} // package name -> path: one file each
	seen := map[string]*types.TypeName{}
	for tn, d := range g.decls {
		pkg := tn.Pkg()
		if other, ok := names[pkg.Name()]; ok && other != pkg.Path() {
			return nil, fmt.Errorf("packages %s and %s share the name %s", other, pkg.Path(), pkg.Name())
		}
		names[pkg.Name()] = pkg.Path()
		key := pkg.Name() + "." + tsName(tn)
		if other, ok := seen[key]; ok {
			return nil, fmt.Errorf("%s and %s are both %s in TypeScript", other.Name(), tn.Name(), key)
		}
		seen[key] = tn
		byPkg[pkg.Name()] = append(byPkg[pkg.Name()], d)
	}
	out := map[string][]byte{}
	for pkg, decls := range byPkg {
		sort.Slice(decls, func(i, j int) bool { return tsName(decls[i].obj) < tsName(decls[j].obj) })
		out[pkg+".ts"] = g.packageFile(pkg, decls)
	}
	out["shapes.ts"] = g.shapesFile(byPkg)
	return out, nil
}

const header = "// Code generated by cmd/gen-frontend-types from the Go types; DO NOT EDIT.\n" +
	"// Regenerate with `go generate ./app/dto` (docs/architecture.md, \"The frontend's types\").\n"

func (g *gen) packageFile(pkg string, decls []*decl) []byte {
	var body bytes.Buffer
	imports := map[string]bool{}
	for _, d := range decls {
		body.WriteString("\n")
		doc, note := g.docs[d.obj.Pkg().Path()+"."+d.obj.Name()], ""
		if !strings.HasPrefix(doc, d.obj.Name()+" ") {
			note = "(Go: " + d.obj.Pkg().Name() + "." + d.obj.Name() + ")"
		}
		writeDoc(&body, "", doc, note)
		if d.values != nil {
			quoted := make([]string, len(d.values))
			for i, v := range d.values {
				quoted[i] = fmt.Sprintf("%q", v)
			}
			fmt.Fprintf(&body, "export type %s = %s;\n", tsName(d.obj), strings.Join(quoted, " | "))
			continue
		}
		fmt.Fprintf(&body, "export interface %s {\n", tsName(d.obj))
		for _, f := range d.fields {
			writeDoc(&body, "  ", g.docs[f.owner.Pkg().Path()+"."+f.owner.Name()+"."+f.goName], "")
			typ, optional := g.fieldType(f, g.sent[d.obj], pkg, imports)
			q := ""
			if optional {
				q = "?"
			}
			fmt.Fprintf(&body, "  %s%s: %s;\n", propName(f.json), q, typ)
		}
		body.WriteString("}\n")
	}
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("// The types of Go package " + decls[0].obj.Pkg().Path() + ".\n")
	if len(imports) > 0 {
		b.WriteString("\n")
		for _, p := range slices.Sorted(maps.Keys(imports)) {
			fmt.Fprintf(&b, "import type * as %s from \"./%s\";\n", p, p)
		}
	}
	b.Write(body.Bytes())
	return b.Bytes()
}

// fieldType is a field's TypeScript type and whether it is optional.
func (g *gen) fieldType(f field, sent bool, pkg string, imports map[string]bool) (string, bool) {
	if f.ts != "" {
		return f.ts, f.omitempty && sent
	}
	if p, ok := types.Unalias(f.typ).(*types.Pointer); ok {
		elem := g.tsType(p.Elem(), pkg, imports)
		if f.omitempty {
			return elem, true
		}
		return elem + " | null", false
	}
	return g.tsType(f.typ, pkg, imports), f.omitempty && sent
}

// form is what a Go type is in JSON: a scalar, a list, a map or a pointer of an element
// type, or a type the files declare.
type form int

const (
	formString form = iota
	formNumber
	formBoolean
	formUnknown
	formList
	formMap
	formPointer
	formDecl
)

// scalars name the scalar forms, in TypeScript and in shapes.ts alike.
var scalars = map[form]string{formString: "string", formNumber: "number", formBoolean: "boolean", formUnknown: "unknown"}

// formOf is t's form, with its element type (list, map, pointer) or its declaration.
func (g *gen) formOf(t types.Type) (form, types.Type, *decl) {
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if d, ok := g.decls[t.Obj()]; ok {
			return formDecl, nil, d
		}
		return g.formOf(t.Underlying())
	case *types.Pointer:
		return formPointer, t.Elem(), nil
	case *types.Slice:
		if isByte(t.Elem()) {
			return formString, nil, nil // base64
		}
		return formList, t.Elem(), nil
	case *types.Array:
		return formList, t.Elem(), nil
	case *types.Map:
		return formMap, t.Elem(), nil
	case *types.Basic:
		switch {
		case t.Info()&types.IsString != 0:
			return formString, nil, nil
		case t.Info()&types.IsBoolean != 0:
			return formBoolean, nil, nil
		case t.Info()&types.IsNumeric != 0:
			return formNumber, nil, nil
		}
	}
	return formUnknown, nil, nil
}

// tsType is t in TypeScript, seen from the file of package pkg.
func (g *gen) tsType(t types.Type, pkg string, imports map[string]bool) string {
	f, elem, d := g.formOf(t)
	switch f {
	case formDecl:
		name := tsName(d.obj)
		if p := d.obj.Pkg().Name(); p != pkg {
			imports[p] = true
			return p + "." + name
		}
		return name
	case formPointer:
		return g.tsType(elem, pkg, imports) + " | null"
	case formList:
		return arrayOf(g.tsType(elem, pkg, imports))
	case formMap:
		return "Record<string, " + g.tsType(elem, pkg, imports) + ">"
	}
	return scalars[f]
}

// spec is how shapes.ts spells t for the reader: string, number, boolean or unknown; "[]" + an
// element's spec, "{}" + a map value's, "*" + a pointer's (null when absent), or a struct's
// "pkg.Name" (an enum is a string).
func (g *gen) spec(t types.Type) string {
	f, elem, d := g.formOf(t)
	switch f {
	case formDecl:
		if d.st == nil {
			return scalars[formString]
		}
		return d.obj.Pkg().Name() + "." + tsName(d.obj)
	case formPointer:
		return "*" + g.spec(elem)
	case formList:
		return "[]" + g.spec(elem)
	case formMap:
		return "{}" + g.spec(elem)
	}
	return scalars[f]
}

// arrayOf is an array of elem, in parentheses when elem is a union.
func arrayOf(elem string) string {
	depth := 0
	for i, r := range elem {
		switch r {
		case '(', '<':
			depth++
		case ')', '>':
			depth--
		case '|':
			if depth == 0 && i > 0 {
				return "(" + elem + ")[]"
			}
		}
	}
	return elem + "[]"
}

func isByte(t types.Type) bool {
	b, ok := types.Unalias(t).(*types.Basic)
	return ok && b.Kind() == types.Byte
}

func (g *gen) shapesFile(byPkg map[string][]*decl) []byte {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString(`// The shape of every struct, for the reader of the window's answers (src/api/read.ts): per
// JSON field, "string", "number", "boolean" or "unknown"; "[]" and an element's shape; "{}"
// and a map value's; "*" and a pointer's (null when Go sends none); "?" and a pointer's that
// Go leaves out when nil (it stays out); or a struct's "package.Name".
`)
	pkgs := slices.Sorted(maps.Keys(byPkg))
	b.WriteString("\n")
	for _, p := range pkgs {
		if slices.ContainsFunc(byPkg[p], func(d *decl) bool { return d.st != nil }) {
			fmt.Fprintf(&b, "import type * as %s from \"./%s\";\n", p, p)
		}
	}
	type entry struct{ key, ts string }
	var structs []entry
	for _, p := range pkgs {
		for _, d := range byPkg[p] {
			if d.st != nil {
				structs = append(structs, entry{p + "." + tsName(d.obj), p + "." + tsName(d.obj)})
			}
		}
	}
	sort.Slice(structs, func(i, j int) bool { return structs[i].key < structs[j].key })
	b.WriteString("\n/** Shapes names each struct's TypeScript type by its key in shapes. */\nexport interface Shapes {\n")
	for _, s := range structs {
		fmt.Fprintf(&b, "  %q: %s;\n", s.key, s.ts)
	}
	b.WriteString("}\n\nexport const shapes: { readonly [K in keyof Shapes]: Readonly<Record<string, string>> } = {\n")
	byKey := map[string]*decl{}
	for _, p := range pkgs {
		for _, d := range byPkg[p] {
			byKey[p+"."+tsName(d.obj)] = d
		}
	}
	for _, s := range structs {
		d := byKey[s.key]
		parts := make([]string, len(d.fields))
		for i, f := range d.fields {
			sp := g.spec(f.typ)
			if _, ptr := types.Unalias(f.typ).(*types.Pointer); ptr && f.omitempty {
				sp = "?" + strings.TrimPrefix(sp, "*")
			}
			parts[i] = fmt.Sprintf("%s: %q", propName(f.json), sp)
		}
		fmt.Fprintf(&b, "  %q: { %s },\n", s.key, strings.Join(parts, ", "))
	}
	b.WriteString("};\n")
	return b.Bytes()
}

// writeDoc writes a Go doc comment as a JSDoc one, with a last line note when one is given.
func writeDoc(b *bytes.Buffer, indent, text, note string) {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if text == "" {
		lines = nil
	}
	if note != "" {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, note)
	}
	if len(lines) == 0 {
		return
	}
	for i, l := range lines {
		lines[i] = strings.ReplaceAll(l, "*/", "*\\/")
	}
	if len(lines) == 1 {
		fmt.Fprintf(b, "%s/** %s */\n", indent, lines[0])
		return
	}
	fmt.Fprintf(b, "%s/**\n", indent)
	for _, l := range lines {
		if l == "" {
			fmt.Fprintf(b, "%s *\n", indent)
		} else {
			fmt.Fprintf(b, "%s * %s\n", indent, l)
		}
	}
	fmt.Fprintf(b, "%s */\n", indent)
}

// propName is a JSON name as a TypeScript property name (quoted when it is no identifier).
func propName(name string) string {
	for i, r := range name {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return fmt.Sprintf("%q", name)
		}
	}
	return name
}
