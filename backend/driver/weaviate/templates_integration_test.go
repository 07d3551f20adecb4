package weaviate_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"app/backend/driver"
	"app/internal/testkit/weaviatenode"
)

// Contract 3, item 1: the editor's templates come from the driver, in its language, written
// for the table chosen. On weaviate-server, each read template the editor offers runs as it
// is on a collection made for it; the hybrid one reads the collection's vectorizer (none: the
// keyword half alone, alpha 0, and a line saying how to add the vector; issue 23), and with
// no table chosen it names a placeholder and weighs vectors.
func TestTheEditorsTemplatesRunOnTheServer(t *testing.T) {
	n := sharedNode(t, weaviatenode.Anonymous)
	d := open(t, n, nil)
	ctx := ctxT(t)
	const class = "TemplateTarget"
	t.Cleanup(func() { _ = n.DoJSON(context.Background(), http.MethodDelete, "/v1/schema/"+class, nil, nil) })
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{
		"class": class, "vectorizer": "none",
		"properties": []map[string]any{{"name": "name", "dataType": []string{"text"}}},
	}, nil); err != nil {
		t.Fatal(err)
	}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/objects", map[string]any{"class": class, "properties": map[string]any{"name": "value"}, "vector": []float64{0.1, 0.2, 0.3}}, nil); err != nil {
		t.Fatal(err)
	}
	ts, err := d.Templates(ctx, class)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]string{}
	for _, tp := range ts {
		byName[tp.Name] = tp.Text
		if !strings.Contains(tp.Text, class) && tp.Name != "REST: GET schema" {
			t.Errorf("%s does not name %s: %s", tp.Name, class, tp.Text)
		}
	}
	if h := byName["hybrid"]; !strings.Contains(h, "alpha: 0 }") || !strings.Contains(h, "# "+class+" has no vectorizer") {
		t.Errorf("the hybrid template for a collection without a vectorizer: %s", h)
	}
	for _, name := range []string{"Get", "nearVector", "bm25", "hybrid", "where filter", "Aggregate", "REST: GET schema"} {
		text, ok := byName[name]
		if !ok {
			t.Errorf("no %s template", name)
			continue
		}
		cls, err := d.Classify(text)
		if err != nil || cls.Access != driver.AccessRead {
			t.Errorf("%s classifies as %+v, %v", name, cls, err)
			continue
		}
		if _, err := d.Execute(ctx, text, driver.ExecOptions{MaxRows: 10}); err != nil {
			t.Errorf("%s does not run on the server: %v\n%s", name, err, text)
		}
	}
	none, err := d.Templates(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range none {
		if tp.Name == "hybrid" && (!strings.Contains(tp.Text, "Collection(hybrid") || !strings.Contains(tp.Text, "alpha: 0.5")) {
			t.Errorf("with no table the hybrid template is %s", tp.Text)
		}
	}
}
