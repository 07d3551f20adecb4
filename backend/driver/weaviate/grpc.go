package weaviate

// The gRPC read path: where a server has GraphQL off (new Weaviate Cloud clusters, and
// self-hosted servers started with DISABLE_GRAPHQL=true), filtered and sorted pages and counts
// go over Weaviate's gRPC API (service weaviate.v1.Weaviate: Search, Aggregate) instead of
// /v1/graphql. The filter and sort are the same where tree and sort keys the GraphQL path
// renders (filter.go), so both paths select the same rows in the same order, and the rows are
// shaped into the same cells as the REST page (tests hold all three equal on real servers).
//
// The stubs are Weaviate's own, generated from its .proto files and published in its module
// (github.com/weaviate/weaviate/grpc/generated/protocol/v1): the version of the server the
// tests run, no generated code of ours to keep in step, and no protoc at build time.

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"encoding/json"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"app/backend/driver"
)

// DefaultGRPCPort is the gRPC port of a self-hosted node (GRPC_PORT's default).
const DefaultGRPCPort = 50051

// grpcMaxMessage bounds one gRPC answer: a 1,000-row page of 1,536-dimension vectors is
// about 6 MB.
const grpcMaxMessage = 256 << 20

// graphQLDisabled is what a server with DISABLE_GRAPHQL answers on /v1/graphql (HTTP 422).
const graphQLDisabled = "graphql api is disabled"

// hostedCluster reports whether host is a Weaviate Cloud cluster, whose gRPC endpoint is
// grpc-<host> on 443. The domains are the ones the form's suggestion names (Describe).
func hostedCluster(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	for _, d := range hostedDomains {
		if strings.HasSuffix(h, d) && len(h) > len(d) {
			return true
		}
	}
	return false
}

// grpcTarget is host:port of the node's gRPC API, with the official clients' defaults.
func grpcTarget(s driver.Settings) string {
	host, port := s.GRPCHost, s.GRPCPort
	hosted := hostedCluster(s.Host)
	if host == "" {
		host = s.Host
		if hosted {
			host = "grpc-" + s.Host
		}
	}
	if port == 0 {
		port = DefaultGRPCPort
		if hosted && s.SSLMode.UsesTLS() {
			port = 443
		}
	}
	return net.JoinHostPort(host, strconv.Itoa(port))
}

// rpc returns the gRPC client, dialling on first use.
func (d *Driver) rpc() (pb.WeaviateClient, error) {
	conn, err := d.rpcConn()
	if err != nil {
		return nil, err
	}
	return pb.NewWeaviateClient(conn), nil
}

// grpcClientConn returns the gRPC connection, made on first use (grpc.NewClient connects
// lazily, so this never blocks; the CA file is read outside the lock). The TLS server name is
// the gRPC host's, which a hosted cluster's grpc-<host> front end routes and certifies by.
func (d *Driver) grpcClientConn() (*grpc.ClientConn, error) {
	d.mu.Lock()
	conn, closed := d.grpcConn, d.closed
	d.mu.Unlock()
	switch {
	case closed:
		return nil, driver.Errorf(driver.KindConnection, "the connection is closed")
	case conn != nil:
		return conn, nil
	}
	creds := insecure.NewCredentials()
	if d.s.SSLMode.UsesTLS() {
		tc, err := tlsConfig(d.s)
		if err != nil {
			return nil, err
		}
		if tc == nil {
			tc = &tls.Config{MinVersion: tls.VersionTLS12}
		}
		tc = tc.Clone()
		if host, _, err := net.SplitHostPort(d.grpcTarget); err == nil {
			tc.ServerName = host
		}
		creds = credentials.NewTLS(tc)
	}
	conn, err := grpc.NewClient(d.grpcTarget, grpc.WithTransportCredentials(creds),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(grpcMaxMessage), grpc.ForceCodecV2(newReplyCodec())))
	if err != nil {
		return nil, driver.Wrap(driver.KindConnection, err, "Connection failed: the gRPC address %s cannot be used", d.grpcTarget)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.closed:
		_ = conn.Close()
		return nil, driver.Errorf(driver.KindConnection, "the connection is closed")
	case d.grpcConn != nil: // another call dialled meanwhile: keep that one
		_ = conn.Close()
		return d.grpcConn, nil
	}
	d.grpcConn = conn
	return conn, nil
}

// rpcContext carries the credential, as the REST requests do.
func (d *Driver) rpcContext(ctx context.Context) context.Context {
	if d.s.AuthMethod == driver.AuthAPIKey && d.s.APIKey != "" {
		return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+d.s.APIKey)
	}
	return ctx
}

// rpcError maps a gRPC failure to the driver's kinds, with the spec's prefixes, and never
// shows the key.
func (d *Driver) rpcError(ctx context.Context, err error, what string) error {
	if cerr := driver.ContextError(ctx); cerr != nil {
		return cerr
	}
	st, _ := status.FromError(err)
	msg := d.redact(st.Message())
	if err := inactiveTenant(msg, what); err != nil {
		return err
	}
	nsStatus := 0
	if st.Code() == codes.Unauthenticated {
		nsStatus = http.StatusUnauthorized
	}
	if err := d.namespaceRefusal(nsStatus, msg, what); err != nil {
		return err
	}
	switch st.Code() {
	case codes.Unauthenticated:
		if d.s.AuthMethod == driver.AuthAPIKey {
			return driver.Errorf(driver.KindAuth, "the API key was rejected by the gRPC API at %s", d.grpcTarget)
		}
		return driver.Errorf(driver.KindAuth, "the gRPC API at %s expects an API key but Auth Method is None; set Auth Method to API Key and enter the key", d.grpcTarget)
	case codes.PermissionDenied:
		if err := notPermitted(msg); err != nil {
			return err
		}
		return driver.Errorf(driver.KindNotPermitted, "permission denied for %s: %s", what, msg)
	case codes.Unavailable:
		d.log.WithField("grpc", d.grpcTarget).Debugf("gRPC unavailable: %s", msg)
		return driver.Errorf(driver.KindConnection, "Connection failed: the gRPC API at %s does not answer; this server's reads need it (GraphQL is off), so set the gRPC host and port in the connection's Advanced settings", d.grpcTarget)
	case codes.DeadlineExceeded:
		return driver.Errorf(driver.KindTimeout, "%s timed out", what)
	case codes.Canceled:
		return driver.Errorf(driver.KindCancelled, "%s was cancelled", what)
	}
	if strings.Contains(msg, "query maximum results exceeded") {
		return driver.Errorf(driver.KindUnsupported, "the database refuses to page past its result maximum (QUERY_MAXIMUM_RESULTS, default %d rows): %s", MaxResults, msg)
	}
	return driver.Errorf(driver.KindQueryFailed, "%s was refused: %s", what, msg)
}

// readVia is the one rule that picks a read path: GraphQL where the server serves it (the
// spec's path), gRPC where it has GraphQL off, and gRPC again when the GraphQL read is what
// told that it is off. Browse, Count and Search all go through it.
func (d *Driver) readVia(viaGraphQL, viaGRPC func() error) error {
	if d.graphQLOff() {
		return viaGRPC()
	}
	err := viaGraphQL()
	if err != nil && d.graphQLOff() {
		return viaGRPC()
	}
	return err
}

// graphQLOff reports whether the server has told that it has GraphQL off.
func (d *Driver) graphQLOff() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.noGraphQL
}

// noteGraphQLOff records the server's answer that GraphQL is off; reads go over gRPC from
// then on.
//
// A cluster with namespaces (1.38+) has GraphQL off too, and says so with HTTP 410
// (namespaces.go); that answer also tells the driver the cluster has namespaces.
func (d *Driver) noteGraphQLOff(status int, body []byte) bool {
	text := strings.ToLower(string(body))
	off := status == http.StatusUnprocessableEntity && strings.Contains(text, graphQLDisabled)
	gone := status == http.StatusGone && strings.Contains(text, graphQLGone)
	if !off && !gone {
		return false
	}
	d.mu.Lock()
	if !d.noGraphQL {
		d.log.WithField("node", d.hostTxt).Info("the server has GraphQL off: filtered pages, counts and search read over gRPC at " + d.grpcTarget)
	}
	d.noGraphQL = true
	d.hasNamespaces = d.hasNamespaces || gone
	d.mu.Unlock()
	return true
}

// probeGraphQL finds out at connect time whether the server serves GraphQL.
func (d *Driver) probeGraphQL(ctx context.Context) {
	_, _ = d.postGraphQL(ctx, "{ __typename }")
}

// grpcFilter renders a where node as a gRPC Filters message.
func (w where) grpcFilter() *pb.Filters {
	f := &pb.Filters{Operator: grpcOperators[w.op]}
	if len(w.operands) > 0 {
		for _, o := range w.operands {
			f.Filters = append(f.Filters, o.grpcFilter())
		}
		return f
	}
	path := w.path
	if path == "id" {
		path = "_id"
	}
	f.Target = &pb.FilterTarget{Target: &pb.FilterTarget_Property{Property: path}}
	switch v := w.value.(type) {
	case string:
		f.TestValue = &pb.Filters_ValueText{ValueText: v}
	case int64:
		f.TestValue = &pb.Filters_ValueInt{ValueInt: v}
	case float64:
		f.TestValue = &pb.Filters_ValueNumber{ValueNumber: v}
	case bool:
		f.TestValue = &pb.Filters_ValueBoolean{ValueBoolean: v}
	case []string:
		f.TestValue = &pb.Filters_ValueTextArray{ValueTextArray: &pb.TextArray{Values: v}}
	case []int64:
		f.TestValue = &pb.Filters_ValueIntArray{ValueIntArray: &pb.IntArray{Values: v}}
	case []float64:
		f.TestValue = &pb.Filters_ValueNumberArray{ValueNumberArray: &pb.NumberArray{Values: v}}
	case []bool:
		f.TestValue = &pb.Filters_ValueBooleanArray{ValueBooleanArray: &pb.BooleanArray{Values: v}}
	}
	return f
}

// grpcOperators maps the where operators (the GraphQL names) to gRPC's.
var grpcOperators = map[string]pb.Filters_Operator{
	"Equal": pb.Filters_OPERATOR_EQUAL, "NotEqual": pb.Filters_OPERATOR_NOT_EQUAL,
	"GreaterThan": pb.Filters_OPERATOR_GREATER_THAN, "GreaterThanEqual": pb.Filters_OPERATOR_GREATER_THAN_EQUAL,
	"LessThan": pb.Filters_OPERATOR_LESS_THAN, "LessThanEqual": pb.Filters_OPERATOR_LESS_THAN_EQUAL,
	"And": pb.Filters_OPERATOR_AND, "Or": pb.Filters_OPERATOR_OR, "Not": pb.Filters_OPERATOR_NOT,
	"Like": pb.Filters_OPERATOR_LIKE, "IsNull": pb.Filters_OPERATOR_IS_NULL,
	"ContainsAny": pb.Filters_OPERATOR_CONTAINS_ANY, "ContainsAll": pb.Filters_OPERATOR_CONTAINS_ALL,
	"ContainsNone": pb.Filters_OPERATOR_CONTAINS_NONE, "WithinGeoRange": pb.Filters_OPERATOR_WITHIN_GEO_RANGE,
}

// countGRPC counts the rows matching filters with a gRPC Aggregate.
func (d *Driver) countGRPC(ctx context.Context, c *class, filters []driver.Filter) (int64, error) {
	w, ok, err := buildWhere(c, filters)
	if err != nil {
		return 0, err
	}
	req := &pb.AggregateRequest{Collection: c.Class, Tenant: c.tenant, ObjectsCount: true}
	if ok {
		req.Filters = w.grpcFilter()
	}
	client, err := d.rpc()
	if err != nil {
		return 0, err
	}
	reply, err := client.Aggregate(d.rpcContext(ctx), req)
	if err != nil {
		return 0, d.rpcError(ctx, err, "the count of "+c.Class)
	}
	single := reply.GetSingleResult()
	if single == nil || single.ObjectsCount == nil {
		return 0, driver.Errorf(driver.KindQueryFailed, "the count of %s came back empty", c.Class)
	}
	return single.GetObjectsCount(), nil
}

// browseGRPC loads a filtered or sorted page with a gRPC Search.
//
// With VectorsPreview the previews are cut from the packed floats themselves: only the first
// numbers are ever formatted (formatting every number as JSON text is most of the cost of a
// page of vectors).
func (d *Driver) browseGRPC(ctx context.Context, c *class, offset, limit int, filters []driver.Filter, sorts []driver.Sort, vectors driver.VectorRead) (*driver.Grid, error) {
	w, ok, err := buildWhere(c, filters)
	if err != nil {
		return nil, err
	}
	keys, err := sortKeys(c, sorts)
	if err != nil {
		return nil, err
	}
	names := c.namedVectors()
	req := &pb.SearchRequest{
		Collection:  c.Class,
		Tenant:      c.tenant,
		Limit:       uint32(limit),
		Offset:      uint32(offset),
		Properties:  grpcProperties(c.Properties),
		Metadata:    &pb.MetadataRequest{Uuid: true, Vector: len(names) == 0 && !c.noVectors(), Vectors: names},
		Uses_127Api: true,
	}
	if ok {
		req.Filters = w.grpcFilter()
	}
	for _, k := range keys {
		req.SortBy = append(req.SortBy, &pb.SortBy{Path: []string{k.path}, Ascending: !k.descending})
	}
	client, err := d.rpc()
	if err != nil {
		return nil, err
	}
	reply, err := client.Search(d.rpcContext(ctx), req)
	if err != nil {
		return nil, d.rpcError(ctx, err, "the page of "+c.Class)
	}
	cols := c.columns()
	preview := vectors == driver.VectorsPreview
	if preview {
		cols[len(cols)-1].Preview = true
	}
	g := &driver.Grid{Columns: withKinds(cols), Rows: make([][]any, 0, len(reply.GetResults()))}
	for _, r := range reply.GetResults() {
		row := make([]any, len(cols))
		md := r.GetMetadata()
		grpcCells(c, r, row)
		switch {
		case len(names) > 0 && preview:
			if vs := md.GetVectors(); len(vs) > 0 {
				out := make(map[string]driver.VectorPreview, len(vs))
				for _, v := range vs {
					out[v.GetName()] = packedPreview(v.GetVectorBytes(), v.GetType() == pb.Vectors_VECTOR_TYPE_MULTI_FP32)
				}
				b, _ := json.Marshal(out)
				row[len(cols)-1] = string(b)
			}
		case len(names) > 0:
			vecs := map[string]json.RawMessage{}
			for _, v := range md.GetVectors() {
				vecs[v.GetName()] = vectorJSON(v.GetVectorBytes(), v.GetType() == pb.Vectors_VECTOR_TYPE_MULTI_FP32)
			}
			row[len(cols)-1] = vectorsText(names, vecs)
		case len(md.GetVectorBytes()) > 0 && preview:
			b, _ := json.Marshal(packedPreview(md.GetVectorBytes(), false))
			row[len(cols)-1] = string(b)
		case len(md.GetVectorBytes()) > 0:
			row[len(cols)-1] = string(vectorJSON(md.GetVectorBytes(), false))
		}
		g.Rows = append(g.Rows, row)
	}
	return g, nil
}

// grpcCells fills row (the uuid, then one cell per property, in the columns' order) from a
// search result.
func grpcCells(c *class, r *pb.SearchResult, row []any) {
	row[0] = r.GetMetadata().GetId()
	props := r.GetProperties().GetNonRefProps().GetFields()
	refs := map[string][]*pb.PropertiesResult{}
	for _, rp := range r.GetProperties().GetRefProps() {
		refs[rp.GetPropName()] = append(refs[rp.GetPropName()], rp.GetProperties()...)
	}
	for i, p := range c.Properties {
		if p.isRef() {
			if targets, ok := refs[p.Name]; ok && len(targets) > 0 {
				row[i+1] = grpcRefCell(targets)
			}
			continue
		}
		if v, ok := props[p.Name]; ok {
			row[i+1] = grpcCell(v)
		}
	}
}

// grpcProperties asks for every property: scalars by name, objects with their nested
// properties, references with the uuid of each target.
func grpcProperties(props []property) *pb.PropertiesRequest {
	req := &pb.PropertiesRequest{}
	for _, p := range props {
		b, _ := p.base()
		switch {
		case p.isRef():
			for _, target := range p.DataType {
				req.RefProperties = append(req.RefProperties, &pb.RefPropertiesRequest{
					ReferenceProperty: p.Name, TargetCollection: target,
					Metadata: &pb.MetadataRequest{Uuid: true}, Properties: &pb.PropertiesRequest{},
				})
			}
		case b == "object":
			req.ObjectProperties = append(req.ObjectProperties, grpcObject(p))
		default:
			req.NonRefProperties = append(req.NonRefProperties, p.Name)
		}
	}
	return req
}

func grpcObject(p property) *pb.ObjectPropertiesRequest {
	o := &pb.ObjectPropertiesRequest{PropName: p.Name}
	for _, n := range p.NestedProperties {
		if b, _ := n.base(); b == "object" {
			o.ObjectProperties = append(o.ObjectProperties, grpcObject(n))
		} else {
			o.PrimitiveProperties = append(o.PrimitiveProperties, n.Name)
		}
	}
	return o
}

// grpcRefCell renders the targets of a reference as REST shows them: beacons.
func grpcRefCell(targets []*pb.PropertiesResult) any {
	refs := make([]objectRef, 0, len(targets))
	for _, t := range targets {
		refs = append(refs, objectRef{class: t.GetTargetCollection(), id: t.GetMetadata().GetId()})
	}
	return beaconsCell(refs)
}

// grpcCell converts a gRPC value into the cell the REST page gives for the same value:
// scalars as cell() reads them from JSON, arrays and objects as compact JSON text.
func grpcCell(v *pb.Value) any {
	switch x := grpcJSON(v).(type) {
	case nil, string, bool:
		return x
	case int64:
		return json.Number(strconv.FormatInt(x, 10))
	case float64:
		b, _ := json.Marshal(x)
		return json.Number(b)
	default:
		return restJSON(x)
	}
}

// restJSON writes v as Weaviate's REST API does: compact, with <, > and & left as they are
// (go-openapi's producer turns encoding/json's HTML escaping off).
func restJSON(v any) string {
	b, _ := marshalREST(v)
	return string(b)
}

// marshalREST is restJSON with the encoding's error.
func marshalREST(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// grpcJSON converts a gRPC value into what encoding/json writes as REST does.
func grpcJSON(v *pb.Value) any {
	switch k := v.GetKind().(type) {
	case *pb.Value_TextValue:
		return k.TextValue
	case *pb.Value_DateValue:
		return k.DateValue
	case *pb.Value_UuidValue:
		return k.UuidValue
	case *pb.Value_BlobValue:
		return k.BlobValue
	case *pb.Value_BoolValue:
		return k.BoolValue
	case *pb.Value_IntValue:
		return k.IntValue
	case *pb.Value_NumberValue:
		return k.NumberValue
	case *pb.Value_ObjectValue:
		return grpcObjectJSON(k.ObjectValue)
	case *pb.Value_GeoValue:
		return struct {
			Latitude  float32 `json:"latitude"`
			Longitude float32 `json:"longitude"`
		}{k.GeoValue.GetLatitude(), k.GeoValue.GetLongitude()}
	case *pb.Value_PhoneValue:
		p := k.PhoneValue
		return phoneNumber{p.GetCountryCode(), p.GetDefaultCountry(), p.GetInput(), p.GetInternationalFormatted(), p.GetNational(), p.GetNationalFormatted(), p.GetValid()}
	case *pb.Value_ListValue:
		return grpcListJSON(k.ListValue)
	}
	return nil
}

func grpcObjectJSON(p *pb.Properties) map[string]any {
	out := make(map[string]any, len(p.GetFields()))
	for name, v := range p.GetFields() {
		out[name] = grpcJSON(v)
	}
	return out
}

// grpcListJSON unpacks a list: ints and numbers travel as packed little-endian 64-bit words.
func grpcListJSON(l *pb.ListValue) any {
	switch k := l.GetKind().(type) {
	case *pb.ListValue_TextValues:
		return nonNil(k.TextValues.GetValues())
	case *pb.ListValue_DateValues:
		return nonNil(k.DateValues.GetValues())
	case *pb.ListValue_UuidValues:
		return nonNil(k.UuidValues.GetValues())
	case *pb.ListValue_BoolValues:
		return nonNil(k.BoolValues.GetValues())
	case *pb.ListValue_IntValues:
		b := k.IntValues.GetValues()
		out := make([]int64, len(b)/8)
		for i := range out {
			out[i] = int64(binary.LittleEndian.Uint64(b[i*8:]))
		}
		return out
	case *pb.ListValue_NumberValues:
		b := k.NumberValues.GetValues()
		out := make([]float64, len(b)/8)
		for i := range out {
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[i*8:]))
		}
		return out
	case *pb.ListValue_ObjectValues:
		out := make([]map[string]any, 0, len(k.ObjectValues.GetValues()))
		for _, o := range k.ObjectValues.GetValues() {
			out = append(out, grpcObjectJSON(o))
		}
		return out
	}
	return []any{}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// vectorJSON decodes packed little-endian float32s into the JSON array REST gives. A
// multi-vector starts with its inner dimension as a little-endian uint16.
func vectorJSON(b []byte, multi bool) json.RawMessage {
	var v any
	if multi && len(b) >= 2 {
		dim := int(binary.LittleEndian.Uint16(b))
		all := driver.PackedFloats(b[2:])
		rows := [][]float32{}
		for dim > 0 && len(all) >= dim {
			rows = append(rows, all[:dim])
			all = all[dim:]
		}
		v = rows
	} else {
		v = nonNil(driver.PackedFloats(b))
	}
	out, _ := json.Marshal(v)
	return out
}

// packedPreview is the preview of a packed vector (a multi-vector: of its first vector, with
// how many it holds), as driver.PreviewText reads it from the vector's JSON text.
func packedPreview(b []byte, multi bool) driver.VectorPreview {
	dim := len(b) / 4
	p := driver.VectorPreview{Head: []json.RawMessage{}}
	if multi {
		if len(b) < 2 {
			return p
		}
		dim = int(binary.LittleEndian.Uint16(b))
		b = b[2:]
		if dim == 0 {
			return p
		}
		p.Multi = len(b) / 4 / dim
	}
	p.Dimensions = dim
	for i := 0; i < driver.VectorHead && i < dim && (i+1)*4 <= len(b); i++ {
		n, _ := json.Marshal(math.Float32frombits(binary.LittleEndian.Uint32(b[i*4:])))
		p.Head = append(p.Head, n)
	}
	return p
}

// pathTimeout bounds each probe of CheckPaths, so an unreachable gRPC port cannot hold the
// form's Test.
const pathTimeout = 5 * time.Second

// CheckPaths reports REST, GraphQL and gRPC separately for the connection form's Test:
// "REST ok, server 1.35.2; GraphQL off (...); gRPC ok", or the reason a path fails. gRPC
// unreachable on a server that serves GraphQL stands in nobody's way (it is needed only where
// GraphQL is off), so it is reported, not failed. Run it after Connect (which read the
// version and probed GraphQL).
func (d *Driver) CheckPaths(ctx context.Context) []driver.PathStatus {
	off := d.graphQLOff()
	out := []driver.PathStatus{{Name: "REST", OK: true, Detail: "ok, server " + d.ServerVersion()}}
	switch {
	case off && d.namespaced():
		out = append(out, driver.PathStatus{Name: "GraphQL", OK: true, Detail: "off: the cluster has namespaces (filters, sorts, counts and search read over gRPC)"})
	case off:
		out = append(out, driver.PathStatus{Name: "GraphQL", OK: true, Detail: "off (filters, sorts, counts and search read over gRPC)"})
	default:
		out = append(out, driver.PathStatus{Name: "GraphQL", OK: true, Detail: "on"})
	}
	g := driver.PathStatus{Name: "gRPC", OK: true, Detail: "ok"}
	if d.usesGRPCWeb() {
		g.Detail = "ok over gRPC-Web on the REST port (" + d.hostTxt + grpcWebPath + "): " + d.grpcTarget + " does not answer"
	}
	if err := d.pingGRPC(ctx); err != nil {
		switch {
		case off:
			g.OK, g.Detail = false, err.Error()
		case driver.KindOf(err) == driver.KindConnection:
			g.Detail = "not reachable at " + d.grpcTarget + " (needed only if the server turns GraphQL off)"
		default:
			g.Detail = "not usable (" + err.Error() + "; needed only if the server turns GraphQL off)"
		}
	}
	return append(out, g)
}

// pingGRPC checks that the gRPC API answers and takes the credential: the standard health
// check, then a tenants read of a collection that cannot exist, which the server
// authenticates before it looks the collection up.
func (d *Driver) pingGRPC(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, pathTimeout)
	defer cancel()
	conn, err := d.rpcConn()
	if err != nil {
		return err
	}
	if _, err := healthpb.NewHealthClient(conn).Check(d.rpcContext(ctx), &healthpb.HealthCheckRequest{}); err != nil {
		return d.rpcError(ctx, err, "the gRPC health check")
	}
	_, err = pb.NewWeaviateClient(conn).TenantsGet(d.rpcContext(ctx), &pb.TenantsGetRequest{Collection: "AppConnectionProbe"})
	switch status.Code(err) {
	case codes.Unauthenticated, codes.Unavailable, codes.DeadlineExceeded, codes.Canceled:
		return d.rpcError(ctx, err, "the gRPC API")
	}
	return nil
}
