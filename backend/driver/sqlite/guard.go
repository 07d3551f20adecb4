package sqlite

import (
	"strings"

	"github.com/ncruces/go-sqlite3"
)

// readPragmas are the pragmas a read may run: each only reads, with or without its argument
// (a table's or an index's name). Any other pragma on the read connection is refused, so no
// statement changes how that connection reads (case_sensitive_like, query_only, …).
var readPragmas = map[string]bool{
	"table_info": true, "table_xinfo": true, "table_list": true, "index_list": true, "index_info": true,
	"index_xinfo": true, "foreign_key_list": true, "foreign_key_check": true, "integrity_check": true,
	"quick_check": true, "database_list": true, "collation_list": true, "compile_options": true,
	"function_list": true, "module_list": true, "pragma_list": true,
}

// statePragmas are pragmas that say a setting when asked without a value, and set it with one.
var statePragmas = map[string]bool{
	"user_version": true, "application_id": true, "schema_version": true, "page_size": true, "page_count": true,
	"freelist_count": true, "encoding": true, "journal_mode": true, "foreign_keys": true, "data_version": true,
	"auto_vacuum": true, "cache_size": true, "synchronous": true, "max_page_count": true,
}

// guard is the authorizer of a connection. Neither connection attaches or detaches a file:
// the driver reads and writes the one file it opened (an ATTACH could reach any database the
// user can read, the app's own activity log among them). The read connection also runs no
// pragma but those that read (readPragmas, statePragmas without a value), nor
// load_extension (which this build leaves out besides).
func guard(readOnly bool) func(action sqlite3.AuthorizerActionCode, name3rd, name4th, schema, inner string) sqlite3.AuthorizerReturnCode {
	return func(action sqlite3.AuthorizerActionCode, name3rd, name4th, _, _ string) sqlite3.AuthorizerReturnCode {
		switch action {
		case sqlite3.AUTH_ATTACH, sqlite3.AUTH_DETACH:
			return sqlite3.AUTH_DENY
		case sqlite3.AUTH_FUNCTION:
			if strings.EqualFold(name4th, "load_extension") {
				return sqlite3.AUTH_DENY
			}
		case sqlite3.AUTH_PRAGMA:
			if !readOnly {
				return sqlite3.AUTH_OK
			}
			name := strings.ToLower(name3rd)
			if readPragmas[name] || statePragmas[name] && name4th == "" {
				return sqlite3.AUTH_OK
			}
			return sqlite3.AUTH_DENY
		}
		return sqlite3.AUTH_OK
	}
}
