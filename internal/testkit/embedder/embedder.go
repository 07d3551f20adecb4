// Package embedder is a stand-in for a text-embedding model: a loopback HTTP server that
// speaks the inference API of Weaviate's text2vec-transformers module (GET
// /.well-known/ready, GET /meta, POST /vectors), so a real weaviate-server vectorizes text
// with it and nearText, hybrid and a collection's vectorizer run through the server's own
// module code. No model can run here (no network, no GPU, no weights), so this is a named
// fake for that one thing: it hashes each lower-cased word into a fixed number of
// dimensions and normalizes the sum. Texts sharing words land near each other, the same
// text always gets the same vector, and that is all a test of the client needs.
package embedder

import (
	"context"
	"encoding/json"
	"errors"
	"hash/fnv"
	"math"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode"
)

// Dims is the length of every vector the embedder makes.
const Dims = 32

// Server is a running embedder on 127.0.0.1.
type Server struct {
	// URL is http://127.0.0.1:port, the value of TRANSFORMERS_INFERENCE_API.
	URL string
	srv *http.Server
	ln  net.Listener
}

// Start serves the embedder on a free loopback port until Close.
func Start() (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/ready", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("GET /.well-known/live", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("GET /meta", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"model":{"name":"app-test-hashing-embedder","dims":32}}`))
	})
	mux.HandleFunc("POST /vectors", vectors)
	mux.HandleFunc("POST /vectors/", vectors)
	s := &Server{URL: "http://" + ln.Addr().String(), ln: ln, srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the server.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func vectors(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Text   string         `json:"text"`
		Config map[string]any `json:"config"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 16<<20)).Decode(&in); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "the body is not JSON: " + err.Error()})
		return
	}
	v := Embed(in.Text)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"text": in.Text, "dims": len(v), "vector": v})
}

// Embed is the vector of text: each word (letters and digits, lower-cased) adds ±1 at the
// dimension its hash picks, and the sum is scaled to length 1 (a text without words is the
// unit vector on the first dimension, so every vector has a cosine distance to every other).
func Embed(text string) []float32 {
	sum := make([]float64, Dims)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, word := range words {
		h := fnv.New64a()
		_, _ = h.Write([]byte(word))
		x := h.Sum64()
		sign := 1.0
		if x&(1<<63) != 0 {
			sign = -1
		}
		sum[x%Dims] += sign
	}
	var norm float64
	for _, f := range sum {
		norm += f * f
	}
	out := make([]float32, Dims)
	if norm == 0 {
		out[0] = 1
		return out
	}
	norm = math.Sqrt(norm)
	for i, f := range sum {
		out[i] = float32(f / norm)
	}
	return out
}
