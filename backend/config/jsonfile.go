package config

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"
	"github.com/sirupsen/logrus"
)

// JSONFile is one JSON document on disk shared by several processes (the desktop app, the
// headless server, CLI commands). Reads see a complete document because writes go to a temp
// file that is renamed over the old one; read-modify-write cycles are serialised by an
// advisory lock on a sibling ".lock" file so that two writers never lose each other's change.
type JSONFile[T any] struct {
	path string
	// def builds the value used when the file does not exist yet.
	def func() T
	// untrusted builds the value of a sealed document nothing of which can be vouched for.
	untrusted func() T
	opts      fileOptions

	mu sync.Mutex
	// problem is the last undecodable document this value recovered from (RecoverCorrupt).
	problem *CorruptFileError

	// cache keeps the last document Load read, when Cached asked for it (nil otherwise).
	cache *loadCache[T]
}

// FileOption changes how a JSONFile treats its document.
type FileOption func(*fileOptions)

type fileOptions struct {
	recover bool
	log     logrus.FieldLogger
	seal    Sealer
}

// Sealer keeps a document App writes out of other programs' reach (issue 44): what App acts
// on is what App itself last wrote. backend/integrity implements it.
type Sealer interface {
	// Trusted is the document App may act on, given what is on disk (data; exists false when
	// there is no file).
	Trusted(name string, data []byte, exists bool) Verdict
	// Record is told of each document App writes, under the document's lock.
	Record(name string, data []byte) error
	// Removed is told of a document App removed (an unreadable one moved aside).
	Removed(name string) error
	// Version is the seal's own file version (nil when there is none).
	Version() os.FileInfo
}

// Verdict is a Sealer's word on a document: Data (Exists false: no document) is what App may
// act on. Foreign tells that it is not what is on disk; Known that App holds a version of its
// own (when not, nothing of the document can be vouched for, and the document's Untrusted
// value is used).
type Verdict struct {
	Data                   []byte
	Exists, Foreign, Known bool
}

// ForeignChangeError refuses a write over a document another program changed: what App
// would write builds on a change the person has not accepted.
type ForeignChangeError struct{ Path string }

func (e *ForeignChangeError) Error() string {
	return fmt.Sprintf("%s was changed by another program: App keeps acting on its own last version and writes nothing over it until you accept or revert the change (in App, or with: app integrity)", e.Path)
}

// Sealed makes the document's reads see what s trusts and its writes recorded by s; a write
// over a foreign change is refused (*ForeignChangeError).
func Sealed(s Sealer) FileOption { return func(o *fileOptions) { o.seal = s } }

// RecoverCorrupt makes a document that cannot be decoded read as the default instead of
// failing every read: its bytes are kept as "<name>.bak" (".bak.1", ".bak.2", ... when that
// exists), the file is removed, a warning names the file and the reason, and Problem returns
// the same error. It is for documents whose loss costs the user some choices but whose refusal
// would keep the app from starting (settings, saved connections); a document that grants
// rights (tokens) should rather fail closed. The broken file is never written over unless its
// copy was kept.
func RecoverCorrupt() FileOption { return func(o *fileOptions) { o.recover = true } }

// LogTo sends the file's warnings to log; without it they go to stderr.
func LogTo(log logrus.FieldLogger) FileOption { return func(o *fileOptions) { o.log = log } }

// NewJSONFile returns the document at path; def gives its value before the first write.
func NewJSONFile[T any](path string, def func() T, opts ...FileOption) *JSONFile[T] {
	f := &JSONFile[T]{path: path, def: def}
	for _, o := range opts {
		o(&f.opts)
	}
	return f
}

// Path is where the document lives.
func (f *JSONFile[T]) Path() string { return f.path }

// Load reads the document, or returns the default when it does not exist. With
// RecoverCorrupt, an undecodable document also reads as the default (see there); when not even
// a copy of it can be kept, the file is left alone and the default is used all the same, so
// that the app still starts.
func (f *JSONFile[T]) Load(ctx context.Context) (T, error) {
	var v T
	if err := ctx.Err(); err != nil {
		return v, err
	}
	var err error
	if f.cache != nil {
		v, err = f.loadCached()
	} else {
		v, _, err = f.read()
	}
	var bad *CorruptFileError
	if !f.opts.recover || !errors.As(err, &bad) {
		return v, err
	}
	// Moved aside under the lock, so that no other process's write is lost in between.
	unlock, err := f.lock(ctx)
	if err != nil {
		bad.KeepErr = err
		f.report(bad)
		return f.def(), nil
	}
	defer unlock()
	v, err = f.readRecovering()
	if errors.As(err, &bad) {
		return v, nil // reported; the file is left alone
	}
	return v, err
}

// Problem is the last undecodable document this value recovered from (a *CorruptFileError
// naming the file, why it could not be read and where its bytes were kept), or nil.
func (f *JSONFile[T]) Problem() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.problem == nil {
		return nil
	}
	return f.problem
}

// Update runs fn on the current document under the lock and writes the result atomically.
// When fn returns an error nothing is written.
func (f *JSONFile[T]) Update(ctx context.Context, fn func(*T) error) error {
	unlock, err := f.lock(ctx)
	if err != nil {
		return fmt.Errorf("save %s: %w", f.path, err)
	}
	defer unlock()

	if f.opts.seal != nil {
		if _, _, foreign, _ := f.readTrusted(); foreign {
			return &ForeignChangeError{Path: f.path}
		}
	}
	v, err := f.readRecovering()
	var bad *CorruptFileError
	if errors.As(err, &bad) && bad.KeepErr != nil {
		return fmt.Errorf("save %s: not saved, so as not to lose the unreadable file: %w", f.path, err)
	}
	if err != nil {
		return err
	}
	if err := fn(&v); err != nil {
		return err
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", filepath.Base(f.path), err)
	}
	data = append(data, '\n')
	if err := WriteFileAtomic(f.path, data); err != nil {
		return err
	}
	if f.opts.seal != nil {
		if err := f.opts.seal.Record(filepath.Base(f.path), data); err != nil {
			return fmt.Errorf("seal %s: %w", filepath.Base(f.path), err)
		}
	}
	return nil
}

// lock takes the advisory lock that serialises the writers of the document.
func (f *JSONFile[T]) lock(ctx context.Context) (unlock func(), err error) {
	return LockDocument(ctx, f.path)
}

// LockDocument takes the lock that serialises the writers of the document at path (its
// JSONFile's): for a writer that is not the JSONFile (the policy seal's accept and revert).
func LockDocument(ctx context.Context, path string) (unlock func(), err error) {
	l := flock.New(path + ".lock")
	ok, err := l.TryLockContext(ctx, 20*time.Millisecond)
	if err != nil {
		return nil, fmt.Errorf("cannot take the lock %s: %w", l.Path(), bareErr(err))
	}
	if !ok {
		return nil, fmt.Errorf("cannot take the lock %s", l.Path())
	}
	_ = os.Chmod(l.Path(), 0o600)
	return func() { _ = l.Unlock() }, nil
}

// Stamp identifies one version of the document, so a running app can notice a change made by
// the CLI. Every write replaces the file (temp file + rename), so a changed inode, time or size
// means a new version: comparing the time alone misses two writes within one step of the file
// system's clock (a few milliseconds here).
//
// A sealed document's version is also its seal's: accepting or reverting another program's
// change is a new version of what App acts on.
type Stamp struct{ fi, seal os.FileInfo }

// Stamp is the document's current version (the zero Stamp when it does not exist).
func (f *JSONFile[T]) Stamp() Stamp {
	var s Stamp
	if st, err := os.Stat(f.path); err == nil {
		s.fi = st
	}
	if f.opts.seal != nil {
		s.seal = f.opts.seal.Version()
	}
	return s
}

// Same reports whether two stamps name the same version of the file.
func (s Stamp) Same(o Stamp) bool {
	return SameFileVersion(s.fi, o.fi) && SameFileVersion(s.seal, o.seal)
}

// SameFileVersion is the one rule for "this file has not changed" between two stats of a file
// that is only ever replaced whole (nil: the file did not exist).
func SameFileVersion(a, b os.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.ModTime().Equal(b.ModTime()) && a.Size() == b.Size()
}

// read returns the document, or the default when it does not exist. A document that is not
// the JSON of a T is a *CorruptFileError, returned with its bytes.
func (f *JSONFile[T]) read() (T, []byte, error) {
	v, data, _, err := f.readTrusted()
	return v, data, err
}

// readTrusted is read that also tells a foreign change (Sealed): the value is then App's own
// last version of the document.
func (f *JSONFile[T]) readTrusted() (T, []byte, bool, error) {
	data, exists, err := readDocument(f.path)
	if err != nil {
		var v T
		return v, nil, false, err
	}
	return f.judge(data, exists, f.decode)
}

// readDocument is the bytes of the document at path; exists is false when there is no file.
func readDocument(path string) (data []byte, exists bool, err error) {
	data, err = os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, false, fmt.Errorf("read %s: %w", path, err)
	}
	return data, err == nil, nil
}

// judge is the document of what is on disk (data; exists false when there is no file), as
// the seal lets App act on it (Sealed), decoded by decode; foreign tells a foreign change.
func (f *JSONFile[T]) judge(data []byte, exists bool, decode func([]byte, bool) (T, []byte, error)) (T, []byte, bool, error) {
	foreign := false
	if f.opts.seal != nil {
		v := f.opts.seal.Trusted(filepath.Base(f.path), data, exists)
		data, exists, foreign = v.Data, v.Exists, v.Foreign
		if foreign && !v.Known && f.untrusted != nil {
			return f.untrusted(), nil, true, nil
		}
	}
	v, data, err := decode(data, exists)
	return v, data, foreign, err
}

// Untrusted sets the value a sealed document reads as when nothing of it can be vouched for
// (the seal lost, or its key): the most closed one, not the default. It returns f.
func (f *JSONFile[T]) Untrusted(v func() T) *JSONFile[T] {
	f.untrusted = v
	return f
}

// decode is the document of data, the default when there is none.
func (f *JSONFile[T]) decode(data []byte, exists bool) (T, []byte, error) {
	if !exists {
		return f.def(), nil, nil
	}
	v := f.def()
	if err := json.Unmarshal(data, &v); err != nil {
		return v, data, &CorruptFileError{Path: f.path, Reason: describeDecodeError(data, err), Err: err}
	}
	return v, data, nil
}

// readRecovering is read for a caller that holds the lock. With RecoverCorrupt an undecodable
// document is moved aside and reads as the default; when its copy cannot be kept, the
// *CorruptFileError is returned and the file must not be written over.
func (f *JSONFile[T]) readRecovering() (T, error) {
	v, data, err := f.read()
	var bad *CorruptFileError
	if !f.opts.recover || !errors.As(err, &bad) {
		return v, err
	}
	bad.Backup, bad.KeepErr = moveAside(f.path, data)
	if bad.KeepErr == nil && f.opts.seal != nil {
		if err := f.opts.seal.Removed(filepath.Base(f.path)); err != nil {
			bad.KeepErr = err
		}
	}
	f.report(bad)
	if bad.KeepErr != nil {
		return f.def(), bad
	}
	return f.def(), nil
}

// report logs a recovery once (a file that cannot be moved aside is met on every read) and
// keeps it for Problem.
func (f *JSONFile[T]) report(e *CorruptFileError) {
	f.mu.Lock()
	again := f.problem != nil && f.problem.Error() == e.Error()
	f.problem = e
	f.mu.Unlock()
	if again {
		return
	}
	log := f.opts.log
	if log == nil {
		log = logrus.New() // stderr; only on this rare path, so no logger is kept around
	}
	log.Warn(e.Error())
}

// CorruptFileError is a document that is not the JSON its reader expects. Its message names
// the file and the reason but never quotes the content.
type CorruptFileError struct {
	// Path is the document.
	Path string
	// Reason says what is wrong, without the file's content.
	Reason string
	// Err is the decoder's error (its message may quote the content: do not show it).
	Err error
	// Backup is where the document's bytes were kept before it was removed ("" when not).
	Backup string
	// KeepErr is why no copy could be kept; the file was then left as it is.
	KeepErr error
}

func (e *CorruptFileError) Error() string {
	switch {
	case e.Backup != "":
		return fmt.Sprintf("%s could not be read (%s): it was kept as %s and the defaults are used instead", e.Path, e.Reason, e.Backup)
	case e.KeepErr != nil:
		return fmt.Sprintf("%s could not be read (%s) and no copy of it could be kept (%v): the file is left as it is and the defaults are used until it is fixed or removed", e.Path, e.Reason, e.KeepErr)
	default:
		return fmt.Sprintf("%s is not valid JSON (%s): fix or remove the file", e.Path, e.Reason)
	}
}

// Unwrap gives the decoder's error and why no copy could be kept.
func (e *CorruptFileError) Unwrap() []error {
	var errs []error
	for _, err := range []error{e.Err, e.KeepErr} {
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// describeDecodeError says why data is not the expected JSON without quoting it: a syntax
// error's message holds the offending character, and a type error's the offending number.
func describeDecodeError(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return "the file is empty"
	case errors.As(err, &syn) && strings.HasPrefix(syn.Error(), "unexpected end"):
		return fmt.Sprintf("the JSON ends early, at byte %d: truncated?", syn.Offset)
	case errors.As(err, &syn):
		return fmt.Sprintf("invalid JSON at byte %d", syn.Offset)
	case errors.As(err, &typ):
		got, _, _ := strings.Cut(typ.Value, " ")
		if typ.Field != "" {
			return fmt.Sprintf("%q holds a JSON %s where %s is expected", typ.Field, got, jsonKind(typ.Type))
		}
		return fmt.Sprintf("it holds a JSON %s where %s is expected", got, jsonKind(typ.Type))
	default:
		return "a value is not in the expected format"
	}
}

// jsonKind names the JSON value that decodes into t.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	default:
		return "another value"
	}
}

// maxBackups bounds the search for a free backup name, so that a directory full of them ends
// in an error rather than a long loop.
const maxBackups = 1000

// moveAside keeps data (the bytes of the undecodable file at path, read under the lock) as
// path.bak, or path.bak.N when that exists, then removes path. An existing backup is never
// replaced: the copy is created with O_EXCL. When path cannot be removed, the copy is removed
// again, so that the next read does not make one more.
func moveAside(path string, data []byte) (string, error) {
	for i := 0; i < maxBackups; i++ {
		bak := path + ".bak"
		if i > 0 {
			bak = fmt.Sprintf("%s.bak.%d", path, i)
		}
		err := writeNew(bak, data)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("cannot create %s: %w", bak, bareErr(err))
		}
		if err := os.Remove(path); err != nil {
			_ = os.Remove(bak)
			return "", fmt.Errorf("cannot remove it: %w", bareErr(err))
		}
		return bak, nil
	}
	return "", fmt.Errorf("%s.bak to %s.bak.%d exist already", path, path, maxBackups-1)
}

// writeNew creates path with data, mode 0600, failing with fs.ErrExist when path exists.
func writeNew(path string, data []byte) error {
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = out.Write(data)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path)
	}
	return err
}

// bareErr drops the file name a *PathError or *LinkError carries when the message names the
// file already (the lock file, a temp file), keeping the cause (errors.Is(err,
// fs.ErrPermission) still holds).
func bareErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// WriteFileAtomic writes data to path with mode 0600 through a temp file in the same dir,
// synced and renamed, so a reader sees either the old or the new content, never a mix. When it
// fails (a read-only config dir, a full disk) the old file is left as it was, and the error
// names path and the cause, not the temp file.
func WriteFileAtomic(path string, data []byte) error {
	return WriteFileAtomicMode(path, data, 0o600)
}

// WriteFileAtomicMode is WriteFileAtomic for a file others may read too (a picture the person
// saves to share: 0644), with the same guarantees.
func WriteFileAtomicMode(path string, data []byte, mode os.FileMode) error {
	if err := writeAtomic(path, data, mode); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return nil
}

func writeAtomic(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot create a file in %s: %w", dir, bareErr(err))
	}
	name := tmp.Name()
	defer func() { _ = os.Remove(name) }() // no-op after a successful rename
	if err := writeAndClose(tmp, data, mode); err != nil {
		return fmt.Errorf("cannot write a file in %s: %w", dir, bareErr(err))
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("cannot replace it: %w", bareErr(err))
	}
	return nil
}

// writeAndClose gives tmp its mode, writes data, syncs it and closes it.
func writeAndClose(tmp *os.File, data []byte, mode os.FileMode) error {
	err := tmp.Chmod(mode)
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	return err
}
