package pairing

import (
	"fmt"
	"net"
	neturl "net/url"
	"os"
	"strconv"
	"time"
)

// Stale is a client whose config file points the app's server at an HTTP URL on this machine
// with another port than the one the server runs on: after the server fell back from a taken
// port (issue 25, item 10), or after the port setting changed. The stdio bridge finds the
// port in the handshake file and is never stale.
type Stale struct {
	Client string `json:"client"`
	Title  string `json:"title"`
	File   string `json:"file"`
	URL    string `json:"url"`
}

// urlKeys are the members that hold the server's URL in the clients' entries (Windsurf's is
// serverUrl, Gemini's httpUrl, Goose's uri).
var urlKeys = []string{"url", "serverUrl", "httpUrl", "uri"}

// FindStale lists the known clients whose config file names the app's server at a loopback
// URL whose port is not port.
func FindStale(port int) []Stale {
	var out []Stale
	for _, c := range Clients {
		path := c.ConfigFile()
		if c.entry == nil || c.Project || path == "" {
			continue
		}
		_, entry, key, err := readEntry(c, path)
		if err != nil || key == "" {
			continue
		}
		raw, _ := entry[key].(string)
		if p, ok := loopbackPort(raw); ok && p != port {
			out = append(out, Stale{Client: c.ID, Title: c.Title, File: path, URL: raw})
		}
	}
	return out
}

// Repoint changes the port of the app's URL in a stale client's config file to port, keeping
// everything else (the token in its headers, other servers, comments), with a backup as Write
// keeps.
func Repoint(s Stale, port int, now time.Time) (backup string, err error) {
	c, err := Find(s.Client)
	if err != nil {
		return "", err
	}
	old, entry, key, err := readEntry(c, s.File)
	if err != nil {
		return "", err
	}
	if key == "" {
		return "", fmt.Errorf("%s no longer names the %q server: nothing was changed", s.File, ServerName)
	}
	raw, _ := entry[key].(string)
	u, err := neturl.Parse(raw)
	if _, ok := loopbackPort(raw); err != nil || !ok {
		return "", fmt.Errorf("%s: the %q server's URL %q is not on this machine: nothing was changed", s.File, ServerName, raw)
	}
	u.Host = net.JoinHostPort(u.Hostname(), strconv.Itoa(port))
	entry[key] = u.String()
	b, err := formatOf(c.Format).put(old, c.Root, ServerName, entry)
	if err != nil {
		return "", unchanged(s.File, err)
	}
	return replaceFile(s.File, old, b, now)
}

// Repaired is what RepairAll did for one client: the backup of its config file, or why it
// was left alone.
type Repaired struct {
	Title  string `json:"title"`
	File   string `json:"file"`
	Backup string `json:"backup,omitempty"`
	Error  string `json:"error,omitempty"`
}

// RepairAll re-points every stale client at port: the one rule behind the window's "Re-pair"
// button and `app client repair`.
func RepairAll(port int, now time.Time) []Repaired {
	out := []Repaired{}
	for _, s := range FindStale(port) {
		r := Repaired{Title: s.Title, File: s.File}
		if b, err := Repoint(s, port, now); err != nil {
			r.Error = err.Error()
		} else {
			r.Backup = b
		}
		out = append(out, r)
	}
	return out
}

// readEntry reads a client config file (its bytes, for an edit that follows) and finds the
// app's entry and the member holding its URL ("" when the entry has none, e.g. a stdio entry).
func readEntry(c Client, path string) (file []byte, entry map[string]any, urlKey string, err error) {
	file, err = os.ReadFile(path)
	if err != nil {
		return nil, nil, "", err
	}
	entry, err = formatOf(c.Format).entry(file, c.Root, ServerName)
	if err != nil || entry == nil {
		return file, nil, "", err
	}
	for _, k := range urlKeys {
		if _, ok := entry[k].(string); ok {
			return file, entry, k, nil
		}
	}
	return file, entry, "", nil
}

// loopbackPort is the port of an http URL on 127.0.0.1, ::1 or localhost.
func loopbackPort(raw string) (int, bool) {
	u, err := neturl.Parse(raw)
	if err != nil || u.Scheme != "http" {
		return 0, false
	}
	switch u.Hostname() {
	case "127.0.0.1", "::1", "localhost":
	default:
		return 0, false
	}
	p, err := strconv.Atoi(u.Port())
	return p, err == nil
}
