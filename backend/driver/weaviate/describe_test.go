package weaviate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"app/backend/driver"
)

// The frontend's tests render the connection form from the description this driver gives
// (frontend/src/test/weaviate-description.json): the file is this driver's Describe, so the
// form the tests check is the form users see. APP_UPDATE_GOLDEN=1 rewrites it.
func TestTheFrontendFixtureIsThisDriversDescription(t *testing.T) {
	frontendFixture(t, "weaviate-description.json", Describe())
}

// frontendFixture holds the frontend's fixture file name to v as JSON, one member a line;
// APP_UPDATE_GOLDEN=1 rewrites it.
func frontendFixture(t *testing.T, name string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	path := filepath.Join("..", "..", "..", "frontend", "src", "test", name)
	if os.Getenv("APP_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(b) {
		t.Fatalf("%s is not what this driver describes: run APP_UPDATE_GOLDEN=1 go test ./backend/driver/weaviate -run TestTheFrontend", path)
	}
}

// The frontend's fake tables search as this driver describes the demo Article collection
// (text title, int wordCount, text[] tags) without a vectorizer and with one: the search
// panel's tests draw the driver's own modes, not a copy.
func TestTheFrontendSearchFixtureIsThisDriversModes(t *testing.T) {
	props := []property{{Name: "title", DataType: []string{"text"}}, {Name: "wordCount", DataType: []string{"int"}}, {Name: "tags", DataType: []string{"text[]"}}}
	fixture := map[string][]driver.SearchMode{
		"plain":      (&class{Class: "Article", Vectorizer: "none", Properties: props}).searches(),
		"vectorized": (&class{Class: "Article", Vectorizer: "text2vec-model2vec", Properties: props}).searches(),
	}
	frontendFixture(t, "weaviate-searches.json", fixture)
}

// The description keeps the spec's connection form (SPEC A): Host, Port (8080), Auth Method
// None or API Key, an API key only with API Key, the six SSL modes (Disabled first), and in
// Advanced Skip TLS Verification, the CA file (with Verify CA or Verify Identity) and gRPC.
func TestTheDescriptionIsTheSpecsForm(t *testing.T) {
	d := Describe()
	var keys []string
	for _, f := range d.Settings {
		keys = append(keys, f.Key+"/"+f.Section)
	}
	want := []string{"host/", "port/", "authMethod/", "apiKey/", "sslMode/", "skipTLSVerify/Advanced", "caFile/Advanced", "grpcHost/Advanced", "grpcPort/Advanced"}
	if len(keys) != len(want) {
		t.Fatalf("fields %v", keys)
	}
	for i := range want {
		if keys[i] != want[i] {
			t.Fatalf("fields %v, want %v", keys, want)
		}
	}
	s := d.Defaults()
	if s.Host != "localhost" || s.Port != 8080 || s.AuthMethod != driver.AuthNone || s.SSLMode != driver.SSLDisabled {
		t.Fatalf("defaults %+v", s)
	}
	key, _ := d.Field(driver.KeyAPIKey)
	if key.Kind != driver.FieldSecret || key.Applies(s) {
		t.Fatalf("the API key %+v applies to Auth Method None", key)
	}
	for _, tc := range []struct {
		set   map[string]string
		field string
	}{
		{map[string]string{"host": ""}, "host"},
		{map[string]string{"host": "https://x"}, "host"},
		{map[string]string{"port": "0"}, "port"},
		{map[string]string{"port": "70000"}, "port"},
		{map[string]string{"authMethod": "API Key"}, "apiKey"},
		{map[string]string{"sslMode": "Sometimes"}, "sslMode"},
		{map[string]string{"grpcPort": "70000"}, "grpcPort"},
		{map[string]string{"grpcHost": "a/b"}, "grpcHost"},
	} {
		s := d.Defaults()
		for k, v := range tc.set {
			_ = s.SetValue(k, v)
		}
		err := d.Check(s, nil)
		if e, ok := err.(*driver.Error); !ok || e.Field != tc.field || e.Kind != driver.KindInvalidArgument {
			t.Errorf("%v: %v, want an invalid_argument at %s", tc.set, err, tc.field)
		}
	}
	if err := d.Check(d.Defaults(), nil); err != nil {
		t.Fatalf("the defaults are refused: %v", err)
	}
}
