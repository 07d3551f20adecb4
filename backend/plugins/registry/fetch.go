package registry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// The environment variables that choose a registry when no flag does.
const (
	EnvRegistry    = "APP_PLUGIN_REGISTRY"
	EnvRegistryKey = "APP_PLUGIN_REGISTRY_KEY"
)

// maxIndexSize and maxSigSize bound what is read of an index and its signature.
const (
	maxIndexSize = 8 << 20
	maxSigSize   = 4 << 10
)

// Source is where the index comes from and which keys may sign it.
type Source struct {
	// URL is the index URL (http, https or file; a directory URL means its index.json).
	URL string
	// Keys are the trusted keys: the official one of the build, plus one given explicitly.
	Keys []PublicKey
}

// Official is the registry a build names (backend/buildinfo.Registry): its index URL and
// the key it is signed with. Both are empty in a developer build, which trusts no registry
// until one is named.
type Official struct{ URL, Key string }

// DeveloperBuild is the answer of a developer build that was given no registry: it says so
// and how to name one, instead of trying a host that does not exist.
const DeveloperBuild = "this is a developer build of App: it has no official plugin registry. " +
	"Name one with --registry and --registry-key, $APP_PLUGIN_REGISTRY and $APP_PLUGIN_REGISTRY_KEY, " +
	"or the settings plugins.registry and plugins.registryKey (make run starts a local one)"

// Named is a registry named by one source of configuration: a flag, the environment or
// the settings (plugins.registry, plugins.registryKey). Empty fields name nothing.
type Named struct{ URL, Key string }

// ResolveSource picks the registry: the flag values, else $APP_PLUGIN_REGISTRY and
// $APP_PLUGIN_REGISTRY_KEY, else the settings, else the build's official registry; the key
// likewise. The build's official key is always trusted; another key only when one of them
// names it. A developer build given no registry answers DeveloperBuild.
func ResolveSource(flags, settings Named, official Official) (Source, error) {
	u := firstNonEmpty(flags.URL, os.Getenv(EnvRegistry), settings.URL, official.URL)
	if u == "" {
		return Source{}, &Error{Code: CodeNoRegistry, Msg: DeveloperBuild + "."}
	}
	idx, err := IndexURL(u)
	if err != nil {
		return Source{}, err
	}
	src := Source{URL: idx}
	if strings.TrimSpace(official.Key) != "" {
		pk, err := ParsePublicKey(official.Key)
		if err != nil {
			return Source{}, fmt.Errorf("the official registry key of this build: %v", err)
		}
		src.Keys = append(src.Keys, pk)
	}
	if k := firstNonEmpty(flags.Key, os.Getenv(EnvRegistryKey), settings.Key); k != "" {
		pk, err := ParsePublicKey(k)
		if err != nil {
			return Source{}, fmt.Errorf("registry key: %v", err)
		}
		if len(src.Keys) == 0 || pk.ID() != src.Keys[0].ID() {
			src.Keys = append(src.Keys, pk)
		}
	}
	return src, nil
}

// MirrorDir is where a package puts the signed offline mirror of the registry, beside the app's
// program: the index, its signature and the driver for the package's own platform.
const MirrorDir = "plugins-mirror"

// MirrorSource is the bundled mirror in dir, trusted with the build's official key only: its
// index is checked exactly as the online one (signature, then each artifact's size and
// SHA-256 at install).
func MirrorSource(dir string, official Official) (Source, error) {
	if strings.TrimSpace(official.Key) == "" {
		return Source{}, fmt.Errorf("the bundled mirror in %s cannot be trusted: this build names no official key", dir)
	}
	pk, err := ParsePublicKey(official.Key)
	if err != nil {
		return Source{}, fmt.Errorf("the official registry key of this build: %v", err)
	}
	u, err := IndexURL(dir)
	if err != nil {
		return Source{}, err
	}
	return Source{URL: u, Keys: []PublicKey{pk}}, nil
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// IndexURL normalizes a registry address to its index URL: http(s) and file URLs are kept
// (a URL not ending in .json gets /index.json), and a plain path becomes a file URL.
func IndexURL(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || (len(u.Scheme) == 1 && runtime.GOOS == "windows") {
		abs, aerr := filepath.Abs(s)
		if aerr != nil {
			return "", fmt.Errorf("registry %q is neither a URL nor a path", s)
		}
		u = &url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
		if !strings.HasPrefix(u.Path, "/") {
			u.Path = "/" + u.Path
		}
	}
	switch u.Scheme {
	case "http", "https":
		if u.Host == "" {
			return "", fmt.Errorf("registry URL %q has no host", s)
		}
	case "file":
	default:
		return "", fmt.Errorf("registry URL %q: only http, https and file URLs are supported", s)
	}
	if !strings.HasSuffix(u.Path, ".json") {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/index.json"
	}
	return u.String(), nil
}

// Signed is a verified index.
type Signed struct {
	*Index
	// URL is the index URL; artifact URLs are relative to it.
	URL string
	// Key is the key that signed it.
	Key PublicKey
	// Raw are the exact signed bytes.
	Raw []byte
}

// Resolve returns an artifact URL made absolute against the index URL.
func (s *Signed) Resolve(ref string) (string, error) {
	base, err := url.Parse(s.URL)
	if err != nil {
		return "", err
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("artifact URL %q: %v", ref, err)
	}
	u := base.ResolveReference(r)
	switch u.Scheme {
	case "http", "https", "file":
		return u.String(), nil
	}
	return "", fmt.Errorf("artifact URL %q: only http, https and file URLs are supported", ref)
}

// Client fetches indexes and artifacts.
type Client struct {
	// HTTP is the client for http(s) URLs. Default: 30 s to connect and answer headers,
	// no overall timeout (downloads are bounded by their context).
	HTTP *http.Client
}

func (c *Client) http() *http.Client {
	if c != nil && c.HTTP != nil {
		return c.HTTP
	}
	return defaultHTTP
}

var defaultHTTP = &http.Client{Transport: &http.Transport{
	Proxy:                 http.ProxyFromEnvironment,
	DialContext:           (&net.Dialer{Timeout: 30 * time.Second}).DialContext,
	TLSHandshakeTimeout:   30 * time.Second,
	ResponseHeaderTimeout: 30 * time.Second,
	ForceAttemptHTTP2:     true,
}}

// Fetch reads the index and its signature (the index URL + ".sig"), verifies it against
// src's keys and parses it. Each refusal is an *Error with its own code and message.
func (c *Client) Fetch(ctx context.Context, src Source) (*Signed, error) {
	where := Display(src.URL)
	raw, err := c.readAll(ctx, src.URL, maxIndexSize)
	if err != nil {
		return nil, unreachable(where, err)
	}
	sig, err := c.readAll(ctx, src.URL+".sig", maxSigSize)
	if err != nil {
		if isNotFound(err) {
			return nil, &Error{Code: CodeBadSignature, Err: err,
				Msg: fmt.Sprintf("The plugin registry at %s has no signature (index.json.sig is missing), so nothing from it is trusted.", where)}
		}
		return nil, unreachable(where, err)
	}
	key, err := Verify(raw, sig, src.Keys, where)
	if err != nil {
		return nil, err
	}
	x, err := ParseIndex(raw)
	if err != nil {
		return nil, &Error{Code: CodeBadIndex, Err: err, Msg: fmt.Sprintf("The plugin registry index at %s is signed but malformed: %v.", where, err)}
	}
	if x.KeyID != "" && x.KeyID != key.ID() {
		return nil, &Error{Code: CodeBadIndex, Msg: fmt.Sprintf("The plugin registry index at %s names key %s but is signed with %s.", where, x.KeyID, key.ID())}
	}
	return &Signed{Index: x, URL: src.URL, Key: key, Raw: raw}, nil
}

// Display is a URL as messages show it: file URLs as their path, others without user
// info or query.
func Display(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	if u.Scheme == "file" {
		return FilePath(u)
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}

// FilePath is the local path of a file URL ("file:///C:/x" is C:\x on Windows).
func FilePath(u *url.URL) string {
	p := u.Path
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	return filepath.FromSlash(p)
}

// statusError is an HTTP answer other than 200.
type statusError struct {
	code int
	text string
}

func (e *statusError) Error() string { return fmt.Sprintf("it answered %d %s", e.code, e.text) }

// tooLargeError is an index or signature beyond its size bound.
type tooLargeError struct{ limit int64 }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("the answer is larger than %d KB", e.limit>>10)
}

func isNotFound(err error) bool {
	var se *statusError
	return errors.Is(err, fs.ErrNotExist) || (errors.As(err, &se) && se.code == http.StatusNotFound)
}

func unreachable(where string, err error) error {
	return &Error{Code: CodeUnreachable, Err: err,
		Msg: fmt.Sprintf("The plugin registry at %s cannot be reached: %s. Check the address (--registry, $%s or the setting plugins.registry) and the network.", where, Reason(err), EnvRegistry)}
}

// Reason says in a few words why a request failed, without Go's error wording.
func Reason(err error) string {
	var se *statusError
	var tl *tooLargeError
	var dns *net.DNSError
	switch {
	case errors.As(err, &se):
		return se.Error()
	case errors.As(err, &tl):
		return tl.Error()
	case errors.Is(err, context.Canceled):
		return "the request was cancelled"
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return "no answer in time"
	case errors.Is(err, fs.ErrNotExist):
		return "the file does not exist"
	case errors.Is(err, fs.ErrPermission):
		return "the file cannot be read (permission denied)"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the connection was refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection was cut"
	case errors.As(err, &dns):
		return "the host name does not resolve"
	}
	return "the request failed"
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// Open opens an http(s) or file URL for reading and returns its length when known (-1
// otherwise).
func (c *Client) Open(ctx context.Context, rawURL string) (io.ReadCloser, int64, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, 0, err
	}
	if u.Scheme == "file" {
		f, err := os.Open(FilePath(u))
		if err != nil {
			return nil, 0, err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, err
		}
		if st.IsDir() {
			f.Close()
			return nil, 0, fs.ErrNotExist
		}
		return f, st.Size(), nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, 0, err
	}
	resp, err := c.http().Do(req)
	if err != nil {
		return nil, 0, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, 0, &statusError{code: resp.StatusCode, text: http.StatusText(resp.StatusCode)}
	}
	return resp.Body, resp.ContentLength, nil
}

func (c *Client) readAll(ctx context.Context, rawURL string, limit int64) ([]byte, error) {
	r, _, err := c.Open(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &tooLargeError{limit: limit}
	}
	return b, nil
}
