package mcp

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkServeToolsList measures the handler path of a modern tools/list
// (no network), the hot path of bench/mcp.
func BenchmarkServeToolsList(b *testing.B) {
	s, err := NewServer(Options{})
	if err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	body := modernBody(1, "tools/list", nil)
	hdr := modernHeaders("tools/list", nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader(body))
		req.Header = hdr
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatal(w.Body.String())
		}
	}
}
