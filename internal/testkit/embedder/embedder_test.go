package embedder

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
)

// The embedder answers the text2vec-transformers inference API: the same text the same
// vector, of Dims numbers and length 1.
func TestTheInferenceAPIAnswersVectors(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := http.Get(s.URL + "/.well-known/ready")
	if err != nil || res.StatusCode/100 != 2 {
		t.Fatalf("ready: %v %v", res, err)
	}
	res.Body.Close()
	body, _ := json.Marshal(map[string]any{"text": "Rust in the Linux kernel", "config": map[string]any{"pooling_strategy": "masked_mean"}})
	res, err = http.Post(s.URL+"/vectors", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Text   string
		Dims   int
		Vector []float32
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	want := Embed("rust, IN the linux kernel!")
	if out.Dims != Dims || len(out.Vector) != Dims || out.Text != "Rust in the Linux kernel" {
		t.Fatalf("%+v", out)
	}
	var n float64
	for i := range want {
		if out.Vector[i] != want[i] {
			t.Fatalf("the same words gave another vector at %d", i)
		}
		n += float64(want[i] * want[i])
	}
	if n < 0.999 || n > 1.001 {
		t.Fatalf("length² %v", n)
	}
}
