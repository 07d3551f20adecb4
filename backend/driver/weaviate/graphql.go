package weaviate

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"app/backend/driver"
)

// phoneFields are the sub-fields of a phoneNumber property.
const phoneFields = "input internationalFormatted countryCode nationalFormatted national valid defaultCountry"

// selection renders the GraphQL selection of one property (sub-selections for
// objects, geo coordinates, phone numbers and references).
func selection(p property) string {
	b, _ := p.base()
	switch b {
	case "object":
		parts := make([]string, 0, len(p.NestedProperties))
		for _, n := range p.NestedProperties {
			parts = append(parts, selection(n))
		}
		return p.Name + " { " + strings.Join(parts, " ") + " }"
	case "geoCoordinates":
		return p.Name + " { latitude longitude }"
	case "phoneNumber":
		return p.Name + " { " + phoneFields + " }"
	case "reference":
		parts := make([]string, 0, len(p.DataType))
		for _, t := range p.DataType {
			parts = append(parts, "... on "+t+" { _additional { id } }")
		}
		return p.Name + " { __typename " + strings.Join(parts, " ") + " }"
	}
	return p.Name
}

// additional renders the _additional selection for the grid: id and the
// vector (or the named vectors).
func additional(c *class) string {
	if names := c.namedVectors(); len(names) > 0 {
		return "_additional { id vectors { " + strings.Join(names, " ") + " } }"
	}
	if c.noVectors() {
		return "_additional { id }"
	}
	return "_additional { id vector }"
}

// browseQuery renders the GraphQL Get for a filtered or sorted page.
func browseQuery(c *class, offset, limit int, filters []driver.Filter, sorts []driver.Sort) (string, error) {
	args := []string{"limit: " + strconv.Itoa(limit)}
	if c.tenant != "" {
		args = append(args, "tenant: "+quote(c.tenant))
	}
	if offset > 0 {
		args = append(args, "offset: "+strconv.Itoa(offset))
	}
	w, ok, err := buildWhere(c, filters)
	if err != nil {
		return "", err
	}
	if ok {
		args = append(args, "where: "+w.String())
	}
	s, err := sortArg(c, sorts)
	if err != nil {
		return "", err
	}
	if s != "" {
		args = append(args, "sort: "+s)
	}
	fields := make([]string, 0, len(c.Properties)+1)
	for _, p := range c.Properties {
		fields = append(fields, selection(p))
	}
	fields = append(fields, additional(c))
	return "{ Get { " + c.Class + "(" + strings.Join(args, ", ") + ") { " + strings.Join(fields, " ") + " } } }", nil
}

// countQuery renders the Aggregate that counts the matching rows.
func countQuery(c *class, filters []driver.Filter) (string, error) {
	w, ok, err := buildWhere(c, filters)
	if err != nil {
		return "", err
	}
	var args []string
	if c.tenant != "" {
		args = append(args, "tenant: "+quote(c.tenant))
	}
	if ok {
		args = append(args, "where: "+w.String())
	}
	in := ""
	if len(args) > 0 {
		in = "(" + strings.Join(args, ", ") + ")"
	}
	return "{ Aggregate { " + c.Class + in + " { meta { count } } } }", nil
}

// graphqlAnswer is the body of POST /v1/graphql.
type graphqlAnswer struct {
	Data   json.RawMessage `json:"data"`
	Errors []gqlError      `json:"errors"`
}

// graphql posts a query and returns its data. GraphQL errors (HTTP 200 with
// errors) are returned as KindQueryFailed errors.
func (d *Driver) graphql(ctx context.Context, query string) (json.RawMessage, error) {
	a, err := d.postGraphQL(ctx, query)
	if err != nil {
		return nil, err
	}
	if len(a.Errors) > 0 {
		return nil, d.gqlErrors(a.Errors)
	}
	return a.Data, nil
}

// postGraphQL sends a query and decodes the answer, leaving its errors array to the caller
// (the editor explains them against the parsed query; internal queries do not).
func (d *Driver) postGraphQL(ctx context.Context, query string) (*graphqlAnswer, error) {
	body, _ := json.Marshal(map[string]string{"query": query})
	st, resp, err := d.call(ctx, http.MethodPost, "/v1/graphql", nil, body)
	if err != nil {
		return nil, err
	}
	if st != http.StatusOK {
		if d.noteGraphQLOff(st, resp) {
			if d.namespaced() {
				return nil, driver.Errorf(driver.KindUnsupported, "this cluster has namespaces (Weaviate 1.38+), which turn GraphQL off: the grid's filters, sorts and counts read over gRPC instead, and in the editor REST lines work (e.g. GET /v1/objects?class=<collection>)")
			}
			return nil, driver.Errorf(driver.KindUnsupported, "this server has GraphQL turned off (as new Weaviate Cloud clusters do): the grid's filters, sorts and counts read over gRPC instead, and in the editor REST lines work (e.g. GET /v1/objects?class=<collection>)")
		}
		return nil, d.statusError(st, resp, "the GraphQL query")
	}
	var a graphqlAnswer
	if err := json.Unmarshal(resp, &a); err != nil {
		return nil, driver.Wrap(driver.KindQueryFailed, err, "the GraphQL answer is not valid JSON")
	}
	return &a, nil
}

func (d *Driver) gqlErrors(errs []gqlError) error {
	msgs := make([]string, 0, len(errs))
	for _, e := range errs {
		msgs = append(msgs, d.redact(e.Message))
	}
	msg := strings.Join(msgs, "; ")
	if err := inactiveTenant(msg, "the GraphQL query"); err != nil {
		return err
	}
	if err := notPermitted(msg); err != nil {
		return err
	}
	if strings.Contains(msg, "query maximum results exceeded") {
		return driver.Errorf(driver.KindUnsupported, "the database refuses to page past its result maximum (QUERY_MAXIMUM_RESULTS, default %d rows): %s", MaxResults, msg)
	}
	return driver.Errorf(driver.KindQueryFailed, "GraphQL error: %s", msg)
}

// browseGraphQL runs a generated Get and shapes the answer like a REST page.
func (d *Driver) browseGraphQL(ctx context.Context, c *class, query string) (*driver.Grid, error) {
	data, err := d.graphql(ctx, query)
	if err != nil {
		return nil, err
	}
	var out struct {
		Get map[string][]map[string]json.RawMessage `json:"Get"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, driver.Wrap(driver.KindQueryFailed, err, "the GraphQL answer for %s cannot be read", c.Class)
	}
	cols := c.columns()
	names := c.namedVectors()
	objs := out.Get[c.Class]
	g := &driver.Grid{Columns: withKinds(cols), Rows: make([][]any, 0, len(objs))}
	for _, o := range objs {
		row := make([]any, len(cols))
		var add struct {
			ID      string                     `json:"id"`
			Vector  json.RawMessage            `json:"vector"`
			Vectors map[string]json.RawMessage `json:"vectors"`
		}
		if raw, ok := o["_additional"]; ok {
			_ = json.Unmarshal(raw, &add)
		}
		row[0] = add.ID
		for i, p := range c.Properties {
			raw, ok := o[p.Name]
			if !ok {
				continue
			}
			if p.isRef() {
				row[i+1] = refCell(raw)
				continue
			}
			if b, _ := p.base(); b == "phoneNumber" {
				row[i+1] = phoneCell(raw)
				continue
			}
			row[i+1] = cell(raw)
		}
		if len(names) > 0 {
			row[len(cols)-1] = vectorsText(names, add.Vectors)
		} else if v := string(add.Vector); len(v) > 0 && v != "null" && v != "[]" {
			// GraphQL answers [] for an object without a vector; REST leaves it out.
			row[len(cols)-1] = jsonText(add.Vector)
		}
		g.Rows = append(g.Rows, row)
	}
	return g, nil
}

// phoneNumber is a phone number as REST writes it (Weaviate's models.PhoneNumber: fields in
// this order, empty ones left out).
type phoneNumber struct {
	CountryCode            uint64 `json:"countryCode,omitempty"`
	DefaultCountry         string `json:"defaultCountry,omitempty"`
	Input                  string `json:"input,omitempty"`
	InternationalFormatted string `json:"internationalFormatted,omitempty"`
	National               uint64 `json:"national,omitempty"`
	NationalFormatted      string `json:"nationalFormatted,omitempty"`
	Valid                  bool   `json:"valid,omitempty"`
}

// phoneCell renders a GraphQL phone number (every sub-field selected, empty ones too) the
// way REST shows it.
func phoneCell(raw json.RawMessage) any {
	var p phoneNumber
	if json.Unmarshal(raw, &p) != nil || string(raw) == "null" {
		return cell(raw)
	}
	b, _ := json.Marshal(p)
	return string(b)
}

// refCell renders GraphQL reference results the way REST shows them: a JSON
// array of {"beacon": "weaviate://localhost/<Class>/<id>", "href": ...}.
func refCell(raw json.RawMessage) any {
	var items []struct {
		Typename   string `json:"__typename"`
		Additional struct {
			ID string `json:"id"`
		} `json:"_additional"`
	}
	if json.Unmarshal(raw, &items) != nil || items == nil {
		return cell(raw)
	}
	refs := make([]objectRef, 0, len(items))
	for _, it := range items {
		refs = append(refs, objectRef{class: it.Typename, id: it.Additional.ID})
	}
	return beaconsCell(refs)
}

// objectRef is one referenced object: its collection and uuid.
type objectRef struct{ class, id string }

// beaconsCell renders references as the REST page shows them, for the GraphQL and the gRPC
// read paths alike: a JSON array of {"beacon": "weaviate://localhost/<Class>/<id>", "href": ...}.
func beaconsCell(refs []objectRef) string {
	type beacon struct {
		Beacon string `json:"beacon"`
		Href   string `json:"href"`
	}
	out := make([]beacon, 0, len(refs))
	for _, r := range refs {
		out = append(out, beacon{Beacon: "weaviate://localhost/" + r.class + "/" + r.id, Href: "/v1/objects/" + r.class + "/" + r.id})
	}
	b, _ := json.Marshal(out)
	return string(b)
}
