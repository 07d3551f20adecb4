package plugins

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/sirupsen/logrus"

	"app/backend/plugins/host"
	"app/backend/plugins/registry"
)

// Progress reports a download: Done of Total bytes of the plugin's version.
type Progress struct {
	Plugin  string `json:"plugin"`
	Version string `json:"version"`
	Done    int64  `json:"done"`
	Total   int64  `json:"total"`
	// FromMirror: the package's bundled mirror serves this download.
	FromMirror bool `json:"fromMirror,omitempty"`
}

// Result says what Install or Update did.
type Result struct {
	Plugin string `json:"plugin"`
	// Version is the version installed now (the current one when nothing changed).
	Version string `json:"version"`
	// Previous is the version that ran before an update ("" otherwise).
	Previous string `json:"previous,omitempty"`
	// Changed tells whether anything was downloaded and installed.
	Changed bool `json:"changed"`
	// Available is a newer version Install left alone (use Update), or "".
	Available string `json:"available,omitempty"`
	// Path is the program of Version.
	Path string `json:"path"`
	// FromMirror: the package's bundled mirror served the download (the registry could not
	// be reached, or none is named).
	FromMirror bool `json:"fromMirror,omitempty"`
}

// Install installs the newest version of a plugin the registry offers for this platform and
// app. An installed plugin is left as it is (Result.Available names a newer version). Two
// installs of the same plugin at once share one download. progress, when not nil, gets the
// bytes downloaded.
func (m *Manager) Install(ctx context.Context, name string, progress func(Progress)) (Result, error) {
	return m.join(ctx, "install/"+name, progress, func(ctx context.Context, report func(Progress)) (Result, error) {
		return m.install(ctx, name, false, report)
	})
}

// Update installs a newer version of an installed plugin when the registry has one, and
// then removes the older versions that no process runs. The old version stays in place
// until the new one is downloaded, checked and moved in.
func (m *Manager) Update(ctx context.Context, name string, progress func(Progress)) (Result, error) {
	return m.join(ctx, "update/"+name, progress, func(ctx context.Context, report func(Progress)) (Result, error) {
		return m.install(ctx, name, true, report)
	})
}

func (m *Manager) install(ctx context.Context, name string, update bool, report func(Progress)) (Result, error) {
	if err := validName(name); err != nil {
		return Result{}, err
	}
	cur, installed := m.Current(name)
	if update && !installed {
		return Result{}, &Error{Code: registry.CodeNotInstalled, Msg: fmt.Sprintf("%s is not installed, so there is nothing to update: install it with `app plugin install %s`", name, name)}
	}
	idx, err := m.Index(ctx)
	if err != nil {
		if installed && !update && registry.CodeOf(err) != registry.CodeCancelled && ctx.Err() == nil {
			// Install of an installed plugin needs no registry: what is there stays (offline,
			// or a registry that dropped the plugin). Only the newer version goes unknown.
			return Result{Plugin: name, Version: cur.Version, Path: cur.Path()}, nil
		}
		return Result{}, err
	}
	p, ok := idx.Plugin(name)
	if !ok && installed && !update {
		return Result{Plugin: name, Version: cur.Version, Path: cur.Path()}, nil
	}
	if !ok {
		return Result{}, &Error{Code: registry.CodeNotFound, Msg: fmt.Sprintf("The plugin registry at %s has no plugin named %q (it lists: %s).", registry.Display(idx.URL), name, strings.Join(idx.Names(), ", "))}
	}
	choice := p.Choose(m.opts.Platform, m.opts.AppVersion, m.protocols())
	if installed {
		res := Result{Plugin: name, Version: cur.Version, Path: cur.Path()}
		newer := choice.Status == registry.Available && registry.CompareVersions(choice.Version.Version, cur.Version) > 0
		if !update || !newer {
			if newer {
				res.Available = choice.Version.Version
			}
			return res, nil
		}
	}
	if err := choice.Err(); err != nil {
		return Result{}, err
	}

	unlock, err := m.lock(ctx)
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	m.sweep()
	if now, ok := m.Current(name); ok && registry.CompareVersions(now.Version, choice.Version.Version) >= 0 {
		// Another process installed it while this one waited for the lock.
		return Result{Plugin: name, Version: now.Version, Path: now.Path(), Previous: prevOf(update, cur)}, nil
	}
	iv, err := m.stage(ctx, idx, p, choice, report)
	if err != nil {
		return Result{}, err
	}
	res := Result{Plugin: name, Version: iv.Version, Path: iv.Path(), Changed: true, Previous: prevOf(installed, cur), FromMirror: m.FromMirror(idx)}
	m.log.WithFields(logrus.Fields{"plugin": name, "version": iv.Version, "previous": res.Previous}).Info("plugin installed")
	if update {
		m.removeOlder(name, iv.Version)
	}
	return res, nil
}

func prevOf(had bool, cur InstalledVersion) string {
	if had {
		return cur.Version
	}
	return ""
}

// lock takes the plugins directory's lock (all installs and removals, every process),
// waiting while another holds it.
func (m *Manager) lock(ctx context.Context) (func(), error) {
	if err := os.MkdirAll(m.dir, 0o700); err != nil {
		return nil, fmt.Errorf("plugins directory %s: %w", m.dir, err)
	}
	fl := flock.New(filepath.Join(m.dir, ".lock"))
	ok, err := fl.TryLockContext(ctx, 100*time.Millisecond)
	if err != nil || !ok {
		if ctx.Err() != nil {
			return nil, cancelled(ctx)
		}
		return nil, fmt.Errorf("plugins directory %s cannot be locked: %w", m.dir, err)
	}
	return func() { _ = fl.Unlock() }, nil
}

func cancelled(ctx context.Context) error {
	return &Error{Code: registry.CodeCancelled, Err: ctx.Err(), Msg: "the plugin install was cancelled; nothing was installed"}
}

// stage downloads, checks and unpacks the chosen artifact in a temporary directory inside
// the plugins directory and renames the finished version directory into place. Whatever
// happens, the temporary directory is removed.
func (m *Manager) stage(ctx context.Context, idx *registry.Signed, p *registry.Plugin, ch registry.Choice, report func(Progress)) (InstalledVersion, error) {
	v, a := ch.Version, ch.Artifact
	what := fmt.Sprintf("%s %s for %s", p.Name, v.Version, a.Platform())
	tmp, err := os.MkdirTemp(m.dir, ".tmp-"+p.Name+"-")
	if err != nil {
		return InstalledVersion{}, err
	}
	defer os.RemoveAll(tmp)

	u, err := idx.Resolve(a.URL)
	if err != nil {
		return InstalledVersion{}, &Error{Code: registry.CodeBadIndex, Err: err, Msg: fmt.Sprintf("The registry's entry for %s has an unusable URL: %v.", what, err)}
	}
	archive := filepath.Join(tmp, "artifact.tar.gz")
	if err := m.download(ctx, u, archive, what, a, func(done int64) {
		if report != nil {
			report(Progress{Plugin: p.Name, Version: v.Version, Done: done, Total: a.Size, FromMirror: m.FromMirror(idx)})
		}
	}); err != nil {
		return InstalledVersion{}, err
	}

	vdir := filepath.Join(tmp, v.Version)
	if err := os.Mkdir(vdir, 0o700); err != nil {
		return InstalledVersion{}, err
	}
	f, err := os.Open(archive)
	if err != nil {
		return InstalledVersion{}, err
	}
	err = registry.Unpack(f, vdir, a.Binary)
	f.Close()
	if err != nil {
		return InstalledVersion{}, &Error{Code: registry.CodeBadArtifact, Err: err, Msg: fmt.Sprintf("The download of %s is not a valid plugin archive: %v. Nothing was installed.", what, err)}
	}
	prog := filepath.Join(vdir, a.Binary)
	if err := checkProgram(prog, a.Platform(), what); err != nil {
		return InstalledVersion{}, err
	}
	d, err := checkDescribe(ctx, prog, p.Name, v, p.Types, what)
	if err != nil {
		return InstalledVersion{}, err
	}
	mf := Manifest{Name: p.Name, Version: v.Version, ProtocolVersion: v.ProtocolVersion, DisplayName: p.DisplayName,
		Publisher: p.Publisher, Types: p.Types, Connections: &d.Connections, Binary: a.Binary, SHA256: a.SHA256, Size: a.Size,
		Registry: idx.URL, KeyID: idx.Key.ID(), InstalledAt: time.Now().UTC().Format(time.RFC3339)}
	b, _ := json.MarshalIndent(mf, "", "  ")
	if err := writeSynced(filepath.Join(vdir, manifestName), append(b, '\n'), 0o600); err != nil {
		return InstalledVersion{}, err
	}
	if err := writeSynced(filepath.Join(vdir, host.LockFile), nil, 0o600); err != nil {
		return InstalledVersion{}, err
	}
	_ = os.Remove(archive)

	pdir := filepath.Join(m.dir, p.Name)
	if err := os.MkdirAll(pdir, 0o700); err != nil {
		return InstalledVersion{}, err
	}
	final := filepath.Join(pdir, v.Version)
	if _, err := os.Stat(final); err == nil {
		// Left by hand or by an older app without its manifest (an installed version would
		// have been found before staging): move it aside, it is replaced.
		if err := os.Rename(final, filepath.Join(tmp, "replaced")); err != nil {
			return InstalledVersion{}, err
		}
	}
	if err := os.Rename(vdir, final); err != nil {
		return InstalledVersion{}, fmt.Errorf("moving %s into place: %w", what, err)
	}
	syncDir(pdir)
	return InstalledVersion{Manifest: mf, Dir: final}, nil
}

// download copies an artifact to path, reporting progress, and checks it against the
// signed index: never more than a.Size bytes are read, fewer is truncated, another SHA-256
// is corrupted.
func (m *Manager) download(ctx context.Context, u, path, what string, a *registry.Artifact, report func(int64)) error {
	r, length, err := m.client.Open(ctx, u)
	if err != nil {
		if ctx.Err() != nil {
			return cancelled(ctx)
		}
		return &Error{Code: registry.CodeUnreachable, Err: err, Msg: fmt.Sprintf("The download of %s from %s failed: %s. Nothing was installed.", what, registry.Display(u), registry.Reason(err))}
	}
	defer r.Close()
	if length > a.Size {
		return &Error{Code: registry.CodeCorrupted, Msg: fmt.Sprintf("The download of %s is %d bytes, but the signed registry index says %d: it is not the published file. Nothing was installed.", what, length, a.Size)}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	pr := &progressReader{r: io.LimitReader(r, a.Size+1), report: report}
	n, err := io.Copy(io.MultiWriter(f, h), pr)
	pr.flush()
	if err != nil {
		if ctx.Err() != nil {
			return cancelled(ctx)
		}
		var we *os.PathError
		if errors.As(err, &we) {
			return fmt.Errorf("writing the download of %s: %w", what, err)
		}
		return &Error{Code: registry.CodeTruncated, Err: err, Msg: fmt.Sprintf("The download of %s stopped after %d of %d bytes (%s). Nothing was installed; try again.", what, n, a.Size, registry.Reason(err))}
	}
	switch {
	case n > a.Size:
		return &Error{Code: registry.CodeCorrupted, Msg: fmt.Sprintf("The download of %s is larger than the %d bytes the signed registry index says: it is not the published file. Nothing was installed.", what, a.Size)}
	case n < a.Size:
		return &Error{Code: registry.CodeTruncated, Msg: fmt.Sprintf("The download of %s is incomplete: %d of %d bytes arrived. Nothing was installed; try again.", what, n, a.Size)}
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != a.SHA256 {
		return &Error{Code: registry.CodeCorrupted, Msg: fmt.Sprintf("The download of %s is corrupted: its SHA-256 is %s, the signed registry index says %s. Nothing was installed.", what, sum[:16]+"...", a.SHA256[:16]+"...")}
	}
	return f.Sync()
}

// progressReader reports the bytes read so far, at most every 256 KB, and once at the end.
type progressReader struct {
	r      io.Reader
	report func(int64)
	done   int64
	last   int64
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.done += int64(n)
	if p.done-p.last >= 256<<10 {
		p.flush()
	}
	return n, err
}

func (p *progressReader) flush() {
	if p.report != nil && p.done != p.last {
		p.last = p.done
		p.report(p.done)
	}
}

// removeOlder removes the versions of a plugin older than keep that no process runs (a
// running one holds its shared lock; it stays until a later update or uninstall).
func (m *Manager) removeOlder(name, keep string) {
	for _, v := range m.versions(name) {
		if registry.CompareVersions(v.Version, keep) >= 0 {
			continue
		}
		fl := flock.New(filepath.Join(v.Dir, host.LockFile))
		ok, err := fl.TryLock()
		if err != nil || !ok {
			m.log.WithFields(logrus.Fields{"plugin": name, "version": v.Version}).Info("keeping the old plugin version while it runs")
			continue
		}
		trash := filepath.Join(m.dir, fmt.Sprintf(".trash-%s-%s-%d", name, v.Version, time.Now().UnixNano()))
		err = os.Rename(v.Dir, trash)
		_ = fl.Unlock()
		if err == nil {
			_ = os.RemoveAll(trash)
		}
	}
}

func writeSynced(path string, data []byte, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		_ = f.Sync()
		f.Close()
	}
}
