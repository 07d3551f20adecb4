package logging

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNew(t *testing.T) {
	t.Run("headless logs go to stderr", func(t *testing.T) {
		var buf bytes.Buffer
		log, closeFn, err := New(Options{Headless: true, Stderr: &buf})
		if err != nil {
			t.Fatal(err)
		}
		defer closeFn()
		log.Info("hello headless")
		if !strings.Contains(buf.String(), "hello headless") {
			t.Fatalf("stderr got %q", buf.String())
		}
	})
	t.Run("desktop logs go to a file in the config dir", func(t *testing.T) {
		dir := t.TempDir()
		log, closeFn, err := New(Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		log.Info("hello desktop")
		_ = closeFn()
		data, err := os.ReadFile(filepath.Join(dir, "logs", "app.log"))
		if err != nil || !strings.Contains(string(data), "hello desktop") {
			t.Fatalf("log file: %q, %v", data, err)
		}
	})
	t.Run("an unknown level is refused with the choices", func(t *testing.T) {
		if _, _, err := New(Options{Headless: true, Level: "loud"}); err == nil || !strings.Contains(err.Error(), "debug") {
			t.Fatalf("got %v", err)
		}
	})
}
