package config

import (
	"bytes"
	"os"
	"sync"
	"time"
)

// racyWindow is how old a file's version must be, when it is read, for its stat alone to
// vouch for its bytes afterwards. A program that writes the file in place (not App: App
// replaces it whole) can leave the same inode, size and times when it writes again within one
// tick of the file system's clock (a few milliseconds on ext4, 1 s or 2 s on coarser file
// systems); a version younger than this is therefore read again on every Load until it is
// older. A change of the times is not needed to see a change: a different size or a new inode
// (every write of App's) is enough.
const racyWindow = 3 * time.Second

// loadCache is the last document Load read and decoded (JSONFile.Cached). Two levels, each
// checked on every Load: the file's bytes, read again when its stat (inode, size, modification
// and change time) differs or when the version was young when read (racyWindow); the decoded
// value, decoded again when the bytes App acts on (the seal's verdict on the bytes, which is
// asked on every Load as before) differ. The kept value is never changed: Load returns clones.
type loadCache[T any] struct {
	clone func(T) T

	mu sync.Mutex
	// st is the file's stat taken before raw was read (raw is at least as new as st);
	// settled that st was older than racyWindow then, so that a file with the same stat holds
	// raw.
	st      os.FileInfo
	raw     []byte
	settled bool
	// doc is the document decoded into v (docExists false: no document, v the default).
	haveDoc   bool
	doc       []byte
	docExists bool
	v         T
}

// Cached makes Load keep the document it decoded and read the file again only when it changed
// (loadCache), for a document read far more often than it changes (the saved connections,
// read on every tool call). clone copies a value so that what a caller changes is its own
// copy. Set it before the first Load; it returns f. Update always reads the file afresh.
func (f *JSONFile[T]) Cached(clone func(T) T) *JSONFile[T] {
	f.cache = &loadCache[T]{clone: clone}
	return f
}

// loadCached is read through the cache: the same value, and the same errors, as read.
func (f *JSONFile[T]) loadCached() (T, error) {
	raw, exists, err := f.cache.read(f.path)
	if err != nil {
		var v T
		return v, err
	}
	v, _, _, err := f.judge(raw, exists, f.decodeCached)
	return v, err
}

// read is the file's bytes, from the cache when its stat vouches for them.
func (c *loadCache[T]) read(path string) ([]byte, bool, error) {
	st, err := os.Stat(path)
	if err == nil {
		c.mu.Lock()
		if c.settled && sameStat(c.st, st) {
			raw := c.raw
			c.mu.Unlock()
			return raw, true, nil
		}
		c.mu.Unlock()
	}
	now := time.Now()
	data, exists, rerr := readDocument(path)
	if rerr != nil || !exists || err != nil {
		return data, exists, rerr
	}
	changed := st.ModTime()
	if ct := changeTime(st); ct.After(changed) {
		changed = ct
	}
	c.mu.Lock()
	c.st, c.raw, c.settled = st, data, now.Sub(changed) >= racyWindow
	c.mu.Unlock()
	return data, true, nil
}

// decodeCached is JSONFile.decode through the cache: the kept value's clone when data is the
// document it was decoded from. An undecodable document is not kept.
func (f *JSONFile[T]) decodeCached(data []byte, exists bool) (T, []byte, error) {
	c := f.cache
	c.mu.Lock()
	hit := c.haveDoc && c.docExists == exists && bytes.Equal(c.doc, data)
	v := c.v
	c.mu.Unlock()
	if hit {
		return c.clone(v), data, nil
	}
	v, data, err := f.decode(data, exists)
	if err != nil {
		return v, data, err
	}
	c.mu.Lock()
	c.haveDoc, c.doc, c.docExists, c.v = true, bytes.Clone(data), exists, v
	c.mu.Unlock()
	return c.clone(v), data, nil
}

// sameStat is SameFileVersion that also compares the change time, which no program can set:
// a program that writes the file in place and puts its modification time back is seen.
func sameStat(a, b os.FileInfo) bool {
	return SameFileVersion(a, b) && changeTime(a).Equal(changeTime(b))
}
