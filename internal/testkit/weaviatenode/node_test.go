package weaviatenode_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

func get(t *testing.T, c *http.Client, url, auth string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestAnonymousVariantServesReadsWithoutCredentials(t *testing.T) {
	n := weaviatetest.Start(t, weaviatenode.Anonymous)
	if n.Scheme != "http" || n.APIKey != "" || n.CACertPEM != nil {
		t.Fatalf("anonymous node: scheme %q, key set %v, cert set %v", n.Scheme, n.APIKey != "", n.CACertPEM != nil)
	}
	for _, path := range []string{"/v1/schema", "/v1/meta"} {
		t.Run("GET "+path+" without a key answers 200", func(t *testing.T) {
			code, body := get(t, http.DefaultClient, n.URL+path, "")
			if code != http.StatusOK {
				t.Fatalf("got %d: %s", code, body)
			}
		})
	}
	t.Run("meta reports the release the harness started (APP_WEAVIATE_VERSION)", func(t *testing.T) {
		var meta struct {
			Version string `json:"version"`
		}
		if err := n.DoJSON(context.Background(), http.MethodGet, "/v1/meta", nil, &meta); err != nil {
			t.Fatal(err)
		}
		if meta.Version != strings.TrimPrefix(weaviatenode.Version(), "v") {
			t.Fatalf("version %q", meta.Version)
		}
	})
}

func TestAPIKeyVariantRefusesMissingAndWrongKeysAndAcceptsTheRightOne(t *testing.T) {
	n := weaviatetest.Start(t, weaviatenode.APIKey)
	if n.APIKey == "" {
		t.Fatal("API-key node has no key")
	}
	cases := []struct {
		name, auth string
		want       int
	}{
		{"no key is 401", "", http.StatusUnauthorized},
		{"a wrong key is 401", "Bearer not-the-key", http.StatusUnauthorized},
		{"the right key is 200", "Bearer " + n.APIKey, http.StatusOK},
	}
	for _, path := range []string{"/v1/schema", "/v1/meta"} {
		for _, c := range cases {
			t.Run("GET "+path+": "+c.name, func(t *testing.T) {
				code, body := get(t, http.DefaultClient, n.URL+path, c.auth)
				if code != c.want {
					t.Fatalf("got %d, want %d: %s", code, c.want, body)
				}
				if strings.Contains(body, n.APIKey) {
					t.Fatal("the answer echoes the key")
				}
			})
		}
	}
	t.Run("Do adds the key", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, n.URL+"/v1/schema", nil)
		resp, err := n.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("got %d", resp.StatusCode)
		}
	})
}

func TestTLSVariantAnswersOverHTTPSWithItsSelfSignedCertificate(t *testing.T) {
	n := weaviatetest.Start(t, weaviatenode.TLS)
	if n.Scheme != "https" || !strings.HasPrefix(n.URL, "https://127.0.0.1:") {
		t.Fatalf("TLS node URL %q", n.URL)
	}
	filePEM, err := os.ReadFile(n.CACertFile)
	if err != nil || string(filePEM) != string(n.CACertPEM) {
		t.Fatalf("CACertFile does not hold CACertPEM: %v", err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(n.CACertPEM)
	withCA := func(serverName string) *http.Client {
		return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: serverName}}}
	}
	t.Run("the CA pool verifies 127.0.0.1", func(t *testing.T) {
		if code, body := get(t, withCA(""), n.URL+"/v1/meta", ""); code != http.StatusOK {
			t.Fatalf("got %d: %s", code, body)
		}
	})
	t.Run("the CA pool verifies the name localhost", func(t *testing.T) {
		if code, body := get(t, withCA("localhost"), n.URL+"/v1/meta", ""); code != http.StatusOK {
			t.Fatalf("got %d: %s", code, body)
		}
	})
	t.Run("HTTPClient trusts the CA", func(t *testing.T) {
		if code, body := get(t, n.HTTPClient(), n.URL+"/v1/schema", ""); code != http.StatusOK {
			t.Fatalf("got %d: %s", code, body)
		}
	})
	t.Run("the system pool fails with an x509 error", func(t *testing.T) {
		_, err := (&http.Client{Transport: &http.Transport{}}).Get(n.URL + "/v1/meta")
		var unknown x509.UnknownAuthorityError
		if !errors.As(err, &unknown) {
			t.Fatalf("want x509.UnknownAuthorityError, got %v", err)
		}
	})
	t.Run("plain http to the TLS port is refused", func(t *testing.T) {
		code, _ := get(t, http.DefaultClient, strings.Replace(n.URL, "https", "http", 1)+"/v1/meta", "")
		if code != http.StatusBadRequest {
			t.Fatalf("got %d, want 400 from the TLS listener", code)
		}
	})
}

func TestStartFailsClearlyWhenThePortIsInUse(t *testing.T) {
	weaviatetest.RequireBinary(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	n, err := weaviatenode.Start(context.Background(), weaviatenode.Options{Port: port})
	if err == nil {
		n.Stop()
		t.Fatal("start on a taken port succeeded")
	}
	if !errors.Is(err, weaviatenode.ErrPortInUse) || !strings.Contains(err.Error(), "127.0.0.1:") || !strings.Contains(err.Error(), "port 0") {
		t.Fatalf("error does not name the port and the fix: %v", err)
	}
}

func TestStartFailsClearlyWhenTheBinaryIsMissing(t *testing.T) {
	t.Setenv("APP_WEAVIATE_BIN", "")
	t.Setenv("APP_CACHE_DIR", t.TempDir())
	_, err := weaviatenode.Start(context.Background(), weaviatenode.Options{})
	if !errors.Is(err, weaviatenode.ErrBinaryMissing) || !strings.Contains(err.Error(), "scripts/ensure-weaviate.sh") {
		t.Fatalf("error does not name the fix: %v", err)
	}
}

// A crashing server cannot be produced on demand with the real binary, so this test uses a
// fake: a shell script that prints a line and exits 3.
func TestStartFailsClearlyWhenTheServerExitsEarly_FakeCrashingServer(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "weaviate-server")
	script := "#!/bin/sh\necho 'fatal: something broke at startup' >&2\nexit 3\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("APP_WEAVIATE_BIN", fake)
	_, err := weaviatenode.Start(context.Background(), weaviatenode.Options{})
	if err == nil || !strings.Contains(err.Error(), "exited before it was ready") || !strings.Contains(err.Error(), "something broke at startup") {
		t.Fatalf("error does not say it exited with the tail of its output: %v", err)
	}
}

func TestStartGivesUpWhenTheContextEnds(t *testing.T) {
	weaviatetest.RequireBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := weaviatenode.Start(ctx, weaviatenode.Options{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want a deadline error, got %v", err)
	}
}

func TestStopKillsTheServerRemovesTheTempDirAndIsIdempotent(t *testing.T) {
	weaviatetest.RequireBinary(t)
	n, err := weaviatenode.Start(context.Background(), weaviatenode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n.Stop()
	n.Stop()
	select {
	case <-n.Exited():
	default:
		t.Fatal("process still running after Stop")
	}
	if err := syscall.Kill(n.PID, 0); err == nil {
		t.Fatalf("pid %d still exists", n.PID)
	}
	if _, err := os.Stat(n.DataDir); !os.IsNotExist(err) {
		t.Fatalf("temporary data dir %s still there: %v", n.DataDir, err)
	}
	if _, err := http.Get(n.URL + "/v1/meta"); err == nil {
		t.Fatal("node still answers after Stop")
	}
}

func TestAKeptDataDirSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	n := weaviatetest.StartWith(t, weaviatenode.Options{DataDir: dir})
	class := map[string]any{"class": "Kept", "vectorizer": "none", "properties": []any{map[string]any{"name": "x", "dataType": []string{"int"}}}}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", class, nil); err != nil {
		t.Fatal(err)
	}
	n.Stop()
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("kept data dir removed: %v", err)
	}
	n2 := weaviatetest.StartWith(t, weaviatenode.Options{DataDir: dir})
	if err := n2.DoJSON(ctx, http.MethodGet, "/v1/schema/Kept", nil, nil); err != nil {
		t.Fatalf("collection lost across restart: %v", err)
	}
}

func TestTLSAPIKeyVariantNeedsTheCAAndTheKey(t *testing.T) {
	n := weaviatetest.Start(t, weaviatenode.TLSAPIKey)
	if n.Scheme != "https" || n.APIKey == "" {
		t.Fatalf("scheme %q, key set %v", n.Scheme, n.APIKey != "")
	}
	if code, _ := get(t, n.HTTPClient(), n.URL+"/v1/meta", ""); code != http.StatusUnauthorized {
		t.Fatalf("no key over https: got %d, want 401", code)
	}
	if code, _ := get(t, n.HTTPClient(), n.URL+"/v1/meta", "Bearer "+n.APIKey); code != http.StatusOK {
		t.Fatalf("right key over https: got %d, want 200", code)
	}
}
