package postgres

import (
	"strings"
	"sync"

	pg "github.com/pganalyze/pg_query_go/v6"
	pgquery "github.com/wasilibs/go-pgquery"
	"google.golang.org/protobuf/reflect/protoreflect"

	"app/backend/driver"
)

// Statements are read by PostgreSQL's own grammar: libpg_query (the server's parser, cut out
// of PostgreSQL 17) compiled to WebAssembly and run by wazero, so the plugin stays pure Go
// for its six platforms. Keywords inside comments, strings, dollar quotes and quoted
// identifiers are what the server says they are, because the server's scanner reads them.
//
// A statement is a read when the grammar says it is a query (SELECT, VALUES, TABLE, WITH …
// SELECT), SHOW, or EXPLAIN without ANALYZE, and nothing inside it writes or locks: no
// INSERT/UPDATE/DELETE/MERGE in a WITH, no SELECT INTO, no FOR UPDATE/SHARE, and only calls
// of functions known not to act (count, lower, now, …). Any other function may write
// (nextval, set_config, pg_terminate_backend, one the user wrote), so it needs approval.
// A read still runs in a READ ONLY transaction (Execute): what passes here as a read and
// writes after all (a view or an operator calling a writing function) the server refuses.
//
// Text the grammar cannot read (a syntax error, or syntax newer than PostgreSQL 17's) is
// classified as a write with no form: it needs approval like any write, and the server's
// own parser has the last word on it.

// statement is one statement of SQL text, classified.
type statement struct {
	text        string
	read        bool
	destructive bool
	// cursor: a query a cursor can run, so a capped read fetches only the rows shown.
	cursor bool
	// plan: EXPLAIN, whose answer is the plan as text.
	plan bool
	// refused says why no approval lets it run ("" when it may run).
	refused string
}

// Classify says whether SQL text reads or writes, before it runs.
func Classify(text string) (driver.Classification, error) {
	return classification(parse(text))
}

// classification is Classify of parsed text (parse's answer).
func classification(stmts []statement, err error) (driver.Classification, error) {
	if err != nil {
		return driver.Classification{Access: driver.AccessWrite}, nil
	}
	if len(stmts) == 0 {
		return driver.Classification{Access: driver.AccessWrite, Form: driver.FormQuery},
			driver.Errorf(driver.KindInvalidArgument, "there is no statement to run")
	}
	out := driver.Classification{Access: driver.AccessRead, Form: driver.FormQuery}
	for _, st := range stmts {
		if st.refused != "" {
			// Said before anyone is asked: nobody approves what cannot run.
			return driver.Classification{Access: driver.AccessWrite, Form: driver.FormQuery}, driver.Errorf(driver.KindNotPermitted, "%s", st.refused)
		}
		if !st.read {
			out.Access = driver.AccessWrite
		}
		out.Destructive = out.Destructive || st.destructive
	}
	return out, nil
}

// warmParser compiles the parser once, off the caller's path: the first parse in a process
// compiles the WebAssembly module (about a second), every later one takes microseconds.
func warmParser() { _, _ = parseTree("SELECT 1") }

// parseTurn makes parses take turns on one parser. go-pgquery keeps a process-wide pool of
// parser instances and compiles a new one (a second or more of CPU, tens of MB) whenever a
// parse finds none free: concurrent classifications, or Connect's warm-up beside the first
// one, would each compile their own. A parse takes microseconds, so waiting costs nothing.
// It is package state because the pool it guards is.
var parseTurn sync.Mutex

func parseTree(text string) (*pg.ParseResult, error) {
	parseTurn.Lock()
	defer parseTurn.Unlock()
	return pgquery.Parse(text)
}

// parse splits text into its statements, each classified.
func parse(text string) ([]statement, error) {
	tree, err := parseTree(text)
	if err != nil {
		return nil, err
	}
	out := make([]statement, 0, len(tree.GetStmts()))
	for _, raw := range tree.GetStmts() {
		// Locations are byte offsets; a length of 0 means "to the end of the text".
		start := int(raw.GetStmtLocation())
		end := len(text)
		if n := int(raw.GetStmtLen()); n > 0 {
			end = start + n
		}
		st := classifyNode(raw.GetStmt())
		st.text = strings.TrimSpace(text[start:end])
		out = append(out, st)
	}
	return out, nil
}

// classifyNode classifies one parsed statement.
func classifyNode(n *pg.Node) statement {
	var st statement
	switch s := n.GetNode().(type) {
	case *pg.Node_SelectStmt:
		st.read, st.cursor = true, true
	case *pg.Node_VariableShowStmt:
		st.read = true
	case *pg.Node_ExplainStmt:
		st.plan = true
		if analyzes(s.ExplainStmt) {
			// ANALYZE runs the statement: it is what it explains.
			inner := classifyNode(s.ExplainStmt.GetQuery())
			st.read, st.destructive, st.refused = inner.read, inner.destructive, inner.refused
			return st
		}
		// A plan runs nothing, but planning may call a function (constant folding).
		st.read = callsOnlyReadFunctions(s.ExplainStmt.GetQuery())
		return st
	}
	walk(n.ProtoReflect(), func(m protoreflect.ProtoMessage) {
		switch x := m.(type) {
		case *pg.FuncCall:
			if !readFunction(x.GetFuncname()) {
				st.read = false
			}
			if f := serverFileFunction(x.GetFuncname()); f != "" {
				st.refused = f + " is refused: statements from App never read or write files where the server runs (App's own Export and Import work on this computer)"
			}
		case *pg.CopyStmt:
			if x.GetFilename() != "" || x.GetIsProgram() {
				st.read = false
				st.refused = "COPY to or from a file or a program where the server runs is refused (App's own Export and Import work on this computer); COPY … TO STDOUT reads"
			}
		case *pg.LockingClause, *pg.IntoClause, *pg.InsertStmt, *pg.MergeStmt:
			st.read = false
		case *pg.DeleteStmt:
			st.read = false
			st.destructive = st.destructive || x.GetWhereClause() == nil
		case *pg.UpdateStmt:
			st.read = false
			st.destructive = st.destructive || x.GetWhereClause() == nil
		case *pg.DropStmt, *pg.TruncateStmt, *pg.DropdbStmt, *pg.DropRoleStmt, *pg.DropOwnedStmt,
			*pg.DropTableSpaceStmt, *pg.DropSubscriptionStmt:
			st.destructive = true
		case *pg.AlterTableCmd:
			if x.GetSubtype() == pg.AlterTableType_AT_DropColumn {
				st.destructive = true
			}
		}
	})
	st.cursor = st.cursor && st.read
	return st
}

// analyzes tells an EXPLAIN that runs its statement (ANALYZE, in either spelling of the
// option; any value counts, so EXPLAIN (ANALYZE false) is treated as running too).
func analyzes(e *pg.ExplainStmt) bool {
	for _, o := range e.GetOptions() {
		if d := o.GetDefElem(); d != nil && (d.GetDefname() == "analyze" || d.GetDefname() == "analyse") {
			return true
		}
	}
	return false
}

// callsOnlyReadFunctions tells a statement whose every call is of a function known not to act.
func callsOnlyReadFunctions(n *pg.Node) bool {
	ok := true
	walk(n.ProtoReflect(), func(m protoreflect.ProtoMessage) {
		if f, is := m.(*pg.FuncCall); is && !readFunction(f.GetFuncname()) {
			ok = false
		}
	})
	return ok
}

// walk visits every node of a parse tree, the root first. The tree is protobuf, so one
// reflective walk reaches every field of every node kind, those added by later grammars too.
func walk(m protoreflect.Message, visit func(protoreflect.ProtoMessage)) {
	visit(m.Interface())
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Message() == nil || fd.IsMap():
		case fd.IsList():
			l := v.List()
			for i := range l.Len() {
				walk(l.Get(i).Message(), visit)
			}
		default:
			walk(v.Message(), visit)
		}
		return true
	})
}

// readFunction tells a call of a function known not to write nor act on the server or the
// session, by its name: unqualified, or in pg_catalog. A function of any other schema is the
// user's, whatever it is called.
func readFunction(name []*pg.Node) bool {
	parts := make([]string, len(name))
	for i, p := range name {
		parts[i] = p.GetString_().GetSval()
	}
	switch {
	case len(parts) == 1:
		return readFunctions[parts[0]]
	case len(parts) == 2 && parts[0] == "pg_catalog":
		return readFunctions[parts[1]]
	}
	return false
}

// serverFileFunction is the name of a built-in function that reads or writes the server's
// files (PostgreSQL's own, and adminpack's), "" for any other call. A superuser's statement
// could otherwise copy a policy file, a key or the app's config into or out of the database on
// a server that runs as the person (a local cluster).
func serverFileFunction(name []*pg.Node) string {
	parts := make([]string, len(name))
	for i, p := range name {
		parts[i] = p.GetString_().GetSval()
	}
	// name, pg_catalog.name, or db.pg_catalog.name (the database part names the current one).
	f := parts[len(parts)-1]
	if len(parts) > 3 || len(parts) >= 2 && parts[len(parts)-2] != "pg_catalog" || !serverFileFunctions[f] {
		return ""
	}
	return f
}

var serverFileFunctions = toSet(`pg_read_file pg_read_binary_file pg_ls_dir pg_stat_file pg_ls_logdir pg_ls_waldir
pg_ls_tmpdir pg_ls_archive_statusdir pg_ls_logicalsnapdir pg_ls_logicalmapdir pg_ls_replslotdir lo_import lo_export
pg_file_write pg_file_rename pg_file_unlink pg_file_sync pg_logdir_ls`)

// readFunctions are functions known not to write nor act on the server or the session. The
// grammar spells some SQL syntax as calls of these (EXTRACT, POSITION, SUBSTRING … FROM,
// TRIM, OVERLAY, AT TIME ZONE, OVERLAPS, SIMILAR TO).
var readFunctions = toSet(`count sum avg min max lower upper length char_length character_length octet_length substr
substring strpos position split_part starts_with replace concat concat_ws format left right initcap repeat reverse
lpad rpad md5 sha256 regexp_replace regexp_match regexp_matches regexp_split_to_array regexp_like translate btrim
ltrim rtrim overlay abs ceil ceiling floor round trunc sqrt power pow exp ln log log10 mod sign pi degrees radians
sin cos tan now clock_timestamp statement_timestamp transaction_timestamp date_trunc date_part extract date_bin age
to_char to_date to_timestamp to_number make_date make_time make_timestamp make_timestamptz make_interval isfinite
justify_days justify_hours justify_interval timezone overlaps similar_to_escape like_escape pg_collation_for
normalize is_normalized array_agg string_agg json_agg jsonb_agg json_build_object jsonb_build_object
json_build_array jsonb_build_array json_object_agg jsonb_object_agg to_json to_jsonb row_to_json array_to_json
json_array_elements jsonb_array_elements json_array_elements_text jsonb_array_elements_text json_array_length
jsonb_array_length json_each jsonb_each json_each_text jsonb_each_text json_object_keys jsonb_object_keys
jsonb_extract_path jsonb_extract_path_text json_extract_path json_extract_path_text json_typeof jsonb_typeof
jsonb_path_query jsonb_path_query_array jsonb_path_exists jsonb_pretty jsonb_strip_nulls unnest array_length
array_lower array_upper array_dims cardinality array_position array_positions array_remove array_replace
array_append array_prepend array_cat array_to_string string_to_array generate_series generate_subscripts row_number
rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value bool_and bool_or every
stddev stddev_pop stddev_samp variance var_pop var_samp corr covar_pop covar_samp regr_slope regr_intercept
percentile_cont percentile_disc mode pg_typeof format_type current_schemas version pg_size_pretty
pg_total_relation_size pg_relation_size pg_table_size pg_indexes_size pg_column_size pg_database_size
obj_description col_description shobj_description to_tsvector to_tsquery plainto_tsquery phraseto_tsquery
websearch_to_tsquery ts_rank ts_rank_cd ts_headline setweight l2_distance cosine_distance inner_product l1_distance
vector_dims vector_norm l2_normalize subvector binary_quantize gen_random_uuid encode decode quote_ident
quote_literal quote_nullable num_nonnulls num_nulls width_bucket has_table_privilege has_schema_privilege
has_column_privilege has_database_privilege pg_get_viewdef pg_get_indexdef pg_get_constraintdef pg_get_functiondef
pg_get_expr pg_get_keywords pg_get_userbyid pg_table_is_visible to_regclass to_regtype to_regproc array_fill
int4range int8range numrange tsrange tstzrange daterange lower_inc upper_inc isempty range_merge bit_length ascii
chr pg_backend_pid current_setting pg_postmaster_start_time pg_is_in_recovery inet_server_addr inet_server_port
inet_client_addr inet_client_port pg_encoding_to_char pg_client_encoding pg_sleep date random current_database
current_schema jsonb_set jsonb_insert jsonb_set_lax jsonb_path_match json_object jsonb_object string_to_table
array_reverse trim_array array_sample array_shuffle any_value coalesce nullif greatest least`)

func toSet(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[w] = true
	}
	return out
}
