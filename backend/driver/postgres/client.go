package postgres

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/driver/sqlkit"
)

// Driver is one PostgreSQL connection: a pool of at most poolSize server connections.
type Driver struct {
	s    driver.Settings
	log  logrus.FieldLogger
	mu   sync.Mutex
	pool *pgxpool.Pool
	// tables caches DescribeTable's catalog reads by name; a DDL run through the driver
	// clears it.
	tables sync.Map // string -> *table
	// marks are where the pages read end, for keyset paging (Browse).
	marks sqlkit.Marks
	// notices are the server's notices of the editor's statements, by connection (listen).
	notices notices
	// walks are the cursor walks in progress (Scan of a relation without a key).
	walks walks
}

// Option configures New.
type Option func(*Driver)

// WithLogger sets the driver's logger.
func WithLogger(l logrus.FieldLogger) Option { return func(d *Driver) { d.log = l } }

// New checks the settings and returns a driver; Connect opens it.
func New(s driver.Settings, opts ...Option) (*Driver, error) {
	if err := Describe().Check(s, func(string) bool { return true }); err != nil {
		return nil, err
	}
	d := &Driver{s: s, log: logrus.StandardLogger()}
	for _, o := range opts {
		o(d)
	}
	return d, nil
}

// config is the pool's configuration from the settings. The password is set on the parsed
// configuration, never written into the text pgx parses (its errors quote that text).
func (d *Driver) config() (*pgxpool.Config, error) {
	s := d.s
	parts := []string{
		"host=" + quoteDSN(s.Host),
		"port=" + strconv.Itoa(s.Port),
		"dbname=" + quoteDSN(s.Value(KeyDatabase)),
		"user=" + quoteDSN(s.Value(KeyUser)),
		"sslmode=" + quoteDSN(orDefault(s.Value(KeySSLMode), "prefer")),
		"connect_timeout=10",
	}
	if ca := s.Value(KeyCAFile); ca != "" {
		parts = append(parts, "sslrootcert="+quoteDSN(ca))
	}
	cfg, err := pgxpool.ParseConfig(strings.Join(parts, " "))
	if err != nil {
		e := driver.Errorf(driver.KindInvalidArgument, "the connection settings cannot be used: check the host, database, user and SSL mode")
		return nil, e
	}
	cfg.ConnConfig.Password = s.Secret(KeyPassword)
	// Unnamed statements, their descriptions cached: a server session shared between client
	// connections (PgBouncer's transaction pooling, PGlite's wire server) never meets a
	// statement name another connection prepared.
	cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeCacheDescribe
	cfg.ConnConfig.OnNotice = d.notices.add
	// Every session reads times in UTC and dates as ISO, so a cell reads the same whatever
	// the server's defaults.
	cfg.ConnConfig.RuntimeParams["timezone"] = "UTC"
	cfg.ConnConfig.RuntimeParams["datestyle"] = "ISO, YMD"
	cfg.ConnConfig.RuntimeParams["intervalstyle"] = "iso_8601"
	if cfg.ConnConfig.RuntimeParams["application_name"] == "" {
		cfg.ConnConfig.RuntimeParams["application_name"] = "app"
	}
	for _, kv := range strings.Fields(s.Value(KeyOptions)) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			e := driver.Errorf(driver.KindInvalidArgument, "options: %q is not name=value", kv)
			e.Field = KeyOptions
			return nil, e
		}
		if strings.EqualFold(k, "standard_conforming_strings") {
			e := driver.Errorf(driver.KindInvalidArgument, "options: standard_conforming_strings stays on (statements are classified by how standard strings read)")
			e.Field = KeyOptions
			return nil, e
		}
		cfg.ConnConfig.RuntimeParams[k] = v
	}
	// Strings read as the SQL standard says ('\' is a backslash), as the classifier reads them.
	cfg.ConnConfig.RuntimeParams["standard_conforming_strings"] = "on"
	size := 4
	if n, err := strconv.Atoi(s.Value(KeyPoolSize)); err == nil && n > 0 {
		size = n
	}
	cfg.MaxConns = int32(size)
	cfg.MinConns = 0
	cfg.MaxConnIdleTime = 5 * time.Minute
	return cfg, nil
}

// Connect opens the pool and checks the server answers a query.
func (d *Driver) Connect(ctx context.Context) error {
	go warmParser() // the editor's first statement need not wait for the parser to compile
	cfg, err := d.config()
	if err != nil {
		return err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return d.connError(ctx, err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return d.connError(ctx, err)
	}
	d.mu.Lock()
	old := d.pool
	d.pool = pool
	d.mu.Unlock()
	d.walks.endAll(false) // the old pool's Close waits for the connections walks hold
	if old != nil {
		old.Close()
	}
	return nil
}

// Ping checks the connection with a query, as the health check.
func (d *Driver) Ping(ctx context.Context) error {
	p, err := d.db()
	if err != nil {
		return err
	}
	var one int
	if err := p.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
		return d.connError(ctx, err)
	}
	return nil
}

// Close releases the walks in progress and closes the pool.
func (d *Driver) Close() error {
	d.mu.Lock()
	p := d.pool
	d.pool = nil
	d.mu.Unlock()
	d.walks.endAll(true) // the pool's Close waits for the connections walks hold
	if p != nil {
		p.Close()
	}
	return nil
}

func (d *Driver) db() (*pgxpool.Pool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pool == nil {
		return nil, driver.Errorf(driver.KindConnection, "not connected")
	}
	return d.pool, nil
}

// Capabilities: SQL, transactions, keys by column, no paging limit.
func (d *Driver) Capabilities() driver.Capabilities {
	return driver.Capabilities{
		QueryLanguage: "sql", SQL: true, SchemaEdits: true, DatabaseField: true, VectorNumbers: true,
		DefaultPageSize: 100, Operators: driver.Operators(), Transactions: true,
		FilterGroups: true, SearchOptions: true, SearchModes: true, RowKeys: true, CreateTable: true,
	}
}

// connError is a failure to reach or enter the server, in the spec's words: an
// authentication failure says which user was refused (never the password), a network one
// what did not answer.
func (d *Driver) connError(ctx context.Context, err error) error {
	if cerr := driver.ContextError(ctx); cerr != nil {
		return cerr
	}
	where := net.JoinHostPort(d.s.Host, strconv.Itoa(d.s.Port))
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "28P01", "28000":
			e := driver.Wrap(driver.KindAuth, err, "the server refused user %q: check the user and the password", d.s.Value(KeyUser))
			e.Field = KeyPassword
			return e
		case "3D000":
			e := driver.Wrap(driver.KindConnection, err, "the server at %s has no database %q: check the database name", where, d.s.Value(KeyDatabase))
			e.Field = KeyDatabase
			return e
		}
		return d.queryError(ctx, err, "the connection")
	}
	var tlsErr *tls.CertificateVerificationError
	var authority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	switch {
	case errors.As(err, &hostname):
		return driver.Wrap(driver.KindConnection, err, "the server at %s showed a certificate for another name: connect by a name it holds, or choose SSL mode verify-ca", where)
	case errors.As(err, &tlsErr), errors.As(err, &authority), errors.As(err, &invalid):
		return driver.Wrap(driver.KindConnection, err, "the server at %s showed a certificate that is not trusted: check the CA file, or the SSL mode", where)
	case strings.Contains(err.Error(), "server refused TLS"), strings.Contains(err.Error(), "SSL is not enabled"):
		return driver.Wrap(driver.KindConnection, err, "the server at %s does not offer TLS: choose SSL mode disable or prefer", where)
	case strings.Contains(err.Error(), "connection refused"):
		return driver.Wrap(driver.KindConnection, err, "nothing accepts connections at %s: check the host and port, and that the server runs", where)
	case strings.Contains(err.Error(), "no such host"):
		return driver.Wrap(driver.KindConnection, err, "the host %q is not known: check the host name", d.s.Host)
	case strings.Contains(err.Error(), "timeout"):
		return driver.Wrap(driver.KindConnection, err, "%s did not answer in time: check the host, port and network", where)
	}
	return driver.Wrap(driver.KindConnection, err, "%s could not be reached: check the host, port and SSL mode", where)
}

// queryError is a server's answer to a statement as a driver error: the kind its SQLSTATE
// class says, and the server's message (which names objects, never a secret).
func (d *Driver) queryError(ctx context.Context, err error, what string) error {
	if cerr := driver.ContextError(ctx); cerr != nil {
		return cerr
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		if errors.Is(err, pgx.ErrNoRows) {
			return driver.Wrap(driver.KindNotFound, err, "%s found no row", what)
		}
		var ne net.Error
		if errors.As(err, &ne) || pgconn.SafeToRetry(err) || strings.Contains(err.Error(), "conn closed") {
			return driver.Wrap(driver.KindConnection, err, "the connection to the server was lost during %s", what)
		}
		return driver.Wrap(driver.KindQueryFailed, err, "%s failed", what)
	}
	msg := pe.Message
	if pe.Detail != "" {
		msg += " (" + pe.Detail + ")"
	}
	kind := driver.KindQueryFailed
	switch {
	case pe.Code == "57014" && strings.Contains(pe.Message, "timeout"):
		kind = driver.KindTimeout
	case pe.Code == "57014":
		kind = driver.KindCancelled
	case pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03":
		kind = driver.KindConnection
	case pe.Code == "42P01", pe.Code == "3F000":
		kind = driver.KindNotFound
	case pe.Code == "42501", pe.Code == "25006":
		kind = driver.KindNotPermitted
	case pe.Code == "23505", pe.Code == "40001", pe.Code == "40P01":
		kind = driver.KindConflict
	case strings.HasPrefix(pe.Code, "22"), strings.HasPrefix(pe.Code, "23"), pe.Code == "42703", pe.Code == "42601", pe.Code == "42804":
		kind = driver.KindInvalidArgument
	case strings.HasPrefix(pe.Code, "28"):
		kind = driver.KindAuth
	case strings.HasPrefix(pe.Code, "08"):
		kind = driver.KindConnection
	}
	e := driver.Wrap(kind, err, "%s: %s", what, msg)
	if pe.Position > 0 {
		e.Position = int(pe.Position)
	}
	if pe.ColumnName != "" {
		e.Column = pe.ColumnName
	}
	return e
}

// quoteDSN quotes a keyword/value connection string value.
func quoteDSN(v string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// ident quotes a name for SQL.
func ident(name string) string { return pgx.Identifier{name}.Sanitize() }

// errorf is a driver error of kind.
func errorf(kind driver.Kind, format string, args ...any) error {
	return driver.Errorf(kind, format, args...)
}
