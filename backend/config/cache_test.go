package config

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// counted is a document that counts its decodings.
type counted struct {
	Name   string   `json:"name"`
	Tags   []string `json:"tags"`
	decode *atomic.Int32
}

func (c *counted) UnmarshalJSON(b []byte) error {
	c.decode.Add(1)
	type plain counted
	p := plain{decode: c.decode}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*c = counted(p)
	return nil
}

func newCounted(t *testing.T) (*JSONFile[counted], *atomic.Int32, string) {
	t.Helper()
	var n atomic.Int32
	path := filepath.Join(t.TempDir(), "doc.json")
	f := NewJSONFile(path, func() counted { return counted{decode: &n} }).Cached(func(c counted) counted {
		c.Tags = append([]string(nil), c.Tags...)
		return c
	})
	return f, &n, path
}

func mustLoad(t *testing.T, f *JSONFile[counted]) counted {
	t.Helper()
	v, err := f.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// writeInPlace rewrites path as a program that does not replace the file would (same inode),
// and puts its modification time back.
func writeInPlace(t *testing.T, path, content string) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
}

func TestACachedDocumentIsDecodedAgainOnlyWhenItChanged(t *testing.T) {
	ctx := context.Background()
	f, n, _ := newCounted(t)
	if err := f.Update(ctx, func(c *counted) error { c.Name = "one"; return nil }); err != nil {
		t.Fatal(err)
	}
	n.Store(0)
	for range 3 {
		if got := mustLoad(t, f); got.Name != "one" {
			t.Fatalf("got %q", got.Name)
		}
	}
	if got := n.Load(); got != 1 {
		t.Fatalf("3 loads of an unchanged document decoded it %d times, want 1", got)
	}
	if err := f.Update(ctx, func(c *counted) error { c.Name = "two"; return nil }); err != nil {
		t.Fatal(err)
	}
	if got := mustLoad(t, f); got.Name != "two" {
		t.Fatalf("App's own write not seen at once: %q", got.Name)
	}
}

func TestAChangeByAnotherProgramIsSeenByTheNextLoad(t *testing.T) {
	tests := []struct {
		name string
		// settle waits until the version read first is older than racyWindow, so that its
		// stat alone vouches for it.
		settle bool
		change func(t *testing.T, path string)
	}{
		{"the file replaced whole", false, func(t *testing.T, path string) {
			if err := WriteFileAtomic(path, []byte(`{"name":"bbb"}`)); err != nil {
				t.Fatal(err)
			}
		}},
		{"written in place, same size and modification time, just after App read it", false, func(t *testing.T, path string) {
			writeInPlace(t, path, `{"name":"bbb"}`)
		}},
		{"written in place, same size and modification time, long after App read it", true, func(t *testing.T, path string) {
			if runtime.GOOS != "linux" {
				t.Skip("the change time is read on Linux only")
			}
			writeInPlace(t, path, `{"name":"bbb"}`)
		}},
		{"removed", false, func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, _, path := newCounted(t)
			if err := os.WriteFile(path, []byte(`{"name":"aaa"}`), 0o600); err != nil {
				t.Fatal(err)
			}
			if tc.settle {
				old := time.Now().Add(-time.Hour)
				if err := os.Chtimes(path, old, old); err != nil {
					t.Fatal(err)
				}
				time.Sleep(racyWindow + 100*time.Millisecond) // the change time too
			}
			if got := mustLoad(t, f); got.Name != "aaa" {
				t.Fatalf("got %q", got.Name)
			}
			if tc.settle && !f.cache.settled {
				t.Fatal("the version read was not settled: the test proves nothing")
			}
			tc.change(t, path)
			want := "bbb"
			if _, err := os.Stat(path); os.IsNotExist(err) {
				want = ""
			}
			if got := mustLoad(t, f); got.Name != want {
				t.Fatalf("after the change Load gave %q, want %q", got.Name, want)
			}
		})
	}
}

func TestConcurrentLoadsOfACachedDocument(t *testing.T) {
	ctx := context.Background()
	f, _, _ := newCounted(t)
	if err := f.Update(ctx, func(c *counted) error { c.Name, c.Tags = "v", []string{"a"}; return nil }); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				v, err := f.Load(ctx)
				if err != nil {
					t.Error(err)
					return
				}
				if len(v.Tags) != 1 || v.Tags[0] != "a" {
					t.Errorf("a loaded value was changed by another caller: %v", v.Tags)
					return
				}
				v.Tags[0] = "mine" // a caller's copy is its own
			}
		})
	}
	wg.Go(func() {
		for range 20 {
			if err := f.Update(ctx, func(c *counted) error { c.Name += "v"; return nil }); err != nil {
				t.Error(err)
				return
			}
		}
	})
	wg.Wait()
	if got := mustLoad(t, f); len(got.Name) != 21 {
		t.Fatalf("after 20 writes got %q", got.Name)
	}
}
