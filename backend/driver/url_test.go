package driver

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// pgLike is a description with a URL form, as a PostgreSQL driver would give it.
func pgLike() Description {
	return Description{
		Types: []ConnectionType{{Name: "pg", Label: "PostgreSQL"}},
		Settings: []SettingField{
			{Key: "host", Label: "Host", Kind: FieldText}, {Key: "port", Label: "Port", Kind: FieldInt},
			{Key: "database", Label: "Database", Kind: FieldText}, {Key: "user", Label: "User", Kind: FieldText},
			{Key: "password", Label: "Password", Kind: FieldSecret},
			{Key: "sslmode", Label: "SSL", Kind: FieldEnum, Options: []string{"disable", "require"}},
			{Key: "options", Label: "Options", Kind: FieldText},
		},
		URL: &URLForm{Schemes: []string{"postgres", "postgresql"}, Example: "postgres://user@host:5432/db", User: "user", Password: "password",
			Host: "host", Port: "port", Path: "database", Query: map[string]string{"sslmode": "sslmode", "options": "options"}},
	}
}

// Contract 3, item 1: a connection URL fills the fields its form names; the password goes to
// the secrets, never to a value.
func TestAURLFillsTheFieldsItsFormNames(t *testing.T) {
	cases := []struct {
		rule, url       string
		values, secrets map[string]string
	}{
		{"every part", "postgres://ann:s%40cret@db.example.com:6543/shop?sslmode=require&options=-c%20search_path%3Dapp",
			map[string]string{"user": "ann", "host": "db.example.com", "port": "6543", "database": "shop", "sslmode": "require", "options": "-c search_path=app"},
			map[string]string{"password": "s@cret"}},
		{"the other scheme, upper case, an IPv6 host, no password", "PostgreSQL://bob@[::1]/x",
			map[string]string{"user": "bob", "host": "::1", "database": "x"}, map[string]string{}},
		{"only a host", "postgres://h", map[string]string{"host": "h"}, map[string]string{}},
	}
	t.Run("a file database keeps its path whole", func(t *testing.T) {
		d := Description{Types: []ConnectionType{{Name: "f"}}, Settings: []SettingField{{Key: "file", Kind: FieldPath}},
			URL: &URLForm{Schemes: []string{"f"}, Path: "file", FilePath: true}}
		if v, _, err := d.FromURL("f:///home/me/shop%20one.db"); err != nil || v["file"] != filepath.FromSlash("/home/me/shop one.db") {
			t.Fatalf("%v %v", v, err)
		}
		if got := filePath("/C:/data/shop.db"); got != filepath.FromSlash("C:/data/shop.db") {
			t.Fatalf("a drive letter's path: %q", got)
		}
	})
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			v, s, err := pgLike().FromURL(c.url)
			if err != nil || !reflect.DeepEqual(v, c.values) || !reflect.DeepEqual(s, c.secrets) {
				t.Fatalf("%v %v %v", v, s, err)
			}
		})
	}
	refused := []struct{ rule, url, says string }{
		{"another scheme", "mysql://h/db", "starts with postgres:// or postgresql://"},
		{"not a URL", "host=h port=5432", "is not a URL like postgres://user@host:5432/db"},
		{"a parameter the type does not take, named with the ones it does", "postgres://h/db?connect_timeout=3", `"connect_timeout" is not one these connections take (options, sslmode)`},
		{"a fragment", "postgres://h/db#x", "fragment"},
	}
	for _, c := range refused {
		t.Run(c.rule, func(t *testing.T) {
			var de *Error
			_, _, err := pgLike().FromURL(c.url)
			if !errors.As(err, &de) || de.Kind != KindInvalidArgument || de.Field != "url" || !strings.Contains(de.Msg, c.says) {
				t.Fatalf("%#v", err)
			}
		})
	}
	t.Run("a bad URL's error never quotes its password, one with an unescaped / ? or # included", func(t *testing.T) {
		for _, u := range []string{"postgres://u:hunter2@h:99999999/db%zz", "mysql://u:hunter2@h/db", "postgres://u:hunter2@h/db?x=1",
			"postgres://ann:12?hunter2@db/shop", "postgres://ann:12/hunter2@db", "postgres://ann:pa#hunter2@h/db"} {
			if _, _, err := pgLike().FromURL(u); err == nil || strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("%q: %v", u, err)
			}
		}
	})
	t.Run("a type without a URL form says so", func(t *testing.T) {
		d := pgLike()
		d.URL = nil
		if _, _, err := d.FromURL("postgres://h"); err == nil || !strings.Contains(err.Error(), "PostgreSQL connections have no URL form") {
			t.Fatal(err)
		}
	})
}

// A URL form is checked where the description arrives: it fills only the type's settings, and
// the password only a secret.
func TestAURLFormFillsOnlyItsOwnSettings(t *testing.T) {
	if err := pgLike().Valid(); err != nil {
		t.Fatal(err)
	}
	for _, broken := range []func(*URLForm){
		func(f *URLForm) { f.Path = "dbname" },
		func(f *URLForm) { f.Password = "user" },
		func(f *URLForm) { f.User = "password" },
		func(f *URLForm) { f.Schemes = nil },
	} {
		d := pgLike()
		broken(d.URL)
		if err := d.Valid(); err == nil {
			t.Errorf("%+v passed", d.URL)
		}
	}
}
