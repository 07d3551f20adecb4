package auth

import (
	"context"
	"net/http"
	"testing"

	"app/backend/config"
)

// BenchmarkAuthenticate is what access control costs a request with a valid token among ten,
// from parallel callers (the rate limit off, as a benchmark would otherwise measure 429s).
func BenchmarkAuthenticate(b *testing.B) {
	dir := b.TempDir()
	store := NewStore(dir, openKeys(b, dir))
	var secret string
	for i := range 10 {
		_, s, err := store.Create(context.Background(), NewToken{Name: "t" + string(rune('a'+i)), Level: LevelReadOnly})
		if err != nil {
			b.Fatal(err)
		}
		secret = s
	}
	svc := NewService(Options{Store: store, Log: quietLog()})
	set := config.DefaultSettings().MCP
	set.RateLimitPerMinute = 0
	svc.Apply(set)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", nil)
		req.Header.Set("Authorization", "Bearer "+secret)
		for pb.Next() {
			p, err := svc.Authenticate(req)
			if err != nil {
				b.Fatal(err)
			}
			p.Release()
		}
	})
}
