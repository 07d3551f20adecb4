// Package postgres is the PostgreSQL driver: tables of a database's schemas as tables, their
// rows keyed by the primary key, filters bound as parameters, edits in one transaction, and
// SQL in the editor. It is served to the app as a plugin (cmd/postgres-driver) and the host
// knows it only through the driver contract (docs/drivers.md).
package postgres

import "app/backend/driver"

// Type is the connection type this driver serves.
const Type = "postgres"

// The settings' keys (host and port are the contract's own, driver.KeyHost and KeyPort).
const (
	KeyDatabase = "database"
	KeyUser     = "user"
	KeyPassword = "password"
	KeySSLMode  = "sslmode"
	KeyCAFile   = "sslrootcert"
	KeyOptions  = "options"
	// KeyPoolSize bounds the connections the driver opens: PGlite's wire server serves one.
	KeyPoolSize = "poolSize"
)

// sslModes are libpq's, in its order, with what each does.
var sslModes = []string{"disable", "allow", "prefer", "require", "verify-ca", "verify-full"}

var sslHelp = map[string]string{
	"disable":     "Plain TCP, never TLS",
	"allow":       "Plain first, TLS if the server insists",
	"prefer":      "TLS if the server offers it, else plain (libpq's default)",
	"require":     "TLS always, the certificate not checked",
	"verify-ca":   "TLS, the certificate signed by the CA file's authority",
	"verify-full": "TLS, the certificate signed and naming the host",
}

// Describe is the driver's description (contract 3): the connection type, the form's fields,
// the postgres:// URL form and the words AI clients read.
func Describe() driver.Description {
	return driver.Description{
		Types: []driver.ConnectionType{{
			Name: Type, Label: "PostgreSQL",
			Summary: "Relational database, with pgvector's vectors: SQL reads and writes",
		}},
		Settings: []driver.SettingField{
			{Key: driver.KeyHost, Label: "Host", Kind: driver.FieldText, Default: "localhost", Required: true, Format: driver.FormatHost},
			{Key: driver.KeyPort, Label: "Port", Kind: driver.FieldInt, Default: "5432", Required: true, Min: 1, Max: 65535},
			{Key: KeyDatabase, Label: "Database", Kind: driver.FieldText, Default: "postgres", Required: true},
			{Key: KeyUser, Label: "User", Kind: driver.FieldText, Default: "postgres", Required: true},
			{Key: KeyPassword, Label: "Password", Kind: driver.FieldSecret, Help: "Kept in the system keyring, never in a file"},
			{Key: KeySSLMode, Label: "SSL mode", Kind: driver.FieldEnum, Default: "prefer", Options: sslModes, OptionHelp: sslHelp},
			{Key: KeyCAFile, Label: "CA file", Kind: driver.FieldPath, Section: "Advanced",
				Help:     "The authority that signed the server's certificate (PEM)",
				ShowWhen: &driver.Condition{Key: KeySSLMode, In: []string{"verify-ca", "verify-full"}}},
			{Key: KeyOptions, Label: "Options", Kind: driver.FieldText, Section: "Advanced",
				Placeholder: "application_name=app search_path=public",
				Help:        "Run-time parameters as name=value pairs, separated by spaces"},
			{Key: KeyPoolSize, Label: "Connections", Kind: driver.FieldInt, Section: "Advanced", Default: "4", Min: 1, Max: 64,
				Help: "How many connections the app opens at most; 1 for a server that serves one (PGlite)"},
		},
		// The URL's password goes to the keyring with the password field's, never into a file.
		URL: &driver.URLForm{Schemes: []string{"postgres", "postgresql"}, Example: "postgres://user@host:5432/database?sslmode=require",
			User: KeyUser, Password: KeyPassword, Host: driver.KeyHost, Port: driver.KeyPort, Path: KeyDatabase,
			Query: map[string]string{"sslmode": KeySSLMode, "sslrootcert": KeyCAFile, "options": KeyOptions}},
		Address: []string{driver.KeyHost, driver.KeyPort, KeyDatabase},
		Words:   words(),
	}
}

func words() *driver.Words {
	return &driver.Words{
		Language: "SQL (PostgreSQL)",
		Table:    "table",
		Row:      "row",
		Instructions: "A PostgreSQL connection speaks SQL: reads are SELECT, e.g. SELECT id, title FROM public.article LIMIT 5, " +
			"and each write (INSERT, UPDATE, DELETE, DDL) is approved by the user. Tables are named schema.table.",
		Notes: "This is PostgreSQL: tables are named schema.table, and each table's primary key names its rows. " +
			"Reads are SQL SELECT statements, run in a read-only transaction, for example:\n" +
			"  SELECT id, title FROM public.article WHERE word_count > 500 ORDER BY id LIMIT 10\n" +
			"Writes are INSERT, UPDATE and DELETE statements, each approved by the user, for example:\n" +
			"  UPDATE public.article SET title = 'New title' WHERE id = 42\n\n",
	}
}
