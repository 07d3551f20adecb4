package postgres

import (
	"strings"
	"unicode"

	"app/backend/driver"
)

// Classify says whether SQL text reads or writes, before it runs. A statement is a read only
// when it starts as one (SELECT, WITH, VALUES, TABLE, SHOW, EXPLAIN without ANALYZE), holds no
// word that writes or changes the session anywhere (INSERT … INTO, FOR UPDATE/SHARE, SET,
// COPY, …) and calls only functions known not to act (count, lower, now, …): any other
// function may write (nextval, pg_terminate_backend, one the user wrote), so it needs
// approval. Keywords inside comments, strings, dollar quotes and quoted identifiers are not
// words. A read still runs in a READ ONLY transaction: what the classifier lets pass as a
// read the server itself refuses to write (Execute).
func Classify(text string) (driver.Classification, error) {
	out := driver.Classification{Access: driver.AccessRead, Form: driver.FormQuery}
	stmts := statements(text)
	if len(stmts) == 0 {
		return driver.Classification{Access: driver.AccessWrite, Form: driver.FormQuery},
			driver.Errorf(driver.KindInvalidArgument, "there is no statement to run")
	}
	for _, st := range stmts {
		read, destructive := classifyStatement(st)
		if !read {
			out.Access = driver.AccessWrite
		}
		out.Destructive = out.Destructive || destructive
	}
	return out, nil
}

// token is a word (upper-cased) of a statement, and whether "(" follows it.
type token struct {
	word string
	call bool
}

// statements splits text into statements of words, leaving out comments, strings, dollar
// quotes and quoted identifiers (a quoted identifier is a word no keyword equals: `"x"`).
func statements(text string) [][]token {
	st, _ := split(text)
	return st
}

// split is statements, with each statement's own text (between the semicolons that end
// statements, which a string, a comment or a quote never holds).
func split(text string) ([][]token, []string) {
	var out [][]token
	var texts []string
	var cur []token
	r := []rune(text)
	n := len(r)
	start := 0
	flush := func(end int) {
		if len(cur) > 0 {
			out = append(out, cur)
			texts = append(texts, string(r[start:end]))
			cur = nil
		}
		start = end + 1
	}
	for i := 0; i < n; {
		c := r[i]
		switch {
		case unicode.IsSpace(c):
			i++
		case c == '-' && i+1 < n && r[i+1] == '-':
			for i < n && r[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < n && r[i+1] == '*':
			depth := 0
			for i < n {
				if r[i] == '/' && i+1 < n && r[i+1] == '*' {
					depth++
					i += 2
				} else if r[i] == '*' && i+1 < n && r[i+1] == '/' {
					depth--
					i += 2
					if depth == 0 {
						break
					}
				} else {
					i++
				}
			}
		case c == '\'':
			// E'…' (backslash escapes) only where the E is a token of its own: ELSE'x' is not.
			escapes := i > 0 && (r[i-1] == 'E' || r[i-1] == 'e') && (i < 2 || !identChar(r[i-2]))
			i++
			for i < n {
				if escapes && r[i] == '\\' {
					i += 2
					continue
				}
				if r[i] == '\'' {
					if i+1 < n && r[i+1] == '\'' {
						i += 2
						continue
					}
					i++
					break
				}
				i++
			}
			cur = append(cur, token{word: "'"})
		case c == '"':
			i++
			for i < n {
				if r[i] == '"' {
					if i+1 < n && r[i+1] == '"' {
						i += 2
						continue
					}
					i++
					break
				}
				i++
			}
			cur = append(cur, token{word: `"`})
		case c == '$' && dollarTag(r, i) != "":
			tag := dollarTag(r, i)
			i += len([]rune(tag))
			end := strings.Index(string(r[i:]), tag)
			if end < 0 {
				i = n
			} else {
				i += len([]rune(string(r[i:])[:end])) + len([]rune(tag))
			}
			cur = append(cur, token{word: "$"})
		case c == ';':
			flush(i)
			i++
		case c == '(':
			// A name or a quoted name before "(" is a call (or a keyword's list); an operator
			// or a comma before it opens an expression.
			if len(cur) > 0 && isName(cur[len(cur)-1].word) {
				cur[len(cur)-1].call = true
			}
			cur = append(cur, token{word: "("})
			i++
		case unicode.IsLetter(c) || c == '_':
			j := i
			for j < n && (unicode.IsLetter(r[j]) || unicode.IsDigit(r[j]) || r[j] == '_' || r[j] == '$') {
				j++
			}
			cur = append(cur, token{word: strings.ToUpper(string(r[i:j]))})
			i = j
		default:
			cur = append(cur, token{word: string(c)})
			i++
		}
	}
	flush(n)
	return out, texts
}

// identChar tells a rune that continues a name.
func identChar(c rune) bool {
	return unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_' || c == '$'
}

// isName tells a word or a quoted name from punctuation.
func isName(w string) bool {
	if w == `"` {
		return true
	}
	r := []rune(w)
	return len(r) > 0 && (unicode.IsLetter(r[0]) || r[0] == '_')
}

// dollarTag is the $tag$ opening a dollar quote at r[i], or "".
func dollarTag(r []rune, i int) string {
	j := i + 1
	for j < len(r) && (unicode.IsLetter(r[j]) || unicode.IsDigit(r[j]) || r[j] == '_') {
		j++
	}
	if j < len(r) && r[j] == '$' && (j == i+1 || !unicode.IsDigit(r[i+1])) {
		return string(r[i : j+1])
	}
	return ""
}

// readStarts are the words a read statement starts with.
var readStarts = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true, "TABLE": true, "SHOW": true, "EXPLAIN": true}

// writeWords are words that, anywhere in a statement, make it write or change the session.
var writeWords = map[string]bool{
	"INSERT": true, "UPDATE": true, "DELETE": true, "MERGE": true, "INTO": true, "COPY": true, "CREATE": true,
	"DROP": true, "ALTER": true, "TRUNCATE": true, "GRANT": true, "REVOKE": true, "CALL": true, "DO": true, "LOCK": true,
	"VACUUM": true, "REINDEX": true, "CLUSTER": true, "REFRESH": true, "NOTIFY": true, "LISTEN": true, "UNLISTEN": true,
	"PREPARE": true, "EXECUTE": true, "DEALLOCATE": true, "SET": true, "RESET": true, "DISCARD": true, "COMMENT": true,
	"SECURITY": true, "IMPORT": true, "LOAD": true, "CHECKPOINT": true, "SHARE": true, "ANALYZE": true, "ANALYSE": true,
}

// Transaction control (BEGIN, COMMIT, END, …) is not a read because no read starts with it;
// its words are not write words, since END closes every CASE.

// callWords are keywords and type names a "(" may follow without being a function call.
var callWords = map[string]bool{
	"SELECT": true, "FROM": true, "JOIN": true, "ON": true, "USING": true, "IN": true, "EXISTS": true, "ANY": true,
	"ALL": true, "SOME": true, "AS": true, "OVER": true, "FILTER": true, "GROUP": true, "VALUES": true, "WHERE": true,
	"AND": true, "OR": true, "NOT": true, "CAST": true, "ARRAY": true, "ROW": true, "LATERAL": true, "WITH": true,
	"UNION": true, "INTERSECT": true, "EXCEPT": true, "BY": true, "WHEN": true, "THEN": true, "ELSE": true, "CASE": true,
	"BETWEEN": true, "IS": true, "LIKE": true, "ILIKE": true, "SIMILAR": true, "RETURNING": true, "OVERLAPS": true,
	"DISTINCT": true, "LIMIT": true, "OFFSET": true, "HAVING": true, "PARTITION": true, "RANGE": true, "ROWS": true,
	"FOR": true, "RECURSIVE": true, "MATERIALIZED": true, "EXPLAIN": true, "VARCHAR": true, "NUMERIC": true,
	"DECIMAL": true, "CHAR": true, "CHARACTER": true, "VARYING": true, "TIMESTAMP": true, "TIME": true, "INTERVAL": true,
	"BIT": true, "VECTOR": true, "HALFVEC": true, "SPARSEVEC": true, "FLOAT": true, "ORDER": true, "WITHIN": true,
	"COALESCE": true, "NULLIF": true, "GREATEST": true, "LEAST": true, "EXTRACT": true, "POSITION": true,
	"SUBSTRING": true, "TRIM": true, "OVERLAY": true, "GROUPING": true, "CUBE": true, "ROLLUP": true, "SETS": true,
	"TO": true, "ESCAPE": true, "NULLS": true, "FETCH": true, "WINDOW": true, "TABLESAMPLE": true, "REPEATABLE": true,
	"(": true, ",": true,
}

// readFunctions are functions known not to write nor act on the server or the session.
var readFunctions = toSet(`count sum avg min max lower upper length char_length character_length octet_length substr
strpos split_part starts_with replace concat concat_ws format left right initcap repeat reverse lpad rpad md5 sha256
regexp_replace regexp_match regexp_matches regexp_split_to_array regexp_like translate btrim ltrim rtrim abs ceil
ceiling floor round trunc sqrt power pow exp ln log log10 mod sign pi degrees radians sin cos tan now
clock_timestamp statement_timestamp transaction_timestamp date_trunc date_part date_bin age to_char to_date
to_timestamp to_number make_date make_time make_timestamp make_timestamptz make_interval isfinite justify_days
justify_hours justify_interval timezone array_agg string_agg json_agg jsonb_agg json_build_object
jsonb_build_object json_build_array jsonb_build_array json_object_agg jsonb_object_agg to_json to_jsonb
row_to_json array_to_json json_array_elements jsonb_array_elements json_array_elements_text
jsonb_array_elements_text json_array_length jsonb_array_length json_each jsonb_each json_each_text jsonb_each_text
json_object_keys jsonb_object_keys jsonb_extract_path jsonb_extract_path_text json_extract_path
json_extract_path_text json_typeof jsonb_typeof jsonb_path_query jsonb_path_query_array jsonb_path_exists
jsonb_pretty jsonb_strip_nulls unnest array_length array_lower array_upper array_dims cardinality array_position
array_positions array_remove array_replace array_append array_prepend array_cat array_to_string string_to_array
generate_series generate_subscripts row_number rank dense_rank percent_rank cume_dist ntile lag lead
first_value last_value nth_value bool_and bool_or every stddev stddev_pop stddev_samp variance var_pop var_samp
corr covar_pop covar_samp regr_slope regr_intercept percentile_cont percentile_disc mode pg_typeof format_type
current_schemas version pg_size_pretty pg_total_relation_size pg_relation_size pg_table_size pg_indexes_size
pg_column_size pg_database_size obj_description col_description shobj_description to_tsvector to_tsquery
plainto_tsquery phraseto_tsquery websearch_to_tsquery ts_rank ts_rank_cd ts_headline setweight l2_distance
cosine_distance inner_product l1_distance vector_dims vector_norm l2_normalize subvector binary_quantize
gen_random_uuid encode decode quote_ident quote_literal quote_nullable num_nonnulls num_nulls width_bucket
has_table_privilege has_schema_privilege has_column_privilege has_database_privilege pg_get_viewdef
pg_get_indexdef pg_get_constraintdef pg_get_functiondef pg_get_expr pg_get_keywords pg_get_userbyid
pg_table_is_visible to_regclass to_regtype to_regproc array_fill int4range int8range numrange tsrange tstzrange
daterange lower_inc upper_inc isempty range_merge bit_length ascii chr pg_backend_pid current_setting
pg_postmaster_start_time pg_is_in_recovery inet_server_addr inet_server_port inet_client_addr inet_client_port
pg_encoding_to_char pg_client_encoding pg_sleep date random current_database current_schema jsonb_set
jsonb_insert jsonb_set_lax jsonb_path_match json_object jsonb_object string_to_table array_reverse trim_array
array_sample array_shuffle any_value`)

func toSet(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[strings.ToUpper(w)] = true
	}
	return out
}

// classifyStatement reads one statement: whether it only reads, and whether it destroys
// (DROP, TRUNCATE, a DELETE or UPDATE without WHERE).
func classifyStatement(st []token) (read, destructive bool) {
	first := st[0].word
	read = readStarts[first]
	hasWhere, deletes, updates := false, false, false
	for i, t := range st {
		switch t.word {
		case "WHERE":
			hasWhere = true
		case "DROP", "TRUNCATE":
			destructive = true
		case "DELETE":
			deletes = true
		case "UPDATE":
			// FOR UPDATE locks rows, ON CONFLICT DO UPDATE updates only the conflicting one;
			// an UPDATE statement writes every row its WHERE leaves.
			if i == 0 || st[i-1].word != "FOR" && st[i-1].word != "KEY" && st[i-1].word != "NO" && st[i-1].word != "DO" {
				updates = true
			}
		}
		if writeWords[t.word] {
			read = false
		}
		alias := i > 0 && (st[i-1].word == "AS" || st[i-1].word == "WITH" || st[i-1].word == "RECURSIVE")
		qualified := i > 0 && st[i-1].word == "." && !(i > 1 && st[i-2].word == "PG_CATALOG")
		switch {
		case !t.call || alias:
			// a name, or an alias with its column list (AS g(n), WITH x(a) AS …)
		case qualified:
			read = false // schema.f(): a function of that schema, whatever it is called
		case !callWords[t.word] && !readFunctions[t.word] && t.word != `"`:
			read = false
		}
		if t.call && t.word == `"` {
			read = false // a quoted name called: a function of the user's
		}
	}
	if first == "EXPLAIN" && !read {
		// EXPLAIN without ANALYZE plans and runs nothing; ANALYZE runs the statement.
		analyze := false
		for _, t := range st {
			if t.word == "ANALYZE" || t.word == "ANALYSE" {
				analyze = true
			}
		}
		if !analyze {
			read = true
			for _, t := range st {
				if t.call && !callWords[t.word] && !readFunctions[t.word] {
					read = false
				}
			}
		}
	}
	if (deletes || updates) && !hasWhere {
		destructive = true
	}
	return read, destructive
}
