package weaviate

// The editor without GraphQL (issue 19, item 4). On a server with GraphQL off, a Get or an
// Aggregate written in the editor (or sent by an AI client's execute_query) is translated to
// the gRPC request it means, one request per collection, and the answers are put together
// into the document GraphQL would have returned: the same keys (aliases included), the same
// order, the same value types (a score as a string, a distance as a float32). The grid, the
// JSON view and the row cap then shape it exactly as they shape a GraphQL answer, so a saved
// query keeps working while its author moves off GraphQL. What has no gRPC equivalent is
// refused with the reason and the nearest thing that works; nothing is sent half-understood.

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"

	"app/backend/driver"
)

// translatedNotice is the note every translated answer carries.
const translatedNotice = "This server has GraphQL off: the query was translated to its gRPC API and answered in GraphQL's shape"

// untranslatable refuses what has no gRPC equivalent, saying what works instead.
func untranslatable(format string, args ...any) error {
	return driver.Errorf(driver.KindUnsupported, "this server has GraphQL off, and "+format, args...)
}

// translator holds one query's document (for fragments), where it reads collections'
// schemas, and the two gRPC calls it makes.
type translator struct {
	doc       *ast.QueryDocument
	classFor  func(context.Context, string) (*class, error)
	search    func(context.Context, *pb.SearchRequest) (*pb.SearchReply, error)
	aggregate func(context.Context, *pb.AggregateRequest) (*pb.AggregateReply, error)

	// namespaces: the cluster has namespaces, so "acme:Article" may name a collection
	// (collectionOf).
	namespaces bool
}

// grpcCalls are the driver's own Search and Aggregate, with the credential.
func (d *Driver) grpcCalls() (func(context.Context, *pb.SearchRequest) (*pb.SearchReply, error), func(context.Context, *pb.AggregateRequest) (*pb.AggregateReply, error)) {
	search := func(ctx context.Context, r *pb.SearchRequest) (*pb.SearchReply, error) {
		client, err := d.rpc()
		if err != nil {
			return nil, err
		}
		reply, err := client.Search(d.rpcContext(ctx), r)
		if err != nil {
			return nil, d.rpcError(ctx, err, "the translated Get of "+r.Collection)
		}
		return reply, nil
	}
	aggregate := func(ctx context.Context, r *pb.AggregateRequest) (*pb.AggregateReply, error) {
		client, err := d.rpc()
		if err != nil {
			return nil, err
		}
		reply, err := client.Aggregate(d.rpcContext(ctx), r)
		if err != nil {
			return nil, d.rpcError(ctx, err, "the translated Aggregate of "+r.Collection)
		}
		return reply, nil
	}
	return search, aggregate
}

// execTranslated answers a GraphQL read over gRPC.
func (d *Driver) execTranslated(ctx context.Context, doc *ast.QueryDocument, op *ast.OperationDefinition) (*driver.Result, error) {
	if len(op.VariableDefinitions) > 0 {
		return nil, untranslatable("a query with variables cannot be translated to its gRPC API: write the values into the query")
	}
	t := translator{doc: doc, classFor: d.classFor, namespaces: d.namespaced()}
	t.search, t.aggregate = d.grpcCalls()
	return t.run(ctx, op, d.getGrid)
}

// run translates and answers op; grid shapes a Get's answer as the editor's grid.
func (t translator) run(ctx context.Context, op *ast.OperationDefinition, grid func(context.Context, *ast.QueryDocument, *ast.OperationDefinition, json.RawMessage) (*driver.Grid, string, bool)) (*driver.Result, error) {
	doc := t.doc
	data := map[string]any{}
	for _, top := range fields(doc, op.SelectionSet, 0) {
		switch top.Name {
		case "__typename":
			data[key(top)] = "WeaviateObj"
		case "Get", "Aggregate":
			colls := map[string]any{}
			for _, cf := range fields(doc, top.SelectionSet, 0) {
				if err := noVariables(cf.Arguments); err != nil {
					return nil, err
				}
				var v any
				var err error
				switch {
				case cf.Name == "__typename":
					v = top.Name + "ObjectsObj"
				case top.Name == "Get":
					v, err = t.get(ctx, cf)
				default:
					v, err = t.aggregateOf(ctx, cf)
				}
				if err != nil {
					return nil, err
				}
				_, k := collectionOf(ctx, t.namespaces, t.classFor, cf)
				colls[k] = v
			}
			data[key(top)] = colls
		default:
			return nil, untranslatable("%s cannot be translated to its gRPC API (only Get and Aggregate can): read objects with { Get { <Collection> { ... } } } or a REST line such as GET /v1/objects?class=<Collection>", top.Name)
		}
	}
	raw, err := marshalREST(data)
	if err != nil {
		return nil, driver.Wrap(driver.KindQueryFailed, err, "the translated answer cannot be written")
	}
	if g, table, ok := grid(ctx, doc, op, raw); ok {
		return &driver.Result{Kind: driver.ResultGrid, Grid: g, Table: table, Notice: translatedNotice}, nil
	}
	return &driver.Result{Kind: driver.ResultJSON, JSON: formatJSON(raw, 200), Notice: translatedNotice}, nil
}

// noVariables refuses arguments that name a variable (the editor sends none).
func noVariables(args ast.ArgumentList) error {
	var has func(v *ast.Value) bool
	has = func(v *ast.Value) bool {
		if v == nil {
			return false
		}
		if v.Kind == ast.Variable {
			return true
		}
		for _, c := range v.Children {
			if has(c.Value) {
				return true
			}
		}
		return false
	}
	for _, a := range args {
		if has(a.Value) {
			return untranslatable("the variable $%s cannot be translated to its gRPC API: write the value into the query", firstVariable(a.Value))
		}
	}
	return nil
}

func firstVariable(v *ast.Value) string {
	if v.Kind == ast.Variable {
		return v.Raw
	}
	for _, c := range v.Children {
		if s := firstVariable(c.Value); s != "" {
			return s
		}
	}
	return ""
}

// collectionOf is the collection a Get's or an Aggregate's field names, and the key its
// answer goes under. On a cluster with namespaces an operator's key writes a collection as
// it reads it, { Get { acme:Article { ... } } }, which GraphQL's syntax takes for the alias
// acme of Article: where the cluster has namespaces and acme:Article is a collection, the
// field names it and is answered under that name. Otherwise it is the field's name, answered
// under its response key (the alias, if any).
func collectionOf(ctx context.Context, namespaces bool, classFor func(context.Context, string) (*class, error), cf *ast.Field) (name, answerKey string) {
	if namespaces && cf.Alias != "" && cf.Alias != cf.Name && namespaceName.MatchString(cf.Alias) {
		q := cf.Alias + namespaceSeparator + cf.Name
		if _, err := classFor(ctx, q); err == nil {
			return q, q
		}
	}
	return cf.Name, key(cf)
}

// class resolves a collection named in the query, answering as GraphQL would.
func (t translator) class(ctx context.Context, name, parent string) (*class, error) {
	c, err := t.classFor(ctx, name)
	if driver.KindOf(err) == driver.KindNotFound {
		return nil, driver.Errorf(driver.KindInvalidArgument, "Cannot query field %q on type %q (no collection of that name)", name, parent)
	}
	return c, err
}

// argValue is an argument's value as Go values (int64, float64, string, bool, []any,
// map[string]any, nil).
func argValue(a *ast.Argument) (any, error) {
	v, err := a.Value.Value(nil)
	if err != nil {
		return nil, invalid("the argument %s cannot be read: %v", a.Name, err)
	}
	return v, nil
}

// picked is one field of a collection's selection set, as the answer needs it.
type picked struct {
	key      string
	kind     selKind
	name     string              // property name, or the _additional member
	nested   []picked            // object, geo and phone members; _additional members
	targets  map[string][]picked // reference: target collection → its fields
	refOrder []string
}

type selKind int

const (
	selScalar selKind = iota
	selObject
	selRef
	selAdditional
	selTypename
)

// fieldsOf builds the property and metadata requests for a selection set on c.
func (t translator) fieldsOf(ctx context.Context, c *class, set ast.SelectionSet, props *pb.PropertiesRequest, md *pb.MetadataRequest, depth int) ([]picked, error) {
	if depth > 5 {
		return nil, untranslatable("references nested deeper than five cannot be translated")
	}
	var out []picked
	structured := map[string]bool{} // references and objects selected so far
	for _, f := range fields(t.doc, set, 0) {
		if len(f.Arguments) > 0 {
			return nil, invalid("the field %s takes no arguments in a Get", f.Name)
		}
		if p, ok := c.property(f.Name); ok && len(f.SelectionSet) > 0 {
			// gRPC answers a reference or an object once per property: two selections of it
			// (under two aliases) could not be told apart in the answer.
			if structured[p.Name] {
				return nil, untranslatable("the property %s is selected twice; select it once, with every member you need", p.Name)
			}
			structured[p.Name] = true
		}
		switch f.Name {
		case "__typename":
			out = append(out, picked{key: key(f), kind: selTypename, name: c.Class})
			continue
		case "_additional":
			add, err := additionalOf(t.doc, f, c, md)
			if err != nil {
				return nil, err
			}
			out = append(out, add)
			continue
		}
		p, ok := c.property(f.Name)
		if !ok {
			return nil, invalid("Cannot query field %q on type %q", f.Name, c.Class)
		}
		b, _ := p.base()
		switch {
		case p.isRef():
			s, err := t.reference(ctx, c, p, f, props, depth)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		case b == "object":
			if len(f.SelectionSet) == 0 {
				return nil, invalid("the object property %s needs a selection of its members, e.g. %s { ... }", p.Name, p.Name)
			}
			req := &pb.ObjectPropertiesRequest{PropName: p.Name}
			nested, err := t.objectFields(p, f.SelectionSet, req)
			if err != nil {
				return nil, err
			}
			props.ObjectProperties = append(props.ObjectProperties, req)
			out = append(out, picked{key: key(f), kind: selObject, name: p.Name, nested: nested})
		case b == "geoCoordinates" || b == "phoneNumber":
			if len(f.SelectionSet) == 0 {
				return nil, invalid("the %s property %s needs a selection of its members, e.g. %s { %s }", b, p.Name, p.Name, map[string]string{"geoCoordinates": "latitude longitude", "phoneNumber": "input internationalFormatted"}[b])
			}
			var nested []picked
			for _, m := range fields(t.doc, f.SelectionSet, 0) {
				nested = append(nested, picked{key: key(m), kind: selScalar, name: m.Name})
			}
			props.NonRefProperties = appendOnce(props.NonRefProperties, p.Name)
			out = append(out, picked{key: key(f), kind: selObject, name: p.Name, nested: nested})
		default:
			if len(f.SelectionSet) > 0 {
				return nil, invalid("Field %q of type %q must not have a sub picked", f.Name, p.Type())
			}
			props.NonRefProperties = appendOnce(props.NonRefProperties, p.Name)
			out = append(out, picked{key: key(f), kind: selScalar, name: p.Name})
		}
	}
	return out, nil
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// objectFields selects the members of an object property.
func (t translator) objectFields(p property, set ast.SelectionSet, req *pb.ObjectPropertiesRequest) ([]picked, error) {
	var out []picked
	for _, f := range fields(t.doc, set, 0) {
		var n *property
		for i := range p.NestedProperties {
			if p.NestedProperties[i].Name == f.Name {
				n = &p.NestedProperties[i]
			}
		}
		if n == nil {
			return nil, invalid("Cannot query field %q on the object property %q", f.Name, p.Name)
		}
		if b, _ := n.base(); b == "object" {
			sub := &pb.ObjectPropertiesRequest{PropName: n.Name}
			nested, err := t.objectFields(*n, f.SelectionSet, sub)
			if err != nil {
				return nil, err
			}
			req.ObjectProperties = append(req.ObjectProperties, sub)
			out = append(out, picked{key: key(f), kind: selObject, name: n.Name, nested: nested})
			continue
		}
		req.PrimitiveProperties = appendOnce(req.PrimitiveProperties, n.Name)
		out = append(out, picked{key: key(f), kind: selScalar, name: n.Name})
	}
	return out, nil
}

// reference selects a cross-reference: each `... on Target { ... }` becomes a reference
// request for that target collection.
func (t translator) reference(ctx context.Context, c *class, p property, f *ast.Field, props *pb.PropertiesRequest, depth int) (picked, error) {
	s := picked{key: key(f), kind: selRef, name: p.Name, targets: map[string][]picked{}}
	var walk func(set ast.SelectionSet) error
	walk = func(set ast.SelectionSet) error {
		for _, sel := range set {
			var cond string
			var sub ast.SelectionSet
			switch x := sel.(type) {
			case *ast.InlineFragment:
				cond, sub = x.TypeCondition, x.SelectionSet
			case *ast.FragmentSpread:
				def := t.doc.Fragments.ForName(x.Name)
				if def == nil {
					return invalid("Unknown fragment %q", x.Name)
				}
				cond, sub = def.TypeCondition, def.SelectionSet
			case *ast.Field:
				return invalid("the reference %s is read with ... on <Collection> { ... }, not with the field %s", p.Name, x.Name)
			}
			if cond == "" {
				if err := walk(sub); err != nil {
					return err
				}
				continue
			}
			target := ""
			for _, dt := range p.DataType {
				// An operator's key reads acme:Article's reference to acme:Author with
				// ... on Author (a type condition holds no ":"; references stay in their
				// namespace).
				if _, short := tableGroup(dt); dt == cond || t.namespaces && short == cond {
					target = dt
				}
			}
			if target == "" {
				return invalid("the reference %s of %s points to %s, not to %s", p.Name, c.Class, strings.Join(p.DataType, " or "), cond)
			}
			if _, done := s.targets[target]; done {
				return untranslatable("the reference %s names %s twice; select its fields in one ... on %s", p.Name, target, target)
			}
			tc, err := t.class(ctx, target, c.Class)
			if err != nil {
				return err
			}
			rp := &pb.RefPropertiesRequest{ReferenceProperty: p.Name, TargetCollection: target, Properties: &pb.PropertiesRequest{}, Metadata: &pb.MetadataRequest{}}
			nested, err := t.fieldsOf(ctx, tc, sub, rp.Properties, rp.Metadata, depth+1)
			if err != nil {
				return err
			}
			props.RefProperties = append(props.RefProperties, rp)
			s.targets[target] = nested
			s.refOrder = append(s.refOrder, target)
		}
		return nil
	}
	if len(f.SelectionSet) == 0 {
		return s, invalid("the reference %s needs a selection, e.g. %s { ... on %s { _additional { id } } }", p.Name, p.Name, p.DataType[0])
	}
	return s, walk(f.SelectionSet)
}

// additionalOf selects the _additional members gRPC has, and asks for their metadata.
func additionalOf(doc *ast.QueryDocument, f *ast.Field, c *class, md *pb.MetadataRequest) (picked, error) {
	s := picked{key: key(f), kind: selAdditional}
	for _, af := range fields(doc, f.SelectionSet, 0) {
		m := picked{key: key(af), kind: selScalar, name: af.Name}
		switch af.Name {
		case "id":
			md.Uuid = true
		case "vector":
			md.Vector = true
		case "vectors":
			for _, v := range fields(doc, af.SelectionSet, 0) {
				md.Vectors = appendOnce(md.Vectors, v.Name)
				m.nested = append(m.nested, picked{key: key(v), kind: selScalar, name: v.Name})
			}
			if len(m.nested) == 0 {
				return s, invalid("_additional { vectors } needs the names of the vectors, e.g. vectors { %s }", strings.Join(c.namedVectors(), " "))
			}
		case "distance":
			md.Distance = true
		case "certainty":
			// GraphQL computes certainty in float64 from the float32 distance (1 - d/2);
			// gRPC's own certainty is a float32 and reads differently.
			md.Distance = true
		case "score":
			md.Score = true
		case "explainScore":
			md.ExplainScore = true
		case "creationTimeUnix":
			md.CreationTimeUnix = true
		case "lastUpdateTimeUnix":
			md.LastUpdateTimeUnix = true
		case "isConsistent":
			md.IsConsistent = true
		case "__typename":
		default:
			return s, untranslatable("_additional { %s } cannot be translated to its gRPC API; the members it has are id, vector, vectors, distance, certainty, score, explainScore, creationTimeUnix, lastUpdateTimeUnix and isConsistent", af.Name)
		}
		s.nested = append(s.nested, m)
	}
	return s, nil
}

// get translates one collection of a Get into a gRPC Search and answers its objects.
func (t translator) get(ctx context.Context, cf *ast.Field) (any, error) {
	name, _ := collectionOf(ctx, t.namespaces, t.classFor, cf)
	c, err := t.class(ctx, name, "GetObjectsObj")
	if err != nil {
		return nil, err
	}
	req := &pb.SearchRequest{Collection: c.Class, Properties: &pb.PropertiesRequest{}, Metadata: &pb.MetadataRequest{}, Uses_127Api: true}
	sel, err := t.fieldsOf(ctx, c, cf.SelectionSet, req.Properties, req.Metadata, 0)
	if err != nil {
		return nil, err
	}
	if len(sel) == 0 {
		return nil, invalid("the Get of %s selects no fields; add _additional { id } or a property", c.Class)
	}
	if err := searchArgs(c, cf.Arguments, req); err != nil {
		return nil, err
	}
	reply, err := t.search(ctx, req)
	if err != nil {
		return nil, err
	}
	out := make([]any, 0, len(reply.GetResults()))
	for _, r := range reply.GetResults() {
		out = append(out, shapeObject(sel, r.GetProperties(), r.GetMetadata()))
	}
	return out, nil
}

// searchArgs translates the arguments of a Get collection.
func searchArgs(c *class, args ast.ArgumentList, req *pb.SearchRequest) error {
	searches := 0
	for _, a := range args {
		v, err := argValue(a)
		if err != nil {
			return err
		}
		switch a.Name {
		case "limit", "offset", "autocut":
			n, ok := v.(int64)
			if !ok || n < 0 || n > 1<<31 {
				return invalid("%s must be a whole number from 0", a.Name)
			}
			switch a.Name {
			case "limit":
				req.Limit = uint32(n)
			case "offset":
				req.Offset = uint32(n)
			default:
				req.Autocut = uint32(n)
			}
		case "after":
			s, ok := v.(string)
			if !ok {
				return invalid("after must be a uuid string")
			}
			req.After = s
		case "tenant":
			s, ok := v.(string)
			if !ok {
				return invalid("tenant must be a string")
			}
			req.Tenant = s
		case "consistencyLevel":
			l, ok := map[any]pb.ConsistencyLevel{"ONE": pb.ConsistencyLevel_CONSISTENCY_LEVEL_ONE, "QUORUM": pb.ConsistencyLevel_CONSISTENCY_LEVEL_QUORUM, "ALL": pb.ConsistencyLevel_CONSISTENCY_LEVEL_ALL}[v]
			if !ok {
				return invalid("consistencyLevel must be ONE, QUORUM or ALL")
			}
			req.ConsistencyLevel = &l
		case "where":
			f, err := whereFilter(c, v)
			if err != nil {
				return err
			}
			req.Filters = f
		case "sort":
			s, err := sortBy(v)
			if err != nil {
				return err
			}
			req.SortBy = s
		case "nearVector", "nearObject", "nearText", "bm25", "hybrid":
			searches++
			if err := searchArg(a.Name, v, req); err != nil {
				return err
			}
		case "groupBy", "group":
			return untranslatable("%s cannot be translated to its gRPC API: read the rows with a where filter per group value, or count them with Aggregate", a.Name)
		default:
			return untranslatable("the Get argument %s cannot be translated to its gRPC API (translated: limit, offset, after, autocut, tenant, consistencyLevel, where, sort, nearVector, nearObject, nearText, bm25, hybrid)", a.Name)
		}
	}
	if searches > 1 {
		return invalid("a Get takes one search (nearVector, nearObject, nearText, bm25 or hybrid), not %d", searches)
	}
	return nil
}

// object reads an input object argument.
func object(name string, v any) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalid("%s must be an object, e.g. %s: { ... }", name, name)
	}
	return m, nil
}

func floats(name string, v any) ([]float64, error) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, invalid("%s must be a list of numbers", name)
	}
	out := make([]float64, len(list))
	for i, x := range list {
		f, ok := numeric(x)
		if !ok {
			return nil, invalid("%s must be a list of numbers (one vector; multi-vectors cannot be translated)", name)
		}
		out[i] = f
	}
	return out, nil
}

func numeric(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

func strs(name string, v any) ([]string, error) {
	if s, ok := v.(string); ok {
		return []string{s}, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, invalid("%s must be a list of strings", name)
	}
	out := make([]string, len(list))
	for i, x := range list {
		s, ok := x.(string)
		if !ok {
			return nil, invalid("%s must be a list of strings", name)
		}
		out[i] = s
	}
	return out, nil
}

// searchArg translates one search argument; members it does not know are refused.
func searchArg(name string, v any, req *pb.SearchRequest) error {
	m, err := object(name, v)
	if err != nil {
		return err
	}
	known := map[string][]string{
		"nearVector": {"vector", "distance", "certainty", "targetVectors"},
		"nearObject": {"id", "distance", "certainty", "targetVectors"},
		"nearText":   {"concepts", "distance", "certainty", "targetVectors"},
		"bm25":       {"query", "properties"},
		"hybrid":     {"query", "alpha", "vector", "properties", "fusionType", "targetVectors"},
	}[name]
	for k := range m {
		if !slices.Contains(known, k) {
			return untranslatable("%s { %s } cannot be translated to its gRPC API (translated: %s)", name, k, strings.Join(known, ", "))
		}
	}
	var targets *pb.Targets
	if tv, ok := m["targetVectors"]; ok {
		names, err := strs(name+".targetVectors", tv)
		if err != nil {
			return err
		}
		targets = &pb.Targets{TargetVectors: names}
	}
	bound := func(k string) (*float64, error) {
		x, ok := m[k]
		if !ok {
			return nil, nil
		}
		f, isNum := numeric(x)
		if !isNum {
			return nil, invalid("%s.%s must be a number", name, k)
		}
		return &f, nil
	}
	dist, err := bound("distance")
	if err != nil {
		return err
	}
	cert, err := bound("certainty")
	if err != nil {
		return err
	}
	text := func(k string) (string, error) {
		s, ok := m[k].(string)
		if !ok || strings.TrimSpace(s) == "" {
			return "", invalid("%s.%s must be a non-empty string", name, k)
		}
		return s, nil
	}
	var props []string
	if p, ok := m["properties"]; ok {
		if props, err = strs(name+".properties", p); err != nil {
			return err
		}
	}
	switch name {
	case "nearVector":
		vec, err := floats("nearVector.vector", m["vector"])
		if err != nil {
			return err
		}
		req.NearVector = &pb.NearVector{Vectors: []*pb.Vectors{packedVector(vec)}, Distance: dist, Certainty: cert, Targets: targets}
	case "nearObject":
		id, err := text("id")
		if err != nil {
			return err
		}
		req.NearObject = &pb.NearObject{Id: id, Distance: dist, Certainty: cert, Targets: targets}
	case "nearText":
		concepts, err := strs("nearText.concepts", m["concepts"])
		if err != nil || len(concepts) == 0 {
			return invalid("nearText.concepts must be a list of strings")
		}
		req.NearText = &pb.NearTextSearch{Query: concepts, Distance: dist, Certainty: cert, Targets: targets}
	case "bm25":
		q, err := text("query")
		if err != nil {
			return err
		}
		req.Bm25Search = &pb.BM25{Query: q, Properties: props}
	case "hybrid":
		q, err := text("query")
		if err != nil {
			return err
		}
		h := &pb.Hybrid{Query: q, Alpha: defaultAlpha, Properties: props, Targets: targets}
		if a, ok := m["alpha"]; ok {
			f, isNum := numeric(a)
			if !isNum {
				return invalid("hybrid.alpha must be a number from 0 to 1")
			}
			h.Alpha = float32(f)
		}
		if vec, ok := m["vector"]; ok {
			fs, err := floats("hybrid.vector", vec)
			if err != nil {
				return err
			}
			h.Vectors = []*pb.Vectors{packedVector(fs)}
		}
		switch m["fusionType"] {
		case nil:
		case "rankedFusion":
			h.FusionType = pb.Hybrid_FUSION_TYPE_RANKED
		case "relativeScoreFusion":
			h.FusionType = pb.Hybrid_FUSION_TYPE_RELATIVE_SCORE
		default:
			return invalid("hybrid.fusionType must be rankedFusion or relativeScoreFusion")
		}
		req.HybridSearch = h
	}
	return nil
}

func packedVector(v []float64) *pb.Vectors {
	return &pb.Vectors{VectorBytes: packFloat32(v), Type: pb.Vectors_VECTOR_TYPE_SINGLE_FP32}
}

// sortBy translates sort: [{path: [...], order: asc|desc}] (or one such object).
func sortBy(v any) ([]*pb.SortBy, error) {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	var out []*pb.SortBy
	for _, x := range list {
		m, err := object("sort", x)
		if err != nil {
			return nil, err
		}
		path, err := strs("sort.path", m["path"])
		if err != nil || len(path) == 0 {
			return nil, invalid("sort.path must name a property, e.g. sort: [{path: [\"title\"], order: asc}]")
		}
		asc := true
		switch m["order"] {
		case nil, "asc":
		case "desc":
			asc = false
		default:
			return nil, invalid("sort.order must be asc or desc")
		}
		out = append(out, &pb.SortBy{Path: path, Ascending: asc})
	}
	return out, nil
}

// whereFilter translates a where input object into gRPC filters.
func whereFilter(c *class, v any) (*pb.Filters, error) {
	m, err := object("where", v)
	if err != nil {
		return nil, err
	}
	opName, _ := m["operator"].(string)
	op, ok := grpcOperators[opName]
	if !ok {
		return nil, invalid("where.operator %q is not a Weaviate filter operator", opName)
	}
	f := &pb.Filters{Operator: op}
	if operands, ok := m["operands"]; ok {
		list, isList := operands.([]any)
		if !isList || len(list) == 0 {
			return nil, invalid("where.operands must be a list of filters")
		}
		for _, o := range list {
			sub, err := whereFilter(c, o)
			if err != nil {
				return nil, err
			}
			f.Filters = append(f.Filters, sub)
		}
		return f, nil
	}
	path, err := strs("where.path", m["path"])
	if err != nil || len(path) == 0 {
		return nil, invalid("where.path must name a property, e.g. where: {path: [\"title\"], operator: Equal, valueText: \"x\"}")
	}
	if f.Target, err = filterTarget(c, path); err != nil {
		return nil, err
	}
	values := 0
	for k, x := range m {
		if !strings.HasPrefix(k, "value") {
			if k != "path" && k != "operator" {
				return nil, untranslatable("where { %s } cannot be translated to its gRPC API", k)
			}
			continue
		}
		values++
		if err := filterValue(f, k, x); err != nil {
			return nil, err
		}
	}
	if values != 1 {
		return nil, invalid("a where filter on %s takes one value (valueText, valueInt, valueNumber, valueBoolean, valueDate or valueGeoRange)", strings.Join(path, "."))
	}
	return f, nil
}

// filterTarget turns a where path into a filter target: [property], or
// [reference, Collection, ...] through a cross-reference.
func filterTarget(c *class, path []string) (*pb.FilterTarget, error) {
	if len(path) == 1 {
		p := path[0]
		if p == "id" {
			p = "_id"
		}
		return &pb.FilterTarget{Target: &pb.FilterTarget_Property{Property: p}}, nil
	}
	if len(path)%2 == 0 {
		return nil, invalid("where.path %v must be [property] or [reference, Collection, property]", path)
	}
	inner, err := filterTarget(nil, path[2:])
	if err != nil {
		return nil, err
	}
	if c != nil {
		if p, ok := c.property(path[0]); ok && len(p.DataType) > 1 {
			return &pb.FilterTarget{Target: &pb.FilterTarget_MultiTarget{MultiTarget: &pb.FilterReferenceMultiTarget{On: path[0], Target: inner, TargetCollection: path[1]}}}, nil
		}
	}
	return &pb.FilterTarget{Target: &pb.FilterTarget_SingleTarget{SingleTarget: &pb.FilterReferenceSingleTarget{On: path[0], Target: inner}}}, nil
}

// filterValue sets the filter's value from valueText, valueInt, ...
func filterValue(f *pb.Filters, k string, x any) error {
	list, isList := x.([]any)
	bad := func() error { return invalid("where.%s has a value of the wrong type", k) }
	switch k {
	case "valueText", "valueString", "valueDate":
		if isList {
			s, err := strs("where."+k, list)
			if err != nil {
				return err
			}
			f.TestValue = &pb.Filters_ValueTextArray{ValueTextArray: &pb.TextArray{Values: s}}
			return nil
		}
		s, ok := x.(string)
		if !ok {
			return bad()
		}
		f.TestValue = &pb.Filters_ValueText{ValueText: s}
	case "valueInt":
		if isList {
			out := make([]int64, len(list))
			for i, e := range list {
				n, ok := e.(int64)
				if !ok {
					return bad()
				}
				out[i] = n
			}
			f.TestValue = &pb.Filters_ValueIntArray{ValueIntArray: &pb.IntArray{Values: out}}
			return nil
		}
		n, ok := x.(int64)
		if !ok {
			return bad()
		}
		f.TestValue = &pb.Filters_ValueInt{ValueInt: n}
	case "valueNumber":
		if isList {
			out := make([]float64, len(list))
			for i, e := range list {
				n, ok := numeric(e)
				if !ok {
					return bad()
				}
				out[i] = n
			}
			f.TestValue = &pb.Filters_ValueNumberArray{ValueNumberArray: &pb.NumberArray{Values: out}}
			return nil
		}
		n, ok := numeric(x)
		if !ok {
			return bad()
		}
		f.TestValue = &pb.Filters_ValueNumber{ValueNumber: n}
	case "valueBoolean":
		if isList {
			out := make([]bool, len(list))
			for i, e := range list {
				b, ok := e.(bool)
				if !ok {
					return bad()
				}
				out[i] = b
			}
			f.TestValue = &pb.Filters_ValueBooleanArray{ValueBooleanArray: &pb.BooleanArray{Values: out}}
			return nil
		}
		b, ok := x.(bool)
		if !ok {
			return bad()
		}
		f.TestValue = &pb.Filters_ValueBoolean{ValueBoolean: b}
	case "valueGeoRange":
		m, ok := x.(map[string]any)
		geo, _ := m["geoCoordinates"].(map[string]any)
		dist, _ := m["distance"].(map[string]any)
		lat, okLat := numeric(geo["latitude"])
		lon, okLon := numeric(geo["longitude"])
		max, okMax := numeric(dist["max"])
		if !ok || !okLat || !okLon || !okMax {
			return invalid("where.valueGeoRange must be {geoCoordinates: {latitude: ..., longitude: ...}, distance: {max: ...}}")
		}
		f.TestValue = &pb.Filters_ValueGeo{ValueGeo: &pb.GeoCoordinatesFilter{Latitude: float32(lat), Longitude: float32(lon), Distance: float32(max)}}
	default:
		return untranslatable("where { %s } cannot be translated to its gRPC API", k)
	}
	return nil
}

// shapeObject writes one object as GraphQL answers it: the selected keys in order.
func shapeObject(sel []picked, props *pb.PropertiesResult, md *pb.MetadataResult) map[string]any {
	o := map[string]any{}
	fields := props.GetNonRefProps().GetFields()
	for _, s := range sel {
		switch s.kind {
		case selTypename:
			o[s.key] = s.name
		case selAdditional:
			o[s.key] = shapeAdditional(s.nested, md)
		case selRef:
			o[s.key] = shapeRef(s, props.GetRefProps())
		case selObject:
			v, ok := fields[s.name]
			if _, null := v.GetKind().(*pb.Value_NullValue); !ok || null || v.GetKind() == nil {
				o[s.key] = nil
				continue
			}
			o[s.key] = pick(s.nested, grpcJSON(v))
		default:
			if v, ok := fields[s.name]; ok {
				o[s.key] = grpcJSON(v)
			} else {
				o[s.key] = nil
			}
		}
	}
	return o
}

// pick keeps the selected members of an object value (a list of objects member-wise).
func pick(sel []picked, v any) any {
	switch x := v.(type) {
	case []map[string]any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = pick(sel, e)
		}
		return out
	case map[string]any:
		o := map[string]any{}
		for _, s := range sel {
			if s.kind == selObject {
				o[s.key] = pick(s.nested, x[s.name])
			} else {
				o[s.key] = x[s.name]
			}
		}
		return o
	case nil:
		return nil // a null (or missing) object is null, not an object of nulls
	case phoneNumber:
		// Every member as GraphQL gives it: false, 0 and "" included (the struct's JSON
		// leaves them out, as REST does).
		return pick(sel, map[string]any{"countryCode": x.CountryCode, "defaultCountry": x.DefaultCountry, "input": x.Input,
			"internationalFormatted": x.InternationalFormatted, "national": x.National, "nationalFormatted": x.NationalFormatted, "valid": x.Valid})
	default:
		// geo values are structs: read them back as maps.
		b, err := json.Marshal(x)
		var m map[string]any
		if err != nil || json.Unmarshal(b, &m) != nil {
			return x
		}
		return pick(sel, m)
	}
}

// shapeRef lists the targets of a reference, each shaped by its collection's fragment.
func shapeRef(s picked, refs []*pb.RefPropertiesResult) any {
	var out []any
	found := false
	for _, rp := range refs {
		if rp.GetPropName() != s.name {
			continue
		}
		found = true
		for _, target := range rp.GetProperties() {
			sel, ok := s.targets[target.GetTargetCollection()]
			if !ok {
				continue
			}
			out = append(out, shapeObject(sel, target, target.GetMetadata()))
		}
	}
	if !found || out == nil {
		return nil
	}
	return out
}

// shapeAdditional writes _additional as GraphQL does: creation and update times and the
// score as strings, distance and certainty as float32s, vectors as float lists.
func shapeAdditional(sel []picked, md *pb.MetadataResult) map[string]any {
	o := map[string]any{}
	for _, s := range sel {
		var v any
		switch s.name {
		case "id":
			v = md.GetId()
		case "vector":
			if b := md.GetVectorBytes(); len(b) > 0 {
				v = vectorJSON(b, false)
			}
		case "vectors":
			vecs := map[string]any{}
			for _, n := range s.nested {
				var val any
				for _, vec := range md.GetVectors() {
					if vec.GetName() == n.name {
						val = vectorJSON(vec.GetVectorBytes(), vec.GetType() == pb.Vectors_VECTOR_TYPE_MULTI_FP32)
					}
				}
				vecs[n.key] = val
			}
			v = vecs
		case "distance":
			if md.GetDistancePresent() {
				v = graphQLFloat32(md.GetDistance())
			}
		case "certainty":
			if md.GetDistancePresent() {
				v = 1 - float64(md.GetDistance())/2
			}
		case "score":
			if md.GetScorePresent() {
				v = graphQLScore(md.GetScore())
			}
		case "explainScore":
			if md.GetExplainScorePresent() {
				v = md.GetExplainScore()
			}
		case "creationTimeUnix":
			if md.GetCreationTimeUnixPresent() {
				v = strconv.FormatInt(md.GetCreationTimeUnix(), 10)
			}
		case "lastUpdateTimeUnix":
			if md.GetLastUpdateTimeUnixPresent() {
				v = strconv.FormatInt(md.GetLastUpdateTimeUnix(), 10)
			}
		case "isConsistent":
			if md.IsConsistent != nil {
				v = md.GetIsConsistent()
			}
		case "__typename":
			v = "AdditionalProperties"
		}
		o[s.key] = v
	}
	return o
}

// aggregateOf translates one collection of an Aggregate into a gRPC Aggregate.
func (t translator) aggregateOf(ctx context.Context, cf *ast.Field) (any, error) {
	name, _ := collectionOf(ctx, t.namespaces, t.classFor, cf)
	c, err := t.class(ctx, name, "AggregateObjectsObj")
	if err != nil {
		return nil, err
	}
	req := &pb.AggregateRequest{Collection: c.Class}
	for _, a := range cf.Arguments {
		v, err := argValue(a)
		if err != nil {
			return nil, err
		}
		switch a.Name {
		case "where":
			if req.Filters, err = whereFilter(c, v); err != nil {
				return nil, err
			}
		case "tenant":
			s, ok := v.(string)
			if !ok {
				return nil, invalid("tenant must be a string")
			}
			req.Tenant = s
		case "objectLimit":
			n, ok := v.(int64)
			if !ok || n < 0 || n > 1<<31 {
				return nil, invalid("objectLimit must be a whole number from 0")
			}
			l := uint32(n)
			req.ObjectLimit = &l
		case "groupBy":
			return nil, untranslatable("Aggregate with groupBy cannot be translated to its gRPC API: run one Aggregate per value with a where filter on that property")
		default:
			return nil, untranslatable("the Aggregate argument %s cannot be translated to its gRPC API (translated: where, tenant, objectLimit); to aggregate search matches, run the search as a Get", a.Name)
		}
	}
	type member struct {
		key, name string
		nested    []member
		limit     *uint32
	}
	type part struct {
		key, prop string // prop "" is meta
		members   []member
	}
	var parts []part
	aggs := map[string]*pb.AggregateRequest_Aggregation{}
	var order []string
	for _, f := range fields(t.doc, cf.SelectionSet, 0) {
		if f.Name == "__typename" {
			parts = append(parts, part{key: key(f), prop: "__typename"})
			continue
		}
		pt := part{key: key(f)}
		if f.Name == "meta" {
			for _, m := range fields(t.doc, f.SelectionSet, 0) {
				if m.Name != "count" {
					return nil, untranslatable("meta { %s } cannot be translated to its gRPC API (meta { count } can)", m.Name)
				}
				req.ObjectsCount = true
				pt.members = append(pt.members, member{key: key(m), name: m.Name})
			}
			parts = append(parts, pt)
			continue
		}
		p, ok := c.property(f.Name)
		if !ok {
			return nil, invalid("Cannot query field %q on type \"Aggregate%s\"", f.Name, c.Class)
		}
		pt.prop = p.Name
		agg := aggs[p.Name]
		if agg == nil {
			agg = &pb.AggregateRequest_Aggregation{Property: p.Name}
			aggs[p.Name] = agg
			order = append(order, p.Name)
		}
		for _, m := range fields(t.doc, f.SelectionSet, 0) {
			mem := member{key: key(m), name: m.Name}
			if m.Name == "topOccurrences" {
				for _, a := range m.Arguments {
					v, err := argValue(a)
					n, ok := v.(int64)
					if err != nil || a.Name != "limit" || !ok || n < 0 || n > 1<<31 {
						return nil, invalid("topOccurrences takes limit: <whole number>")
					}
					l := uint32(n)
					mem.limit = &l
				}
				for _, o := range fields(t.doc, m.SelectionSet, 0) {
					if o.Name != "value" && o.Name != "occurs" {
						return nil, invalid("topOccurrences has value and occurs, not %s", o.Name)
					}
					mem.nested = append(mem.nested, member{key: key(o), name: o.Name})
				}
			} else if len(m.Arguments) > 0 {
				return nil, invalid("%s takes no arguments", m.Name)
			}
			if err := aggregation(agg, p, m.Name, mem.limit); err != nil {
				return nil, err
			}
			pt.members = append(pt.members, mem)
		}
		parts = append(parts, pt)
	}
	for _, name := range order {
		req.Aggregations = append(req.Aggregations, aggs[name])
	}
	reply, err := t.aggregate(ctx, req)
	if err != nil {
		return nil, err
	}
	single := reply.GetSingleResult()
	if single == nil {
		return nil, driver.Errorf(driver.KindQueryFailed, "the translated Aggregate of %s came back without a result", c.Class)
	}
	results := map[string]map[string]any{}
	for _, a := range single.GetAggregations().GetAggregations() {
		results[a.GetProperty()] = aggregationValues(a)
	}
	o := map[string]any{}
	for _, pt := range parts {
		switch pt.prop {
		case "__typename":
			o[pt.key] = "Aggregate" + c.Class
			continue
		case "":
			meta := map[string]any{}
			for _, m := range pt.members {
				meta[m.key] = single.ObjectsCount
			}
			o[pt.key] = meta
			continue
		}
		vals := results[pt.prop]
		po := map[string]any{}
		for _, m := range pt.members {
			v := vals[m.name]
			if m.name == "topOccurrences" {
				var list []any
				tops, _ := v.([]*pb.AggregateReply_Aggregations_Aggregation_Text_TopOccurrences_TopOccurrence)
				for _, top := range tops {
					e := map[string]any{}
					for _, n := range m.nested {
						if n.name == "value" {
							e[n.key] = top.GetValue()
						} else {
							e[n.key] = top.GetOccurs()
						}
					}
					list = append(list, e)
				}
				v = list
			}
			po[m.key] = v
		}
		o[pt.key] = po
	}
	return []any{o}, nil
}

// aggregation asks for one aggregate of property p, by its type.
func aggregation(a *pb.AggregateRequest_Aggregation, p property, member string, limit *uint32) error {
	b, _ := p.base()
	if p.isRef() {
		b = "reference"
	}
	known := map[string][]string{
		"int":       {"count", "type", "sum", "mean", "mode", "median", "maximum", "minimum"},
		"number":    {"count", "type", "sum", "mean", "mode", "median", "maximum", "minimum"},
		"text":      {"count", "type", "topOccurrences"},
		"boolean":   {"count", "type", "totalTrue", "totalFalse", "percentageTrue", "percentageFalse"},
		"date":      {"count", "type", "median", "mode", "maximum", "minimum"},
		"reference": {"type", "pointingTo"},
	}[b]
	if known == nil {
		return untranslatable("an Aggregate of the %s property %s cannot be translated to its gRPC API", p.Type(), p.Name)
	}
	if !slices.Contains(known, member) {
		return invalid("Cannot query field %q of the %s property %s (it has %s)", member, p.Type(), p.Name, strings.Join(known, ", "))
	}
	is := func(s string) bool { return member == s }
	switch b {
	case "int":
		x, _ := a.Aggregation.(*pb.AggregateRequest_Aggregation_Int)
		if x == nil {
			x = &pb.AggregateRequest_Aggregation_Int{Int: &pb.AggregateRequest_Aggregation_Integer{}}
			a.Aggregation = x
		}
		i := x.Int
		i.Count, i.Type, i.Sum, i.Mean = i.Count || is("count"), i.Type || is("type"), i.Sum || is("sum"), i.Mean || is("mean")
		i.Mode, i.Median, i.Maximum, i.Minimum = i.Mode || is("mode"), i.Median || is("median"), i.Maximum || is("maximum"), i.Minimum || is("minimum")
	case "number":
		x, _ := a.Aggregation.(*pb.AggregateRequest_Aggregation_Number_)
		if x == nil {
			x = &pb.AggregateRequest_Aggregation_Number_{Number: &pb.AggregateRequest_Aggregation_Number{}}
			a.Aggregation = x
		}
		i := x.Number
		i.Count, i.Type, i.Sum, i.Mean = i.Count || is("count"), i.Type || is("type"), i.Sum || is("sum"), i.Mean || is("mean")
		i.Mode, i.Median, i.Maximum, i.Minimum = i.Mode || is("mode"), i.Median || is("median"), i.Maximum || is("maximum"), i.Minimum || is("minimum")
	case "text":
		x, _ := a.Aggregation.(*pb.AggregateRequest_Aggregation_Text_)
		if x == nil {
			x = &pb.AggregateRequest_Aggregation_Text_{Text: &pb.AggregateRequest_Aggregation_Text{}}
			a.Aggregation = x
		}
		i := x.Text
		i.Count, i.Type, i.TopOccurences = i.Count || is("count"), i.Type || is("type"), i.TopOccurences || is("topOccurrences")
		if limit != nil {
			i.TopOccurencesLimit = limit
		}
	case "boolean":
		x, _ := a.Aggregation.(*pb.AggregateRequest_Aggregation_Boolean_)
		if x == nil {
			x = &pb.AggregateRequest_Aggregation_Boolean_{Boolean: &pb.AggregateRequest_Aggregation_Boolean{}}
			a.Aggregation = x
		}
		i := x.Boolean
		i.Count, i.Type, i.TotalTrue, i.TotalFalse = i.Count || is("count"), i.Type || is("type"), i.TotalTrue || is("totalTrue"), i.TotalFalse || is("totalFalse")
		i.PercentageTrue, i.PercentageFalse = i.PercentageTrue || is("percentageTrue"), i.PercentageFalse || is("percentageFalse")
	case "date":
		x, _ := a.Aggregation.(*pb.AggregateRequest_Aggregation_Date_)
		if x == nil {
			x = &pb.AggregateRequest_Aggregation_Date_{Date: &pb.AggregateRequest_Aggregation_Date{}}
			a.Aggregation = x
		}
		i := x.Date
		i.Count, i.Type, i.Median, i.Mode = i.Count || is("count"), i.Type || is("type"), i.Median || is("median"), i.Mode || is("mode")
		i.Maximum, i.Minimum = i.Maximum || is("maximum"), i.Minimum || is("minimum")
	case "reference":
		x, _ := a.Aggregation.(*pb.AggregateRequest_Aggregation_Reference_)
		if x == nil {
			x = &pb.AggregateRequest_Aggregation_Reference_{Reference: &pb.AggregateRequest_Aggregation_Reference{}}
			a.Aggregation = x
		}
		x.Reference.Type, x.Reference.PointingTo = x.Reference.Type || is("type"), x.Reference.PointingTo || is("pointingTo")
	}
	return nil
}

// aggregationValues reads one property's aggregates by their GraphQL names; a value the
// server left out is null, as GraphQL answers it.
func aggregationValues(a *pb.AggregateReply_Aggregations_Aggregation) map[string]any {
	out := map[string]any{}
	put := func(k string, v any, present bool) {
		if present {
			out[k] = v
		}
	}
	switch x := a.GetAggregation().(type) {
	case *pb.AggregateReply_Aggregations_Aggregation_Int:
		i := x.Int
		put("count", i.GetCount(), i.Count != nil)
		put("type", i.GetType(), i.Type != nil)
		put("mean", i.GetMean(), i.Mean != nil)
		put("median", i.GetMedian(), i.Median != nil)
		put("mode", i.GetMode(), i.Mode != nil)
		put("maximum", i.GetMaximum(), i.Maximum != nil)
		put("minimum", i.GetMinimum(), i.Minimum != nil)
		put("sum", i.GetSum(), i.Sum != nil)
	case *pb.AggregateReply_Aggregations_Aggregation_Number_:
		i := x.Number
		put("count", i.GetCount(), i.Count != nil)
		put("type", i.GetType(), i.Type != nil)
		put("mean", i.GetMean(), i.Mean != nil)
		put("median", i.GetMedian(), i.Median != nil)
		put("mode", i.GetMode(), i.Mode != nil)
		put("maximum", i.GetMaximum(), i.Maximum != nil)
		put("minimum", i.GetMinimum(), i.Minimum != nil)
		put("sum", i.GetSum(), i.Sum != nil)
	case *pb.AggregateReply_Aggregations_Aggregation_Text_:
		i := x.Text
		put("count", i.GetCount(), i.Count != nil)
		put("type", i.GetType(), i.Type != nil)
		put("topOccurrences", i.GetTopOccurences().GetItems(), i.TopOccurences != nil)
	case *pb.AggregateReply_Aggregations_Aggregation_Boolean_:
		i := x.Boolean
		put("count", i.GetCount(), i.Count != nil)
		put("type", i.GetType(), i.Type != nil)
		put("totalTrue", i.GetTotalTrue(), i.TotalTrue != nil)
		put("totalFalse", i.GetTotalFalse(), i.TotalFalse != nil)
		put("percentageTrue", i.GetPercentageTrue(), i.PercentageTrue != nil)
		put("percentageFalse", i.GetPercentageFalse(), i.PercentageFalse != nil)
	case *pb.AggregateReply_Aggregations_Aggregation_Date_:
		i := x.Date
		put("count", i.GetCount(), i.Count != nil)
		put("type", i.GetType(), i.Type != nil)
		put("median", i.GetMedian(), i.Median != nil)
		put("mode", i.GetMode(), i.Mode != nil)
		put("maximum", i.GetMaximum(), i.Maximum != nil)
		put("minimum", i.GetMinimum(), i.Minimum != nil)
	case *pb.AggregateReply_Aggregations_Aggregation_Reference_:
		i := x.Reference
		put("type", i.GetType(), i.Type != nil)
		put("pointingTo", nonNil(i.GetPointingTo()), true)
	}
	return out
}
