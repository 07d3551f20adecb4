// Package weaviate is the Weaviate driver (SPEC part A): collections are
// tables, objects are rows, uuid is the primary key. Pages load through
// GET /v1/objects, filters, sorts and the editor through /v1/graphql, edits
// through POST/PATCH/DELETE /v1/objects, health through GET /v1/meta.
package weaviate

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"
	"google.golang.org/grpc"

	"app/backend/driver"
)

// MaxResults is Weaviate's default QUERY_MAXIMUM_RESULTS: offset plus limit
// above it is refused by the database, so paging stops there.
const MaxResults = 10000

// DefaultPageSize is Browse's page size when Page.Limit is 0.
const DefaultPageSize = 100

// maxErrorBody caps how much of an error answer is read.
const maxErrorBody = 1 << 20

// schemaTTL is how long a fetched schema is trusted for Browse and edits.
const schemaTTL = 10 * time.Second

// Option configures a Driver.
type Option func(*Driver)

// WithLogger sets the logger (skipped rows are logged there). The default is
// logrus' standard logger (stderr).
func WithLogger(l logrus.FieldLogger) Option { return func(d *Driver) { d.log = l } }

// WithHTTPClient replaces the HTTP client (tests, the benchmark). Its
// transport decides TLS: the SSL mode is then not applied.
func WithHTTPClient(c *http.Client) Option { return func(d *Driver) { d.http = c } }

// Driver is a Weaviate connection. It is safe for concurrent use.
type Driver struct {
	s       driver.Settings
	base    string // scheme://host:port
	hostTxt string // host:port for messages
	http    *http.Client
	log     logrus.FieldLogger

	mu       sync.Mutex
	closed   bool
	version  string
	schema   map[string]*class
	order    []string
	schemaAt time.Time

	grpcTarget string           // host:port of the gRPC API (grpc.go)
	grpcConn   *grpc.ClientConn // dialled on first use
	noGraphQL  bool             // the server answered that GraphQL is off
	viaWeb     bool             // gRPC calls go over gRPC-Web on the REST port (grpcweb.go)
	noWideInts atomic.Bool      // gRPC did not answer a read of the ints GraphQL dropped (wideints.go)

	// hasNamespaces: the server answered GraphQL with the 410 of a cluster with namespaces
	// (namespaces.go).
	hasNamespaces bool
}

var _ driver.Driver = (*Driver)(nil)

// New validates the settings and returns a driver that has not yet talked to
// the server (call Connect).
func New(s driver.Settings, opts ...Option) (*Driver, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	s = s.Normalized()
	d := &Driver{s: s, log: logrus.StandardLogger()}
	for _, o := range opts {
		o(d)
	}
	scheme := "http"
	if s.SSLMode.UsesTLS() {
		scheme = "https"
	}
	d.hostTxt = net.JoinHostPort(s.Host, strconv.Itoa(s.Port))
	d.base = scheme + "://" + d.hostTxt
	d.grpcTarget = grpcTarget(s)
	if d.http == nil {
		tc, err := tlsConfig(s)
		if err != nil {
			return nil, err
		}
		tr := &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			TLSClientConfig:     tc,
			TLSHandshakeTimeout: 10 * time.Second,
			// 64: the MCP endpoint drives tens of concurrent calls to one node; beyond it each redials.
			MaxIdleConnsPerHost: 64,
			IdleConnTimeout:     90 * time.Second,
			ForceAttemptHTTP2:   true,
		}
		d.http = &http.Client{Transport: tr}
	}
	// Never follow a redirect: it could carry the key elsewhere.
	c := *d.http
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	d.http = &c
	return d, nil
}

// Settings returns the driver's settings (APIKey included: do not log).
func (d *Driver) Settings() driver.Settings { return d.s }

// BaseURL is scheme://host:port of the node.
func (d *Driver) BaseURL() string { return d.base }

// ServerVersion is the node version read by the last Connect / Ping.
func (d *Driver) ServerVersion() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.version
}

// Connect reads /v1/meta with the credential: it proves reachability, TLS and
// the key.
//
// It also finds out which read paths the server has: one GraphQL request tells whether
// filters, sorts and counts go over GraphQL or, where it is off, over gRPC.
func (d *Driver) Connect(ctx context.Context) error {
	if err := d.Ping(ctx); err != nil {
		return err
	}
	d.probeGraphQL(ctx)
	d.probeGRPC(ctx)
	if err := driver.ContextError(ctx); err != nil {
		return err
	}
	return nil
}

// Ping is the health check: GET /v1/meta with the credential. A rejected key
// gives "Authentication failed: ...", TLS or network trouble "Connection
// failed: ...".
func (d *Driver) Ping(ctx context.Context) error {
	var meta struct {
		Version  string `json:"version"`
		Hostname string `json:"hostname"`
	}
	st, body, err := d.call(ctx, http.MethodGet, "/v1/meta", nil, nil)
	if err != nil {
		return d.healthError(err)
	}
	if st != http.StatusOK {
		return d.healthError(d.statusError(st, body, "/v1/meta"))
	}
	if json.Unmarshal(body, &meta) != nil || meta.Version == "" {
		return driver.Errorf(driver.KindConnection, "the server at %s did not answer like a Weaviate node (no version in /v1/meta)", d.hostTxt)
	}
	d.mu.Lock()
	d.version = meta.Version
	d.mu.Unlock()
	return nil
}

// healthError turns a failed health read into an auth or connection error.
func (d *Driver) healthError(err error) error {
	switch driver.KindOf(err) {
	case driver.KindAuth, driver.KindConnection, driver.KindCancelled:
		return err
	case driver.KindTimeout:
		return driver.Wrap(driver.KindConnection, err, "%s did not answer the health check in time", d.hostTxt)
	}
	var de *driver.Error
	if errors.As(err, &de) {
		return driver.Wrap(driver.KindConnection, err, "the health check at %s failed: %s", d.hostTxt, de.Msg)
	}
	return driver.Wrap(driver.KindConnection, err, "the health check at %s failed", d.hostTxt)
}

// Close releases idle connections. Later calls fail with KindConnection.
func (d *Driver) Close() error {
	d.mu.Lock()
	d.closed = true
	conn := d.grpcConn
	d.grpcConn = nil
	d.mu.Unlock()
	d.http.CloseIdleConnections()
	if conn != nil {
		_ = conn.Close()
	}
	return nil
}

// Capabilities of the Weaviate driver.
func (d *Driver) Capabilities() driver.Capabilities {
	return driver.Capabilities{
		QueryLanguage:   "graphql",
		RESTLines:       true,
		MaxResults:      MaxResults,
		DefaultPageSize: DefaultPageSize,
		Operators:       driver.Operators(),
		FilterGroups:    true,
		SearchOptions:   true,
		SearchModes:     true,
		RowKeys:         true,
		CreateTable:     true,
	}
}

// call sends one request and reads the whole answer. path starts with /v1.
// A transport failure is mapped to a driver error; HTTP statuses are left to
// the caller (see statusError).
func (d *Driver) call(ctx context.Context, method, path string, query url.Values, body []byte) (int, []byte, error) {
	resp, err := d.send(ctx, method, path, query, body)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, d.transportError(ctx, err)
	}
	return resp.StatusCode, data, nil
}

// send sends one request; the caller closes the body. A 400 from a TLS
// listener answering plain HTTP is turned into a connection error here.
func (d *Driver) send(ctx context.Context, method, path string, query url.Values, body []byte) (*http.Response, error) {
	return d.sendRaw(ctx, method, path, query.Encode(), body)
}

// sendRaw is send with an already encoded query.
func (d *Driver) sendRaw(ctx context.Context, method, path, rawQuery string, body []byte) (*http.Response, error) {
	if err := driver.ContextError(ctx); err != nil {
		return nil, err
	}
	d.mu.Lock()
	closed := d.closed
	d.mu.Unlock()
	if closed {
		return nil, driver.Errorf(driver.KindConnection, "the connection to %s is closed", d.hostTxt)
	}
	u := d.base + path
	if rawQuery != "" {
		u += "?" + rawQuery
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, driver.Wrap(driver.KindInvalidArgument, err, "the request %s %s cannot be built", method, path)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if d.s.AuthMethod == driver.AuthAPIKey {
		req.Header.Set("Authorization", "Bearer "+d.s.APIKey)
	}
	resp, err := d.http.Do(req)
	if err != nil {
		return nil, d.transportError(ctx, err)
	}
	if resp.StatusCode == http.StatusBadRequest && !d.s.SSLMode.UsesTLS() {
		// Go's TLS listeners answer a plain request with this text.
		peek, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		resp.Body.Close()
		if bytes.Contains(peek, []byte("HTTP request to an HTTPS server")) {
			return nil, driver.Errorf(driver.KindConnection, "%s speaks HTTPS but SSL Mode is Disabled; choose an SSL Mode that uses HTTPS", d.hostTxt)
		}
		resp.Body = io.NopCloser(bytes.NewReader(peek))
	}
	return resp, nil
}

// transportError maps a failed round trip to a user-safe driver error.
func (d *Driver) transportError(ctx context.Context, err error) error {
	if cerr := driver.ContextError(ctx); cerr != nil {
		return cerr
	}
	var (
		unknownCA x509.UnknownAuthorityError
		hostErr   x509.HostnameError
		invalid   x509.CertificateInvalidError
		recErr    tls.RecordHeaderError
		dnsErr    *net.DNSError
		certErr   *tls.CertificateVerificationError
	)
	switch {
	case errors.As(err, &unknownCA):
		return driver.Wrap(driver.KindConnection, err, "the certificate of %s is self-signed or signed by an unknown authority. To accept it, set SSL Mode to Required (skip verify) or turn on Skip TLS Verification; with Verify CA or Verify Identity, set the CA file to the signing certificate", d.hostTxt)
	case errors.As(err, &hostErr):
		return driver.Wrap(driver.KindConnection, err, "the certificate of %s is not valid for host name %q (SSL Mode %s checks the host name). Use a host name the certificate names, SSL Mode Verify CA, or turn on Skip TLS Verification", d.hostTxt, d.s.Host, d.s.SSLMode)
	case errors.As(err, &invalid):
		return driver.Wrap(driver.KindConnection, err, "the certificate of %s is not valid (expired, not yet valid, or not for server use). To accept it anyway, set SSL Mode to Required (skip verify) or turn on Skip TLS Verification", d.hostTxt)
	case errors.As(err, &certErr):
		return driver.Wrap(driver.KindConnection, err, "the certificate of %s could not be verified. To accept it, set SSL Mode to Required (skip verify) or turn on Skip TLS Verification", d.hostTxt)
	case errors.As(err, &recErr), strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		return driver.Wrap(driver.KindConnection, err, "%s does not speak TLS; set SSL Mode to Disabled for a plain HTTP node", d.hostTxt)
	case errors.As(err, &dnsErr):
		return driver.Wrap(driver.KindConnection, err, "the host name %q cannot be resolved", d.s.Host)
	case errors.Is(err, syscall.ECONNREFUSED):
		return driver.Wrap(driver.KindConnection, err, "nothing accepts connections at %s (connection refused)", d.hostTxt)
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return driver.Wrap(driver.KindConnection, err, "%s closed the connection", d.hostTxt)
	}
	var nerr net.Error
	if errors.As(err, &nerr) && nerr.Timeout() {
		return driver.Wrap(driver.KindConnection, err, "%s did not answer in time", d.hostTxt)
	}
	var tlsAlert tls.AlertError
	if errors.As(err, &tlsAlert) || strings.Contains(err.Error(), "tls:") {
		return driver.Wrap(driver.KindConnection, err, "the TLS handshake with %s failed", d.hostTxt)
	}
	return driver.Wrap(driver.KindConnection, err, "%s cannot be reached", d.hostTxt)
}

// statusError maps a non-2xx answer to a driver error with the server's own
// message (the API key is never echoed).
func (d *Driver) statusError(status int, body []byte, what string) error {
	// Redacted before serverMessage shortens it, which could cut the key in two.
	msg := d.redact(serverMessage([]byte(d.redact(string(body)))))
	if err := inactiveTenant(msg, what); err != nil {
		return err
	}
	if err := d.namespaceRefusal(status, msg, what); err != nil {
		return err
	}
	switch status {
	case http.StatusGone:
		return goneError(what, msg)
	case http.StatusUnauthorized:
		if d.s.AuthMethod == driver.AuthAPIKey {
			return driver.Errorf(driver.KindAuth, "the API key was rejected by %s", d.hostTxt)
		}
		return driver.Errorf(driver.KindAuth, "%s expects an API key but Auth Method is None; set Auth Method to API Key and enter the key", d.hostTxt)
	case http.StatusForbidden:
		if err := notPermitted(msg); err != nil {
			return err
		}
		if what == "/v1/meta" {
			return driver.Errorf(driver.KindAuth, "the API key is not allowed to read %s%s", what, suffix(msg))
		}
		return driver.Errorf(driver.KindNotPermitted, "permission denied for %s%s", what, suffix(msg))
	case http.StatusNotFound:
		return driver.Errorf(driver.KindNotFound, "%s was not found%s", what, suffix(msg))
	case http.StatusUnprocessableEntity:
		if strings.Contains(msg, "query maximum results exceeded") {
			return driver.Errorf(driver.KindUnsupported, "the database refuses to page past its result maximum (QUERY_MAXIMUM_RESULTS, default %d rows): %s", MaxResults, msg)
		}
		return driver.Errorf(driver.KindQueryFailed, "%s was refused: %s", what, orStatus(msg, status))
	case http.StatusBadRequest:
		return driver.Errorf(driver.KindQueryFailed, "%s was refused as a bad request: %s", what, orStatus(msg, status))
	}
	return driver.Errorf(driver.KindQueryFailed, "%s failed with HTTP %d%s", what, status, suffix(msg))
}

func suffix(msg string) string {
	if msg == "" {
		return ""
	}
	return ": " + msg
}

func orStatus(msg string, status int) string {
	if msg == "" {
		return fmt.Sprintf("HTTP %d", status)
	}
	return msg
}

// serverMessage extracts the text of a Weaviate error body:
// {"error":[{"message":...}]}, {"code":..,"message":..} or GraphQL errors.
func serverMessage(body []byte) string {
	var e struct {
		Error   json.RawMessage `json:"error"`
		Errors  []gqlError      `json:"errors"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &e) != nil {
		s := strings.TrimSpace(string(body))
		if len(s) > 300 {
			s = s[:300] + "…"
		}
		return s
	}
	var parts []string
	var list []gqlError
	if json.Unmarshal(e.Error, &list) == nil {
		for _, m := range list {
			parts = append(parts, m.Message)
		}
	} else {
		var s string
		if json.Unmarshal(e.Error, &s) == nil && s != "" {
			parts = append(parts, s)
		}
	}
	for _, m := range e.Errors {
		parts = append(parts, m.Message)
	}
	if e.Message != "" {
		parts = append(parts, e.Message)
	}
	return strings.Join(parts, "; ")
}

type gqlError struct {
	Message string `json:"message"`
	Path    []any  `json:"path,omitempty"`
}

// redact removes the API key from text that may be shown.
func (d *Driver) redact(s string) string {
	if d.s.APIKey != "" {
		s = strings.ReplaceAll(s, d.s.APIKey, "[redacted]")
	}
	return s
}
