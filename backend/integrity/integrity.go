// Package integrity keeps the person's policy (settings, saved connections, tokens) out of
// other programs' reach (issue 44, item 2). An agent that finds a way to write a file in the
// config dir (a tool of another app, a shell it was given, a database statement that writes a
// file) could otherwise raise a token's level, turn authentication off or point a connection
// anywhere, as has happened to other clients whose policy lived where the agent could reach it.
//
// App seals each policy document it writes: a copy of the bytes and their HMAC-SHA256, under a
// key kept in the keyring (which files cannot reach), in policy-seal.json. A document whose
// bytes on disk are not what App last wrote is a foreign change: App keeps acting on its own
// last copy (config.Sealed makes every read see it), writes nothing over the change, and shows
// it to the person (the window's dialog at start, `app integrity`, the headless server's
// log), who accepts it (App seals what is on disk) or reverts it (App writes its copy back).
//
// The first time a config dir is sealed, what is there is trusted (there is nothing to compare
// it with); from then on the keyring remembers that the dir is sealed, so a seal file removed
// with the change is a finding too. Without a keyring nothing can be sealed: App then acts on
// the files as they are, as before, and says so.
package integrity

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"app/backend/config"
	"app/backend/secrets"
)

// File is the seal's own document in the config dir.
const File = "policy-seal.json"

// keyRef is the keyring entry of the sealing key; its presence says the dir was sealed.
const keyRef = "config/policySealKey"

// Seal seals the named documents of one config dir. It implements config.Sealer.
type Seal struct {
	dir   string
	keys  secrets.Keyring
	names []string
	doc   *config.JSONFile[document]
	now   func() time.Time

	mu  sync.Mutex
	key []byte
	// unsealable is why nothing can be sealed (no keyring), once known.
	unsealable error
	// cached is the seal document as last read, while its file is the same (every read of a
	// policy document consults it).
	cached      document
	cachedStamp config.Stamp
	haveCache   bool
}

type document struct {
	Files map[string]sealed `json:"files"`
}

// sealed is App's last version of one document: its bytes (nil and Exists false when App
// removed it or never wrote it) and their MAC.
type sealed struct {
	Exists bool      `json:"exists"`
	Copy   []byte    `json:"copy"`
	MAC    string    `json:"mac"`
	At     time.Time `json:"at"`
}

// New seals names (file names in dir) with a key kept in keys.
func New(dir string, keys secrets.Keyring, names ...string) *Seal {
	return &Seal{dir: dir, keys: keys, names: names, now: time.Now,
		doc: config.NewJSONFile(filepath.Join(dir, File), func() document { return document{Files: map[string]sealed{}} })}
}

// Names are the sealed documents.
func (s *Seal) Names() []string { return slices.Clone(s.names) }

// Finding is one document another program changed.
type Finding struct {
	// Name is the file's name in the config dir; Path its full path.
	Name string `json:"name"`
	Path string `json:"path"`
	// What happened: "changed", "removed", "added" (a file App never wrote), or "unsealed" (the
	// seal itself was removed, so App has no copy to compare with).
	What string `json:"what"`
	// CanRevert tells that App holds its own last version to write back.
	CanRevert bool `json:"canRevert"`
	// SealedAt is when App last wrote it (zero when unknown).
	SealedAt time.Time `json:"sealedAt,omitzero"`
}

// ErrNoKeyring is Check's error when there is no keyring to keep the key in.
var ErrNoKeyring = errors.New("the policy files cannot be sealed without a keyring: App acts on them as they are")

// errKeyLost is signingKey's answer when the dir was sealed but its key is gone or altered.
var errKeyLost = errors.New("the policy seal's key is gone from the keyring")

// errNotSealed is signingKey's answer when the dir was never sealed and create is false.
var errNotSealed = errors.New("the config dir was never sealed")

// signingKey is the sealing key; made is true when this call made it (the dir was never
// sealed before). Without create, a dir never sealed is errNotSealed.
func (s *Seal) signingKey(create bool) (key []byte, made bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.key != nil {
		return s.key, false, nil
	}
	if s.unsealable != nil {
		return nil, false, s.unsealable
	}
	if s.keys == nil {
		s.unsealable = ErrNoKeyring
		return nil, false, s.unsealable
	}
	v, err := s.keys.Get(keyRef)
	if err == nil {
		if k, derr := base64.RawURLEncoding.DecodeString(v); derr == nil && len(k) == 32 {
			s.key = k
			return k, false, nil
		}
		// An entry that is no key of ours is never written over: the seal is lost.
		return nil, false, errKeyLost
	} else if !errors.Is(err, secrets.ErrNotFound) {
		// Not remembered: a keyring not up yet (a session bus at login) may answer later.
		return nil, false, fmt.Errorf("%w (%v)", ErrNoKeyring, err)
	}
	if !create {
		return nil, false, errNotSealed
	}
	if d, err := s.doc.Load(context.Background()); err != nil || len(d.Files) > 0 {
		// The dir was sealed and its key is gone: making a new one would vouch for whatever
		// another program left. Only the person's accept does (Accept).
		return nil, false, errKeyLost
	}
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return nil, false, err
	}
	if err := s.keys.Set(keyRef, base64.RawURLEncoding.EncodeToString(k)); err != nil {
		s.unsealable = fmt.Errorf("%w (%v)", ErrNoKeyring, err)
		return nil, false, s.unsealable
	}
	s.key = k
	return k, true, nil
}

func mac(key []byte, name string, exists bool, data []byte) string {
	h := hmac.New(sha256.New, key)
	fmt.Fprintf(h, "%s\x00%t\x00", name, exists)
	h.Write(data)
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// valid tells a seal entry App wrote (its MAC matches its copy).
func (e sealed) valid(key []byte, name string) bool {
	return hmac.Equal([]byte(e.MAC), []byte(mac(key, name, e.Exists, e.Copy)))
}

// Start seals, on a config dir never sealed, every document as it is now (nothing to compare
// it with yet), so that from now on a change by another program is told apart. App calls it
// when it opens the dir, before anything reads the documents; the first Record does it too.
func (s *Seal) Start(ctx context.Context) error {
	_, err := s.ensure(ctx)
	if errors.Is(err, errKeyLost) {
		return nil // every document is a finding (Check), and nothing is vouched for
	}
	return err
}

// ensure is the sealing key, made (and every document sealed as it is) on first use.
func (s *Seal) ensure(ctx context.Context) ([]byte, error) {
	key, made, err := s.signingKey(true)
	if err != nil || !made {
		return key, err
	}
	return key, s.doc.Update(ctx, func(d *document) error { return s.sealAsIs(d, key, s.names...) })
}

// sealAsIs seals each of names in d as it is on disk now (absent ones as absent).
func (s *Seal) sealAsIs(d *document, key []byte, names ...string) error {
	if d.Files == nil {
		d.Files = map[string]sealed{}
	}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(s.dir, n))
		exists := err == nil
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		d.Files[n] = s.entry(key, n, exists, data)
	}
	return nil
}

// entry is the seal of one version of name.
func (s *Seal) entry(key []byte, name string, exists bool, data []byte) sealed {
	return sealed{Exists: exists, Copy: slices.Clone(data), MAC: mac(key, name, exists, data), At: s.now().UTC()}
}

// Record seals data as App's version of name (config.Sealer).
func (s *Seal) Record(name string, data []byte) error { return s.record(name, data, true) }

// Removed seals that App removed name (config.Sealer: an unreadable document moved aside).
func (s *Seal) Removed(name string) error { return s.record(name, nil, false) }

func (s *Seal) record(name string, data []byte, exists bool) error {
	key, err := s.ensure(context.Background())
	if err != nil {
		return nil // nothing can be sealed; Check says so
	}
	return s.doc.Update(context.Background(), func(d *document) error {
		if d.Files == nil {
			d.Files = map[string]sealed{}
		}
		d.Files[name] = s.entry(key, name, exists, data)
		return nil
	})
}

// Version is the seal file's version (config.Sealer).
func (s *Seal) Version() os.FileInfo {
	st, err := os.Stat(filepath.Join(s.dir, File))
	if err != nil {
		return nil
	}
	return st
}

// current is the seal document, read again only when its file changed.
func (s *Seal) current() document {
	st := s.doc.Stamp()
	s.mu.Lock()
	if s.haveCache && st.Same(s.cachedStamp) {
		d := s.cached
		s.mu.Unlock()
		return d
	}
	s.mu.Unlock()
	d, err := s.doc.Load(context.Background())
	if err != nil {
		// An unreadable seal vouches for nothing, but one read before still does (a read that
		// failed once must not close everything for a moment).
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.haveCache {
			return s.cached
		}
		return document{}
	}
	s.mu.Lock()
	s.cached, s.cachedStamp, s.haveCache = d, st, true
	s.mu.Unlock()
	return d
}

// Trusted is config.Sealer's: what is on disk when App wrote it, else App's own last copy, or
// (nothing vouched for) not Known.
func (s *Seal) Trusted(name string, data []byte, exists bool) config.Verdict {
	f, e, ok := s.judge(name, data, exists)
	if !ok || f == nil {
		return config.Verdict{Data: data, Exists: exists, Known: true}
	}
	if !f.CanRevert {
		return config.Verdict{Foreign: true}
	}
	return config.Verdict{Data: e.Copy, Exists: e.Exists, Foreign: true, Known: true}
}

// judge compares name's bytes on disk with the seal: a finding (nil when they agree) and
// App's entry; ok is false when nothing can be judged (no keyring).
func (s *Seal) judge(name string, data []byte, exists bool) (*Finding, sealed, bool) {
	key, _, err := s.signingKey(false)
	d := s.current()
	f := &Finding{Name: name, Path: filepath.Join(s.dir, name)}
	if err != nil {
		if len(d.Files) == 0 && !errors.Is(err, errKeyLost) {
			return nil, sealed{}, false // never sealed, or nothing to seal with: as before
		}
		// Sealed before, and its key is gone or out of reach: nothing can be vouched for.
		if !exists {
			return nil, sealed{}, true
		}
		f.What = "unsealed"
		return f, sealed{}, true
	}
	e, have := d.Files[name]
	switch {
	case !have || !e.valid(key, name):
		// App holds no version of its own (the seal was removed or altered).
		if !exists {
			return nil, sealed{}, true
		}
		f.What = "unsealed"
		return f, e, true
	case e.Exists == exists && bytes.Equal(e.Copy, data):
		return nil, e, true
	}
	f.CanRevert, f.SealedAt = true, e.At
	switch {
	case !exists:
		f.What = "removed"
	case !e.Exists:
		f.What = "added"
	default:
		f.What = "changed"
	}
	return f, e, true
}

// Check lists the documents another program changed since App last wrote them. Without a
// keyring it returns ErrNoKeyring.
func (s *Seal) Check(ctx context.Context) ([]Finding, error) {
	if _, _, err := s.signingKey(false); err != nil && len(s.current().Files) == 0 && !errors.Is(err, errKeyLost) {
		if errors.Is(err, errNotSealed) {
			return nil, nil // nothing was sealed yet: nothing to compare with
		}
		return nil, err
	}
	var out []Finding
	for _, n := range s.names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		data, err := os.ReadFile(filepath.Join(s.dir, n))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		if f, _, _ := s.judge(n, data, err == nil); f != nil {
			out = append(out, *f)
		}
	}
	return out, nil
}

// Accept makes the document on disk App's own: it is sealed as it is.
func (s *Seal) Accept(ctx context.Context, name string) error {
	if !slices.Contains(s.names, name) {
		return fmt.Errorf("%s is not one of the sealed files (%v)", name, s.names)
	}
	// Under the document's own lock, so that no write of App's falls between the read and the
	// seal.
	unlock, err := config.LockDocument(ctx, filepath.Join(s.dir, name))
	if err != nil {
		return err
	}
	defer unlock()
	key, err := s.ensure(ctx)
	if errors.Is(err, errKeyLost) {
		// The person accepts what is there: a new key, and every document sealed as it is
		// (none of them could be vouched for).
		return s.reseal(ctx)
	}
	if err != nil {
		return err
	}
	return s.doc.Update(ctx, func(d *document) error { return s.sealAsIs(d, key, name) })
}

// reseal makes a new key and seals every document as it is.
func (s *Seal) reseal(ctx context.Context) error {
	if s.keys == nil {
		return ErrNoKeyring
	}
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return err
	}
	if err := s.keys.Set(keyRef, base64.RawURLEncoding.EncodeToString(k)); err != nil {
		return fmt.Errorf("%w (%v)", ErrNoKeyring, err)
	}
	s.mu.Lock()
	s.key = k
	s.mu.Unlock()
	return s.doc.Update(ctx, func(d *document) error {
		d.Files = nil // entries under the lost key vouch for nothing
		return s.sealAsIs(d, k, s.names...)
	})
}

// Revert writes App's own last version back over another program's change (or removes a
// file App never wrote).
func (s *Seal) Revert(ctx context.Context, name string) error {
	if !slices.Contains(s.names, name) {
		return fmt.Errorf("%s is not one of the sealed files (%v)", name, s.names)
	}
	unlock, err := config.LockDocument(ctx, filepath.Join(s.dir, name))
	if err != nil {
		return err
	}
	defer unlock()
	data, err := os.ReadFile(filepath.Join(s.dir, name))
	exists := err == nil
	f, e, ok := s.judge(name, data, exists)
	switch {
	case !ok:
		return ErrNoKeyring
	case f == nil:
		return nil
	case !f.CanRevert:
		return fmt.Errorf("there is no version of %s of App's own to write back (the seal was removed): accept it, or fix it by hand", name)
	}
	path := filepath.Join(s.dir, name)
	if !e.Exists {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	return config.WriteFileAtomic(path, e.Copy)
}
