package sqlite

import (
	"strings"

	"app/backend/driver"
)

// Statements are classified by reading them as SQLite's tokenizer does (sqlite.org/lang_keywords
// and tokenize.c): comments, strings, blobs and quoted names are one token each, so a keyword
// inside one is not a keyword. Classification needs no file, so it cannot ask SQLite (which
// prepares a statement only against a schema that holds its tables); Execute then asks SQLite
// itself (sqlite3_stmt_readonly) of every statement a read runs, on a connection opened
// read-only with query_only on, so a write read as a read fails in SQLite.
//
// A statement is a read when it is SELECT or VALUES, WITH … SELECT, EXPLAIN of anything (which
// SQLite plans and does not run), or a pragma that reads (readPragmas; statePragmas without a
// value). Anything else writes and needs approval. DROP, and DELETE or UPDATE without a WHERE,
// are destructive. ATTACH, DETACH and VACUUM INTO are refused outright (refused): the
// connection reads and writes its one file.

type tokKind int

const (
	tokWord tokKind = iota
	tokString
	tokQuoted // "name", [name], `name`
	tokPunct
)

type token struct {
	kind tokKind
	text string
}

// tokens reads SQL as SQLite's tokenizer does, without comments and spaces.
func tokens(sql string) []token {
	var out []token
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				return out
			}
			i += end + 4
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(sql) {
				if sql[j] == c {
					if j+1 < len(sql) && sql[j+1] == c { // doubled: one quote inside
						j += 2
						continue
					}
					break
				}
				j++
			}
			kind := tokQuoted
			if c == '\'' {
				kind = tokString
			}
			out = append(out, token{kind, sql[i:min(j+1, len(sql))]})
			i = j + 1
		case c == '[':
			j := strings.IndexByte(sql[i:], ']')
			if j < 0 {
				j = len(sql) - i - 1
			}
			out = append(out, token{tokQuoted, sql[i : i+j+1]})
			i += j + 1
		case (c == 'x' || c == 'X') && i+1 < len(sql) && sql[i+1] == '\'':
			j := strings.IndexByte(sql[i+2:], '\'')
			if j < 0 {
				j = len(sql) - i - 3
			}
			out = append(out, token{tokString, sql[i : i+j+3]})
			i += j + 3
		case isWordByte(c):
			j := i
			for j < len(sql) && isWordByte(sql[j]) {
				j++
			}
			out = append(out, token{tokWord, sql[i:j]})
			i = j
		default:
			out = append(out, token{tokPunct, string(c)})
			i++
		}
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// statements splits tokens at the semicolons between statements; a trigger's body (BEGIN …
// END, holding statements of its own) stays in its CREATE TRIGGER.
func statements(toks []token) [][]token {
	var out [][]token
	var cur []token
	trigger, depth := false, 0 // depth: BEGIN/CASE … END nesting inside a trigger
	for _, t := range toks {
		if t.kind == tokPunct && t.text == ";" && depth == 0 {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur, trigger = nil, false
			continue
		}
		cur = append(cur, t)
		if t.kind != tokWord {
			continue
		}
		switch w := strings.ToUpper(t.text); {
		case w == "TRIGGER" && len(cur) <= 4 && strings.EqualFold(cur[0].text, "CREATE"):
			trigger = true
		case trigger && (w == "BEGIN" || w == "CASE"):
			depth++
		case trigger && w == "END" && depth > 0:
			depth--
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// verb is a statement's first keyword, upper-case ("" for none).
func verb(toks []token) string {
	if len(toks) == 0 || toks[0].kind != tokWord {
		return ""
	}
	return strings.ToUpper(toks[0].text)
}

// Classify tells whether SQL text reads or writes (see above).
func Classify(text string) (driver.Classification, error) {
	stmts := statements(tokens(text))
	if len(stmts) == 0 {
		return driver.Classification{}, driver.Errorf(driver.KindInvalidArgument, "there is no statement to run")
	}
	// What Execute refuses whatever the approval is said before anyone is asked (the
	// contract's Classify): nobody approves a statement that cannot run.
	if reason := refused(text); reason != "" {
		return driver.Classification{Access: driver.AccessWrite, Form: driver.FormQuery}, driver.Errorf(driver.KindNotPermitted, "%s", reason)
	}
	out := driver.Classification{Access: driver.AccessRead, Form: driver.FormQuery}
	for _, st := range stmts {
		read, destructive := classifyStatement(st)
		if !read {
			out.Access = driver.AccessWrite
		}
		out.Destructive = out.Destructive || destructive
	}
	return out, nil
}

// classifyStatement reads one statement.
func classifyStatement(st []token) (read, destructive bool) {
	if calls(st, "load_extension") {
		return false, false
	}
	switch verb(st) {
	case "SELECT", "VALUES":
		return !writesInside(st), false
	case "EXPLAIN":
		return true, false
	case "WITH":
		if writesInside(st) {
			switch mainVerb(st) {
			case "DELETE", "UPDATE":
				return false, !hasTopLevel(st, "WHERE")
			}
			return false, false
		}
		switch v := mainVerb(st); v {
		case "SELECT", "VALUES":
			return true, false
		case "DELETE", "UPDATE":
			return false, !hasTopLevel(st, "WHERE")
		}
		return false, false
	case "PRAGMA":
		return readPragma(st), false
	case "DROP":
		return false, true
	case "DELETE", "UPDATE":
		return false, !hasTopLevel(st, "WHERE")
	}
	return false, false
}

// writesInside tells a statement holding, at any depth, a word that writes rows: INSERT,
// UPDATE or DELETE, or REPLACE but as the replace() function. SQLite runs no such statement
// inside a query, so a query that holds one is not a read as it stands.
func writesInside(st []token) bool {
	for i, t := range st {
		if t.kind != tokWord {
			continue
		}
		switch strings.ToUpper(t.text) {
		case "INSERT", "UPDATE", "DELETE":
			return true
		case "REPLACE":
			if i+1 >= len(st) || st[i+1].text != "(" {
				return true
			}
		}
	}
	return false
}

// calls tells a statement that calls the function name.
func calls(st []token, name string) bool {
	for i, t := range st {
		if t.kind == tokWord && strings.EqualFold(t.text, name) && i+1 < len(st) && st[i+1].text == "(" {
			return true
		}
	}
	return false
}

// mainVerb is the verb of a WITH statement: its first SELECT, VALUES, INSERT, UPDATE, DELETE or
// REPLACE outside the common table expressions' parentheses.
func mainVerb(st []token) string {
	depth := 0
	for _, t := range st[1:] {
		switch {
		case t.kind == tokPunct && t.text == "(":
			depth++
		case t.kind == tokPunct && t.text == ")":
			depth--
		case t.kind == tokWord && depth == 0:
			switch w := strings.ToUpper(t.text); w {
			case "SELECT", "VALUES", "INSERT", "UPDATE", "DELETE", "REPLACE":
				return w
			}
		}
	}
	return ""
}

// hasTopLevel tells a statement holding word outside parentheses.
func hasTopLevel(st []token, word string) bool {
	depth := 0
	for _, t := range st {
		switch {
		case t.kind == tokPunct && t.text == "(":
			depth++
		case t.kind == tokPunct && t.text == ")":
			depth--
		case t.kind == tokWord && depth == 0 && strings.EqualFold(t.text, word):
			return true
		}
	}
	return false
}

// readPragma tells a PRAGMA that only reads: one of readPragmas (with its argument, a table's
// or an index's name), or one of statePragmas asked without a value.
func readPragma(st []token) bool {
	i := 1
	if i+1 < len(st) && st[i+1].kind == tokPunct && st[i+1].text == "." { // schema.pragma
		i += 2
	}
	if i >= len(st) || st[i].kind != tokWord {
		return false
	}
	name := strings.ToLower(st[i].text)
	rest := st[i+1:]
	if readPragmas[name] {
		return len(rest) == 0 || rest[0].kind == tokPunct && rest[0].text == "("
	}
	return statePragmas[name] && len(rest) == 0
}

// refused says why text is refused whatever the approval ("" when it is not): ATTACH and
// DETACH would reach other files, VACUUM INTO writes a new one anywhere the user can.
func refused(text string) string {
	for _, st := range statements(tokens(text)) {
		switch verb(st) {
		case "ATTACH", "DETACH":
			return "ATTACH and DETACH are refused: this connection reads and writes its one file"
		case "VACUUM":
			if hasTopLevel(st, "INTO") {
				return "VACUUM INTO is refused: this connection writes only its own file"
			}
		}
		if calls(st, "load_extension") {
			return "load_extension is refused: the driver loads no extension"
		}
	}
	return ""
}
