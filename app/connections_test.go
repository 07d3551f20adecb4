package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"app/app/dto"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/secrets"
)

// newStore is a real connections store in a temp config dir, with the encrypted-file
// keyring that CI and headless machines use.
func newStore(t *testing.T) (*connections.Store, string) {
	t.Helper()
	dir := t.TempDir()
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(dir, "keyring")})
	if err != nil {
		t.Fatalf("open keyring: %v", err)
	}
	return connections.NewStore(dir, keys), dir
}

func add(t *testing.T, s *connections.Store, c connections.Connection, key string) connections.Connection {
	t.Helper()
	saved, err := s.Add(context.Background(), c, key)
	if err != nil {
		t.Fatalf("add %q: %v", c.Name, err)
	}
	return saved
}

// codeShape is the `code: message` text the frontend parses (frontend/src/api/errors.ts).
var codeShape = regexp.MustCompile(`^([a-z][a-z0-9_]*): (\S.*)$`)

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want code %q", code)
	}
	m := codeShape.FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("error %q does not have the `code: message` shape", err)
	}
	if m[1] != code {
		t.Fatalf("error %q has code %q, want %q", err, m[1], code)
	}
}

func TestConnectionsList(t *testing.T) {
	t.Run("an empty store lists as [] not null", func(t *testing.T) {
		s, _ := newStore(t)
		got, err := NewConnectionsAPI(s).List()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(got)
		if string(b) != "[]" {
			t.Fatalf("List() JSON = %s, want []", b)
		}
	})

	t.Run("each saved connection becomes a DTO with name, type, host and port, in saved order", func(t *testing.T) {
		s, _ := newStore(t)
		local := add(t, s, connections.Connection{Type: "weaviate", Name: "Local", Settings: driver.Settings{Host: "127.0.0.1", Port: 8080}}, "")
		cloud := add(t, s, connections.Connection{
			Name: "Cloud", Type: "weaviate", ExternalAccess: connections.AccessReadOnly,
			Settings: driver.Settings{Host: "[::1]", Port: 443, AuthMethod: driver.AuthAPIKey, SSLMode: driver.SSLRequired, SkipTLSVerify: true},
		}, "sekrit-key-value")

		got, err := NewConnectionsAPI(s).List()
		if err != nil {
			t.Fatal(err)
		}
		want := []dto.ConnectionDTO{
			{ID: local.ID, Name: "Local", Type: "weaviate", Host: "127.0.0.1", Port: 8080, AuthMethod: "None", SSLMode: "Disabled",
				ExternalAccess: connections.DefaultExternalAccess, CreatedAt: local.CreatedAt.UTC().Format(time.RFC3339), Address: "127.0.0.1:8080",
				Settings: []dto.SettingRowDTO{{Label: "Auth Method", Value: "None"}, {Label: "SSL Mode", Value: "Disabled"}, {Label: "Skip TLS Verification", Value: "Off"}}},
			{ID: cloud.ID, Name: "Cloud", Type: "weaviate", Host: "::1", Port: 443, AuthMethod: "API Key", SSLMode: "Required",
				SkipTLSVerify: true, ExternalAccess: "readOnly", CreatedAt: cloud.CreatedAt.UTC().Format(time.RFC3339), Address: "[::1]:443",
				Settings: []dto.SettingRowDTO{{Label: "Auth Method", Value: "API Key"}, {Label: "API Key", Value: "saved in the keyring"}, {Label: "SSL Mode", Value: "Required"}, {Label: "Skip TLS Verification", Value: "On"}}},
		}
		if len(got) != len(want) {
			t.Fatalf("List() = %d connections, want %d", len(got), len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("List()[%d] =\n  %+v\nwant\n  %+v", i, got[i], want[i])
			}
		}
	})

	t.Run("the API key never reaches the frontend", func(t *testing.T) {
		s, _ := newStore(t)
		add(t, s, connections.Connection{Type: "weaviate", Name: "Cloud", Settings: driver.Settings{Host: "h", Port: 443, AuthMethod: driver.AuthAPIKey, SSLMode: driver.SSLRequired}}, "sekrit-key-value")
		got, err := NewConnectionsAPI(s).List()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(got)
		if strings.Contains(string(b), "sekrit") {
			t.Fatalf("List() JSON carries the API key: %s", b)
		}
	})

	t.Run("a store that cannot be read is an internal error with the code shape", func(t *testing.T) {
		s, dir := newStore(t)
		// A corrupted file is recovered (kept as .bak, the list starts empty); a path that is
		// not a file at all cannot be read.
		if err := os.Mkdir(filepath.Join(dir, "connections.json"), 0o700); err != nil {
			t.Fatal(err)
		}
		_, err := NewConnectionsAPI(s).List()
		wantCode(t, err, CodeInternal)
	})
}

// answering stands in for the native dialog (which tests/desktop answers for real in the
// window): it records each question and gives the answer it was told.
type answering struct {
	yes       bool
	questions []string
	// timed records, per question, whether it was asked under a deadline.
	timed []bool
}

func (a *answering) Confirm(ctx context.Context, title, message string) (bool, error) {
	a.questions = append(a.questions, title+": "+message)
	_, deadline := ctx.Deadline()
	a.timed = append(a.timed, deadline)
	return a.yes, nil
}

func TestConnectionsRemove(t *testing.T) {
	s, _ := newStore(t)
	a := add(t, s, connections.Connection{Type: "weaviate", Name: "A", Settings: driver.Settings{Host: "localhost", Port: 8080}}, "")
	b := add(t, s, connections.Connection{Type: "weaviate", Name: "B", Settings: driver.Settings{Host: "localhost", Port: 8081}}, "")
	api := NewConnectionsAPI(s)
	dialog := &answering{}
	api.start(env{confirm: dialog})

	t.Run("a declined confirmation deletes nothing", func(t *testing.T) {
		removed, err := api.Remove(a.ID)
		if err != nil || removed {
			t.Fatalf("Remove = %v, %v", removed, err)
		}
		if got, _ := api.List(); len(got) != 2 {
			t.Fatalf("List() = %+v, want both", got)
		}
		if len(dialog.questions) != 1 || !strings.Contains(dialog.questions[0], "\u201cA\u201d (localhost:8080)") {
			t.Fatalf("the dialog asked %q, want it to name the connection", dialog.questions)
		}
	})
	t.Run("removing by id after a yes leaves the others", func(t *testing.T) {
		dialog.yes = true
		removed, err := api.Remove(a.ID)
		if err != nil || !removed {
			t.Fatalf("Remove = %v, %v", removed, err)
		}
		got, err := api.List()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].ID != b.ID {
			t.Fatalf("after Remove(A) List() = %+v, want only B", got)
		}
	})

	cases := []struct {
		name, id, code string
	}{
		{"an unknown id is not_found", "no-such-id", CodeNotFound},
		{"an id already removed is not_found", a.ID, CodeNotFound},
		{"an empty id is invalid_argument", "  ", CodeInvalidArgument},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := api.Remove(c.id)
			wantCode(t, err, c.code)
		})
	}
}

// recordingEmitter stands in for the Wails runtime, which needs a running window.
type recordingEmitter struct {
	mu     sync.Mutex
	events []string
}

func (r *recordingEmitter) Emit(name string, _ ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, name)
}

func (r *recordingEmitter) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.events)
}

func TestConnectionsChangedEvent(t *testing.T) {
	t.Run("a connection saved elsewhere (the CLI) while the window is open emits connections:changed", func(t *testing.T) {
		s, _ := newStore(t)
		api := NewConnectionsAPI(s)
		rec := &recordingEmitter{}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { api.watch(ctx, 20*time.Millisecond, rec); close(done) }()
		t.Cleanup(func() { cancel(); <-done })

		time.Sleep(60 * time.Millisecond)
		if n := rec.count(); n != 0 {
			t.Fatalf("%d events before any change, want 0", n)
		}
		add(t, s, connections.Connection{Type: "weaviate", Name: "New", Settings: driver.Settings{Host: "localhost", Port: 8080}}, "")
		deadline := time.Now().Add(5 * time.Second)
		for rec.count() == 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if rec.count() == 0 {
			t.Fatal("no connections:changed event within 5s of a change")
		}
		rec.mu.Lock()
		defer rec.mu.Unlock()
		if rec.events[0] != EventConnectionsChanged {
			t.Fatalf("event %q, want %q", rec.events[0], EventConnectionsChanged)
		}
	})
}
