package weaviate

import (
	"context"
	"fmt"

	"app/backend/driver"
)

// zeroUUID stands for the object a template's statement names.
const zeroUUID = "00000000-0000-0000-0000-000000000000"

// Templates are the editor's statements for table ("Collection" when none is chosen): the
// reads in GraphQL (the gRPC path translates them where GraphQL is off) and the REST lines
// of the edits. A hybrid search vectorizes its query: on a collection without a vectorizer
// the server refuses that ("VectorFromInput was called without vectorizer"), so there the
// template runs the keyword half alone (alpha 0) and says how to add the vector (issue 23).
// The table's settings are read only for that; when they cannot be read, a vectorizer is
// assumed.
func (d *Driver) Templates(ctx context.Context, table string) ([]driver.Template, error) {
	c := table
	if c == "" {
		c = "Collection"
	}
	hybrid := fmt.Sprintf("{\n  Get {\n    %s(hybrid: { query: \"search words\", alpha: 0.5 }, limit: 10) {\n      _additional { id score explainScore }\n    }\n  }\n}", c)
	if table != "" {
		if info, err := d.DescribeTable(ctx, table); err == nil && (info.Settings.Vectorizer == "" || info.Settings.Vectorizer == "none") {
			hybrid = fmt.Sprintf("{\n  # %s has no vectorizer: to weigh vectors too, give the query's vector (vector: [...]) and raise alpha\n  Get {\n    %s(hybrid: { query: \"search words\", alpha: 0 }, limit: 10) {\n      _additional { id score explainScore }\n    }\n  }\n}", c, c)
		}
	}
	get := func(args, extra string) string {
		return fmt.Sprintf("{\n  Get {\n    %s(%s) {\n      _additional { id%s }\n    }\n  }\n}", c, args, extra)
	}
	return []driver.Template{
		{Name: "Get", Text: get("limit: 10", "")},
		{Name: "nearVector", Text: get("nearVector: { vector: [0.1, 0.2, 0.3] }, limit: 5", " distance")},
		{Name: "nearObject", Text: get(`nearObject: { id: "`+zeroUUID+`" }, limit: 5`, " distance")},
		{Name: "bm25", Text: get(`bm25: { query: "search words" }, limit: 10`, " score")},
		{Name: "hybrid", Text: hybrid},
		{Name: "where filter", Text: get(`where: { path: ["name"], operator: Equal, valueText: "value" }, limit: 10`, "")},
		{Name: "Aggregate", Text: fmt.Sprintf("{\n  Aggregate {\n    %s {\n      meta { count }\n    }\n  }\n}", c)},
		{Name: "REST: GET schema", Text: "GET /v1/schema"},
		{Name: "REST: GET object", Text: fmt.Sprintf("GET /v1/objects/%s/%s", c, zeroUUID)},
		{Name: "REST: POST object", Text: fmt.Sprintf("POST /v1/objects\n{\"class\": \"%s\", \"properties\": {}}", c)},
		// The class-scoped paths: weaviate-server ignores ?class= on a delete and deletes by id
		// in whichever collection holds it; the body names the class as well, as PATCH expects.
		{Name: "REST: PATCH object", Text: fmt.Sprintf("PATCH /v1/objects/%s/%s\n{\"class\": \"%s\", \"properties\": {}}", c, zeroUUID, c)},
		{Name: "REST: DELETE object", Text: fmt.Sprintf("DELETE /v1/objects/%s/%s", c, zeroUUID)},
	}, nil
}
