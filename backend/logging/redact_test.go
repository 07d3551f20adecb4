package logging

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"

	"app/backend/redact"
)

type keyHolder struct{ Key string }

// Issue 11: secrets never reach app.log. Each case logs a secret a different way, through
// both outputs (stderr headless, the file on the desktop).
func TestLogIsRedacted(t *testing.T) {
	const key = "weaviate-key-Zx81Qp0"
	cases := []struct {
		rule string
		log  func(l *logrus.Logger)
	}{
		{"a known secret in the message", func(l *logrus.Logger) { l.Infof("Authentication failed: key %s rejected", key) }},
		{"a known secret in a string field", func(l *logrus.Logger) { l.WithField("detail", "key="+key).Warn("health check") }},
		{"a known secret in an error field", func(l *logrus.Logger) { l.WithError(errors.New("401 for " + key)).Error("connect") }},
		{"a known secret inside a struct field", func(l *logrus.Logger) { l.WithField("settings", keyHolder{Key: key}).Info("saved") }},
		{"a bearer token nobody registered", func(l *logrus.Logger) { l.Info("sent Authorization: Bearer " + key + "-unregistered") }},
		{"a password in a URL", func(l *logrus.Logger) { l.WithField("url", "http://admin:"+key+"@127.0.0.1:8080").Info("dial") }},
	}
	outputs := []struct {
		name string
		open func(t *testing.T, r *redact.Redactor) (*logrus.Logger, func() string)
	}{
		{"headless stderr", func(t *testing.T, r *redact.Redactor) (*logrus.Logger, func() string) {
			var buf bytes.Buffer
			l, closeFn, err := New(Options{Headless: true, Stderr: &buf, Redactor: r})
			if err != nil {
				t.Fatal(err)
			}
			return l, func() string { _ = closeFn(); return buf.String() }
		}},
		{"desktop app.log", func(t *testing.T, r *redact.Redactor) (*logrus.Logger, func() string) {
			dir := t.TempDir()
			l, closeFn, err := New(Options{Dir: dir, Redactor: r})
			if err != nil {
				t.Fatal(err)
			}
			return l, func() string {
				_ = closeFn()
				data, err := os.ReadFile(filepath.Join(dir, "logs", "app.log"))
				if err != nil {
					t.Fatal(err)
				}
				return string(data)
			}
		}},
	}
	for _, out := range outputs {
		for _, c := range cases {
			t.Run(out.name+"/"+c.rule, func(t *testing.T) {
				l, read := out.open(t, redact.New(key))
				c.log(l)
				got := read()
				if strings.Contains(got, key) || !strings.Contains(got, redact.Mask) {
					t.Fatalf("log holds the secret or no mask:\n%s", got)
				}
			})
		}
	}
	t.Run("the caller's entry keeps its fields", func(t *testing.T) {
		var buf bytes.Buffer
		l, _, _ := New(Options{Headless: true, Stderr: &buf, Redactor: redact.New(key)})
		e := l.WithField("detail", key)
		e.Info("x")
		if e.Data["detail"] != key {
			t.Fatalf("caller's field changed to %v", e.Data["detail"])
		}
	})
	t.Run("plain values pass unchanged", func(t *testing.T) {
		var buf bytes.Buffer
		l, _, _ := New(Options{Headless: true, Stderr: &buf, Redactor: redact.New(key)})
		l.WithFields(logrus.Fields{"port": 23817, "id": "0f8fad5b-d9cb-469f-a165-70867728950e"}).Info("listening")
		if !strings.Contains(buf.String(), "port=23817") || !strings.Contains(buf.String(), "0f8fad5b-d9cb-469f-a165-70867728950e") {
			t.Fatalf("%s", buf.String())
		}
	})
}
