package integrity_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"app/backend/config"
	"app/backend/integrity"
	"app/backend/secrets"
)

type doc struct {
	RequireAuth bool   `json:"requireAuth"`
	Level       string `json:"level"`
}

// rig is a config dir with one sealed document, written through config.JSONFile as App writes
// its policy, and a real (file) keyring.
type rig struct {
	dir  string
	keys secrets.Keyring
	seal *integrity.Seal
	file *config.JSONFile[doc]
}

func newRig(t *testing.T) *rig {
	t.Helper()
	dir := t.TempDir()
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(dir, "keyring")})
	if err != nil {
		t.Fatal(err)
	}
	return reopen(t, dir, keys)
}

// reopen is the same dir as another run of App sees it.
func reopen(t *testing.T, dir string, keys secrets.Keyring) *rig {
	t.Helper()
	s := integrity.New(dir, keys, "policy.json")
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return &rig{dir: dir, keys: keys, seal: s, file: config.NewJSONFile(filepath.Join(dir, "policy.json"), func() doc { return doc{RequireAuth: true} }, config.Sealed(s))}
}

func (r *rig) write(t *testing.T, d doc) {
	t.Helper()
	if err := r.file.Update(context.Background(), func(v *doc) error { *v = d; return nil }); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) load(t *testing.T) doc {
	t.Helper()
	d, err := r.file.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// foreign is another program's write.
func (r *rig) foreign(t *testing.T, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(r.dir, "policy.json"), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) findings(t *testing.T) []integrity.Finding {
	t.Helper()
	f, err := r.seal.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestAChangeByAnotherProgramHasNoEffectUntilThePersonAcceptsIt(t *testing.T) {
	r := newRig(t)
	r.write(t, doc{RequireAuth: true, Level: "readOnly"})
	r.foreign(t, `{"requireAuth": false, "level": "fullAccess"}`)

	if got := r.load(t); !got.RequireAuth || got.Level != "readOnly" {
		t.Fatalf("App acts on the foreign change: %+v", got)
	}
	f := r.findings(t)
	if len(f) != 1 || f[0].Name != "policy.json" || f[0].What != "changed" || !f[0].CanRevert {
		t.Fatalf("findings %+v", f)
	}
	// App writes nothing over it.
	err := r.file.Update(context.Background(), func(v *doc) error { v.Level = "readWrite"; return nil })
	var fe *config.ForeignChangeError
	if !errorsAs(err, &fe) {
		t.Fatalf("a write over the foreign change: %v", err)
	}
	// Another run of App sees the same.
	if got := reopen(t, r.dir, r.keys).load(t); got.Level != "readOnly" {
		t.Fatalf("after a restart: %+v", got)
	}
	if err := r.seal.Accept(context.Background(), "policy.json"); err != nil {
		t.Fatal(err)
	}
	if got := r.load(t); got.RequireAuth || got.Level != "fullAccess" || len(r.findings(t)) != 0 {
		t.Fatalf("accepted, and App does not act on it: %+v %+v", got, r.findings(t))
	}
}

func TestRevertWritesAppsOwnVersionBack(t *testing.T) {
	r := newRig(t)
	r.write(t, doc{RequireAuth: true, Level: "readOnly"})
	want, _ := os.ReadFile(filepath.Join(r.dir, "policy.json"))
	r.foreign(t, `not even JSON`)
	if err := r.seal.Revert(context.Background(), "policy.json"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(r.dir, "policy.json"))
	if string(got) != string(want) || len(r.findings(t)) != 0 {
		t.Fatalf("reverted to %q, want %q; findings %+v", got, want, r.findings(t))
	}
}

func TestARemovedDocumentIsAFindingAndAppKeepsItsCopy(t *testing.T) {
	r := newRig(t)
	r.write(t, doc{RequireAuth: true, Level: "readWrite"})
	if err := os.Remove(filepath.Join(r.dir, "policy.json")); err != nil {
		t.Fatal(err)
	}
	if got := r.load(t); got.Level != "readWrite" {
		t.Fatalf("%+v", got)
	}
	if f := r.findings(t); len(f) != 1 || f[0].What != "removed" {
		t.Fatalf("%+v", f)
	}
}

func TestARemovedSealIsAFindingAndTheDocumentIsNotTrusted(t *testing.T) {
	r := newRig(t)
	r.write(t, doc{RequireAuth: true, Level: "readOnly"})
	r.foreign(t, `{"requireAuth": false, "level": "fullAccess"}`)
	if err := os.Remove(filepath.Join(r.dir, integrity.File)); err != nil {
		t.Fatal(err)
	}
	r2 := reopen(t, r.dir, r.keys)
	f := r2.findings(t)
	if len(f) != 1 || f[0].What != "unsealed" || f[0].CanRevert {
		t.Fatalf("%+v", f)
	}
	// Nothing of it is trusted: App's defaults are in force.
	if got := r2.load(t); !got.RequireAuth || got.Level != "" {
		t.Fatalf("App acts on an unsealed document: %+v", got)
	}
}

func TestASealAlteredByAnotherProgramIsNotTrusted(t *testing.T) {
	r := newRig(t)
	r.write(t, doc{RequireAuth: true, Level: "readOnly"})
	// The copy in the seal changed, and the document to match: the MAC gives it away.
	r.foreign(t, `{"requireAuth": false}`)
	var forged = []byte(`{"files":{"policy.json":{"exists":true,"copy":"eyJyZXF1aXJlQXV0aCI6IGZhbHNlfQ==","mac":"x"}}}`)
	if err := os.WriteFile(filepath.Join(r.dir, integrity.File), forged, 0o600); err != nil {
		t.Fatal(err)
	}
	r2 := reopen(t, r.dir, r.keys)
	if f := r2.findings(t); len(f) != 1 || f[0].What != "unsealed" {
		t.Fatalf("%+v", f)
	}
	if got := r2.load(t); !got.RequireAuth {
		t.Fatalf("App acts on a forged seal: %+v", got)
	}
}

func TestAFreshDirIsSealedAsItIs(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "policy.json"), []byte(`{"level":"readWrite"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(dir, "keyring")})
	if err != nil {
		t.Fatal(err)
	}
	r := reopen(t, dir, keys)
	if got := r.load(t); got.Level != "readWrite" || len(r.findings(t)) != 0 {
		t.Fatalf("%+v %+v", got, r.findings(t))
	}
}

func TestWithoutAKeyringTheDocumentsAreReadAsTheyAre(t *testing.T) {
	dir := t.TempDir()
	s := integrity.New(dir, nil, "policy.json")
	if err := s.Start(context.Background()); err == nil {
		t.Fatal("sealed without a keyring")
	}
	f := config.NewJSONFile(filepath.Join(dir, "policy.json"), func() doc { return doc{} }, config.Sealed(s))
	if err := f.Update(context.Background(), func(v *doc) error { v.Level = "readOnly"; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Check(context.Background()); err == nil {
		t.Fatal("Check says nothing of the missing keyring")
	}
}

func errorsAs(err error, target **config.ForeignChangeError) bool { return errors.As(err, target) }

// The review's holes: a seal entry removed reads as the document's closed value, not its
// default; a key removed from the keyring is never made again on its own (that would vouch for
// whatever is on disk): everything is a finding until the person accepts, which seals anew.
func TestALostSealOrKeyVouchesForNothing(t *testing.T) {
	r := newRig(t)
	r.write(t, doc{RequireAuth: true, Level: "readOnly"})
	closed := func() doc { return doc{RequireAuth: true, Level: "closed"} }
	if err := r.keys.Delete("config/policySealKey"); err != nil {
		t.Fatal(err)
	}
	r.foreign(t, `{"requireAuth": false, "level": "fullAccess"}`)
	r2 := reopen(t, r.dir, r.keys)
	r2.file.Untrusted(closed)
	if got := r2.load(t); got.Level != "closed" {
		t.Fatalf("with the key gone App acts on %+v", got)
	}
	if f := r2.findings(t); len(f) != 1 || f[0].What != "unsealed" {
		t.Fatalf("findings %+v", f)
	}
	if _, err := r2.keys.Get("config/policySealKey"); err == nil {
		t.Fatal("a new key was made on its own")
	}
	if err := r2.seal.Accept(context.Background(), "policy.json"); err != nil {
		t.Fatal(err)
	}
	if got := r2.load(t); got.Level != "fullAccess" || len(r2.findings(t)) != 0 {
		t.Fatalf("accepted: %+v %+v", got, r2.findings(t))
	}
}
