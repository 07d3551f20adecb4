package driver

import (
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
)

// URLForm says how a connection URL fills a type's settings, where its database has one
// (postgres://user@host:5432/shop?sslmode=require): each part of the URL names the setting it
// fills, "" for a part the type does not take. The URL is a way to fill the fields, never
// saved: the fields are, and a password in it goes to the keyring like any secret.
type URLForm struct {
	// Schemes are the URL schemes of the type ("postgres", "postgresql").
	Schemes []string `json:"schemes"`
	// Example is a URL to show where one is typed.
	Example string `json:"example,omitempty"`
	// User, Password, Host, Port and Path are the setting keys those parts fill; Path is the
	// URL's path without its leading slash (a database name), or whole with FilePath (a file
	// database: scheme:///home/me/shop.db).
	User     string `json:"user,omitempty"`
	Password string `json:"password,omitempty"`
	Host     string `json:"host,omitempty"`
	Port     string `json:"port,omitempty"`
	Path     string `json:"path,omitempty"`
	FilePath bool   `json:"filePath,omitempty"`
	// Query maps each query parameter the type takes to the setting key it fills.
	Query map[string]string `json:"query,omitempty"`
}

// FromURL is what a connection URL says, as setting values and secrets by key. A part the
// type does not take, an unknown query parameter or another scheme is an error naming it
// (KindInvalidArgument, Field "url"); the error never quotes the password. The values are
// not checked here: Check does that with the rest of the settings.
func (d Description) FromURL(raw string) (values, secrets map[string]string, err error) {
	f := d.URL
	if f == nil {
		return nil, nil, urlError("%s connections have no URL form: give the fields", strings.Join(typeNames(d.Types), ", "))
	}
	u, perr := url.Parse(strings.TrimSpace(raw))
	if perr != nil || u.Scheme == "" || u.Opaque != "" {
		// url.Parse's own error would quote the URL, password and all.
		return nil, nil, urlError("the URL is not a URL like %s", orExample(f))
	}
	if strings.Contains(u.Path+u.RawQuery+u.Fragment, "@") {
		// A password with a / ? or # in it ends the user part early: what follows, the rest of
		// the password among it, would be read (and quoted) as the path or a parameter.
		return nil, nil, urlError("the URL has an @ after its host: percent-encode the password's / ? # and @ (%%2F %%3F %%23 %%40), or give the password in its own field")
	}
	if !slices.Contains(f.Schemes, strings.ToLower(u.Scheme)) {
		return nil, nil, urlError("a %s URL starts with %s://", strings.Join(typeNames(d.Types), ", "), strings.Join(f.Schemes, ":// or "))
	}
	values, secrets = map[string]string{}, map[string]string{}
	put := func(part, key, v string) error {
		if v == "" {
			return nil
		}
		if key == "" {
			return urlError("the URL gives a %s, which these connections do not take", part)
		}
		values[key] = v
		return nil
	}
	if u.User != nil {
		if err := put("user", f.User, u.User.Username()); err != nil {
			return nil, nil, err
		}
		if pw, ok := u.User.Password(); ok && pw != "" {
			if f.Password == "" {
				return nil, nil, urlError("the URL gives a password, which these connections do not take")
			}
			secrets[f.Password] = pw
		}
	}
	path := strings.TrimPrefix(u.Path, "/")
	if f.FilePath {
		path = filePath(u.Path)
	}
	for _, p := range []struct{ part, key, v string }{
		{"host", f.Host, u.Hostname()}, {"port", f.Port, u.Port()}, {"path", f.Path, path},
	} {
		if err := put(p.part, p.key, p.v); err != nil {
			return nil, nil, err
		}
	}
	q, qerr := url.ParseQuery(u.RawQuery)
	if qerr != nil {
		return nil, nil, urlError("the URL's query is not key=value pairs")
	}
	for name, vs := range q {
		key, ok := f.Query[name]
		if !ok {
			known := make([]string, 0, len(f.Query))
			for k := range f.Query {
				known = append(known, k)
			}
			slices.Sort(known)
			return nil, nil, urlError("the URL's parameter %q is not one these connections take (%s)", cut(name, 40), orNone(known))
		}
		values[key] = vs[len(vs)-1]
	}
	if u.Fragment != "" {
		return nil, nil, urlError("the URL has a #fragment, which means nothing here")
	}
	return values, secrets, nil
}

// checkURLForm checks that a URL form fills only settings the description has, a password
// only into a secret.
func (d Description) checkURLForm() error {
	f := d.URL
	if f == nil {
		return nil
	}
	if len(f.Schemes) == 0 {
		return fmt.Errorf("url: no scheme")
	}
	type part struct {
		key      string
		password bool
	}
	parts := []part{{f.User, false}, {f.Password, true}, {f.Host, false}, {f.Port, false}, {f.Path, false}}
	for _, k := range f.Query {
		parts = append(parts, part{k, false})
	}
	for _, p := range parts {
		if p.key == "" {
			continue
		}
		field, ok := d.Field(p.key)
		if !ok {
			return fmt.Errorf("url: it fills %q, which is not a setting", p.key)
		}
		if p.password != (field.Kind == FieldSecret) {
			return fmt.Errorf("url: %q is filled from the URL's password only if it is a secret, and a secret only from it", p.key)
		}
	}
	return nil
}

func urlError(format string, args ...any) error {
	e := Errorf(KindInvalidArgument, format, args...)
	e.Field = "url"
	return e
}

func orExample(f *URLForm) string {
	if f.Example != "" {
		return f.Example
	}
	return f.Schemes[0] + "://…"
}

func typeNames(ts []ConnectionType) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Label
		if out[i] == "" {
			out[i] = t.Name
		}
	}
	return out
}

// filePath is a file URL's path as the machine writes it: "/C:/shop.db" is C:\shop.db on
// Windows, where the URL's leading slash comes before the drive.
func filePath(p string) string {
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' && ('a' <= p[1]|0x20 && p[1]|0x20 <= 'z') {
		return filepath.FromSlash(p[1:])
	}
	return filepath.FromSlash(p)
}
