package driver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"app/backend/driver"
)

func TestErrorsKeepTheSpecPrefixesAndKinds(t *testing.T) {
	tests := []struct {
		err  error
		kind driver.Kind
		text string
	}{
		{driver.Errorf(driver.KindAuth, "the API key was rejected"), driver.KindAuth, "Authentication failed: the API key was rejected"},
		{driver.Errorf(driver.KindAuth, "Authentication failed: once"), driver.KindAuth, "Authentication failed: once"},
		{driver.Errorf(driver.KindConnection, "refused"), driver.KindConnection, "Connection failed: refused"},
		{driver.Errorf(driver.KindRefusedFilter, "why"), driver.KindRefusedFilter, "why"},
		{fmt.Errorf("wrapped: %w", driver.Errorf(driver.KindNotFound, "gone")), driver.KindNotFound, "wrapped: gone"},
		{context.Canceled, driver.KindCancelled, "context canceled"},
		{context.DeadlineExceeded, driver.KindTimeout, "context deadline exceeded"},
		{errors.New("other"), driver.KindQueryFailed, "other"},
	}
	for _, tt := range tests {
		if driver.KindOf(tt.err) != tt.kind || tt.err.Error() != tt.text {
			t.Errorf("%v: kind %s", tt.err, driver.KindOf(tt.err))
		}
	}
	if driver.KindOf(nil) != "" {
		t.Error("nil has a kind")
	}
	cause := errors.New("raw x509 text")
	e := driver.Wrap(driver.KindConnection, cause, "certificate not trusted")
	if !errors.Is(e, cause) || strings.Contains(e.Error(), "x509") {
		t.Errorf("Wrap: %v", e)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if driver.ContextError(ctx) != nil {
		t.Error("live context")
	}
	cancel()
	if ce := driver.ContextError(ctx); ce.Kind != driver.KindCancelled || !errors.Is(ce, context.Canceled) {
		t.Errorf("%v", ce)
	}
}

func TestSettings(t *testing.T) {
	s := driver.DefaultSettings()
	if s.Port != 8080 || s.SSLMode != driver.SSLDisabled || s.AuthMethod != driver.AuthNone {
		t.Errorf("defaults %+v", s)
	}
	s.APIKey, s.AuthMethod, s.CAFile = "secret-key", driver.AuthAPIKey, "/ca.pem"
	b, _ := json.Marshal(s)
	if strings.Contains(string(b), "secret-key") {
		t.Errorf("API key serialized: %s", b)
	}
	want := `{"host":"localhost","port":8080,"authMethod":"API Key","sslMode":"Disabled","skipTlsVerify":false,"caFile":"/ca.pem"}`
	if string(b) != want {
		t.Errorf("json %s", b)
	}
	modes := []string{}
	for _, m := range driver.SSLModes() {
		modes = append(modes, string(m))
	}
	if strings.Join(modes, "|") != "Disabled|Preferred|Required|Required (skip verify)|Verify CA|Verify Identity" {
		t.Errorf("modes %v", modes)
	}
	bad := []driver.Settings{
		{Port: 8080},
		{Host: "https://x.weaviate.cloud", Port: 443},
		{Host: "h/path", Port: 1},
		{Host: "h", Port: 0},
		{Host: "h", Port: 70000},
		{Host: "h", Port: 1, AuthMethod: "OIDC"},
		{Host: "h", Port: 1, AuthMethod: driver.AuthAPIKey},
		{Host: "h", Port: 1, SSLMode: "require"},
	}
	for _, s := range bad {
		if err := s.Validate(); driver.KindOf(err) != driver.KindInvalidArgument {
			t.Errorf("%+v: %v", s, err)
		}
	}
	if err := (driver.Settings{Host: "x.weaviate.cloud", Port: 443, AuthMethod: driver.AuthAPIKey, APIKey: "k", SSLMode: driver.SSLRequired}).Validate(); err != nil {
		t.Error(err)
	}
}

// fakePinger is a fake: it fails from the nth check on, to drive Monitor
// without a server.
type fakePinger struct {
	calls  atomic.Int32
	failAt int32
	err    error
	block  bool
}

func (f *fakePinger) Ping(ctx context.Context) error {
	n := f.calls.Add(1)
	if f.block {
		<-ctx.Done()
		return ctx.Err()
	}
	if f.failAt > 0 && n >= f.failAt {
		return f.err
	}
	return nil
}

// Issue 25, item 9: one failed check (a blip) is retried inside the interval, not a drop; a
// connection lost for good drops after the retries; a refused key drops at once.
func TestMonitorRetriesAFailedCheckBeforeItDrops(t *testing.T) {
	lost := driver.Errorf(driver.KindConnection, "Connection failed: nothing answers")
	t.Run("a blip: the retry answers, nothing drops", func(t *testing.T) {
		p := &blipPinger{fail: map[int32]bool{2: true}, err: lost}
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		dropped := false
		if err := driver.Monitor(ctx, p, 20*time.Millisecond, time.Second, func(error) { dropped = true }); err != nil || dropped {
			t.Fatalf("err=%v dropped=%v", err, dropped)
		}
		if p.calls.Load() < 5 {
			t.Fatalf("only %d checks", p.calls.Load())
		}
	})
	t.Run("lost for good: every retry fails, then it drops with the reason", func(t *testing.T) {
		p := &fakePinger{failAt: 2, err: lost}
		var got error
		err := driver.Monitor(context.Background(), p, 20*time.Millisecond, time.Second, func(e error) { got = e })
		if err != lost || got != lost || p.calls.Load() != 2+driver.Retries {
			t.Fatalf("err=%v got=%v calls=%d, want %d", err, got, p.calls.Load(), 2+driver.Retries)
		}
	})
	t.Run("a refused key drops at once", func(t *testing.T) {
		auth := driver.Errorf(driver.KindAuth, "Authentication failed: the API key was rejected")
		p := &fakePinger{failAt: 1, err: auth}
		if err := driver.Monitor(context.Background(), p, 20*time.Millisecond, time.Second, nil); err != auth || p.calls.Load() != 1 {
			t.Fatalf("err=%v calls=%d", err, p.calls.Load())
		}
	})
}

// blipPinger is a fake: the checks numbered in fail fail, the others answer (a blip on cue).
type blipPinger struct {
	calls atomic.Int32
	fail  map[int32]bool
	err   error
}

func (b *blipPinger) Ping(context.Context) error {
	if b.fail[b.calls.Add(1)] {
		return b.err
	}
	return nil
}

func TestMonitorStopsQuietlyWithItsContext(t *testing.T) {
	p := &fakePinger{block: true}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	called := false
	if err := driver.Monitor(ctx, p, 5*time.Millisecond, time.Hour, func(error) { called = true }); err != nil || called {
		t.Errorf("err=%v called=%v", err, called)
	}
}
