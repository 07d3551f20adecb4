package grpcdriver

import (
	"context"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"app/backend/driver"
	pb "app/backend/plugins/internal/proto/driverv2"
)

// closeTimeout bounds the Close call of a connection (Close takes no context).
const closeTimeout = 5 * time.Second

// classifyTimeout bounds a Classify call (Classify takes no context).
const classifyTimeout = 10 * time.Second

// Client is the host's side of one plugin process: it opens connections on it.
type Client struct {
	rpc     pb.DriverClient
	stopped func() bool
	// protocol is the plugin protocol agreed at start (ProtocolVersion when not told).
	protocol int
}

// NewClient returns a client over a gRPC connection to the plugin. stopped, when not nil,
// tells whether the plugin process is gone; every call of a connection then fails at once
// with "Connection failed: driver stopped" instead of waiting on a dead socket.
func NewClient(cc grpc.ClientConnInterface, stopped func() bool) *Client {
	return &Client{rpc: pb.NewDriverClient(cc), stopped: stopped, protocol: ProtocolVersion}
}

// Protocol is the plugin protocol agreed with the plugin.
func (c *Client) Protocol() int { return c.protocol }

// capabilities are what the plugin says it can do, read at the protocol agreed.
func (c *Client) capabilities(pc *pb.Capabilities) driver.Capabilities {
	return capabilitiesAt(c.protocol, pc)
}

// capabilitiesAt reads capabilities at a protocol: what a newer protocol gave a field's
// meaning is not what an older one meant, whatever the plugin claims.
func capabilitiesAt(protocol int, pc *pb.Capabilities) driver.Capabilities {
	caps := fromCapabilities(pc)
	if protocol < 3 {
		// Protocol 2's search request had no mode params: its alpha and fusion fields are
		// reserved in 3 and a search by words would lose them.
		caps.SearchModes = false
	}
	return caps
}

func (c *Client) isStopped() bool { return c.stopped != nil && c.stopped() }

// Description is what a plugin says about itself: `<plugin> describe` prints it as JSON and
// the Info call answers it.
type Description struct {
	Name            string              `json:"name"`
	Version         string              `json:"version"`
	ProtocolVersion int                 `json:"protocolVersion"`
	Types           []string            `json:"types"`
	Capabilities    driver.Capabilities `json:"capabilities"`
	// Connections is what the plugin says about its connections: type labels, settings.
	Connections driver.Description `json:"connections"`
}

// Describe returns the description of info served at protocol.
func Describe(info Info, protocol int) Description {
	return fromInfo(toInfo(info, protocol))
}

func fromInfo(r *pb.InfoResponse) Description {
	return Description{
		Name:            r.GetName(),
		Version:         r.GetVersion(),
		ProtocolVersion: int(r.GetProtocolVersion()),
		Types:           r.GetTypes(),
		Capabilities:    capabilitiesAt(int(r.GetProtocolVersion()), r.GetCapabilities()),
		Connections:     fromDescription(r.GetDescription(), r.GetTypes()),
	}
}

// Info asks the plugin what it is.
func (c *Client) Info(ctx context.Context) (Description, error) {
	if c.isStopped() {
		return Description{}, stoppedError()
	}
	r, err := c.rpc.Info(ctx, &pb.InfoRequest{})
	if err != nil {
		return Description{}, c.fail(ctx, err)
	}
	return fromInfo(r), nil
}

// fail maps a failed call: a plugin that is gone is "driver stopped" whatever gRPC said.
func (c *Client) fail(ctx context.Context, err error) error {
	e := fromStatus(ctx, err)
	if c.isStopped() && driver.ContextError(ctx) == nil {
		return stoppedError()
	}
	return e
}

// Open makes a connection in the plugin from settings (no network yet: call Connect).
// label names it in the plugin's log lines. onClose, when not nil, is called once when the
// connection is closed.
func (c *Client) Open(ctx context.Context, s driver.Settings, label string, onClose func()) (*Conn, error) {
	if c.isStopped() {
		return nil, stoppedError()
	}
	r, err := c.rpc.Open(ctx, &pb.OpenRequest{Settings: toSettings(s), Label: label})
	if err != nil {
		return nil, c.fail(ctx, err)
	}
	return &Conn{c: c, id: r.GetConnId(), caps: c.capabilities(r.GetCapabilities()), onClose: onClose}, nil
}

// Conn is one connection served by a plugin: a driver.Driver whose calls cross the
// process boundary. Contexts cross it too: cancelling a call's context cancels the work
// inside the plugin (gRPC cancels the server's context).
type Conn struct {
	c       *Client
	id      string
	caps    driver.Capabilities
	onClose func()

	mu      sync.Mutex
	version string
	route   string
	closed  bool

	// schema is what CachedTables and CachedDescribe answer from (schemacache.go).
	schema schemaCache
}

var (
	_ driver.Driver  = (*Conn)(nil)
	_ driver.Router  = (*Conn)(nil)
	_ driver.Tenants = (*Conn)(nil)
	_ driver.Cluster = (*Conn)(nil)
)

func (k *Conn) req() *pb.ConnRequest { return &pb.ConnRequest{ConnId: k.id} }

// ServerVersion is the database version read by the last Connect or Ping.
func (k *Conn) ServerVersion() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.version
}

func (k *Conn) health(ctx context.Context, call func(context.Context, *pb.ConnRequest, ...grpc.CallOption) (*pb.HealthResponse, error)) error {
	if k.c.isStopped() {
		return stoppedError()
	}
	r, err := call(ctx, k.req())
	if err != nil {
		return k.c.fail(ctx, err)
	}
	k.mu.Lock()
	if v := r.GetServerVersion(); v != "" {
		k.version = v
	}
	k.route = r.GetRoute()
	k.mu.Unlock()
	return nil
}

// Route is how the last Connect or Ping found the database reached (driver.Router).
func (k *Conn) Route() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.route
}

// Stopped tells whether the plugin process serving the connection is gone: every call then
// fails with "Connection failed: driver stopped" (connections.Manager replaces such a
// connection on its next use).
func (k *Conn) Stopped() bool { return k.c.isStopped() }

// Connect checks reachability, TLS and the credential.
func (k *Conn) Connect(ctx context.Context) error {
	defer k.schema.changing()() // a connection made again may reach another database
	return k.health(ctx, k.c.rpc.Connect)
}

// Ping is the health check.
func (k *Conn) Ping(ctx context.Context) error { return k.health(ctx, k.c.rpc.Ping) }

// ListTables lists the tables.
func (k *Conn) ListTables(ctx context.Context) ([]driver.Table, error) {
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	r, err := k.c.rpc.ListTables(ctx, k.req())
	if err != nil {
		return nil, k.c.fail(ctx, err)
	}
	return fromTables(r.GetTables()), nil
}

// DescribeTable describes one table.
func (k *Conn) DescribeTable(ctx context.Context, table string) (*driver.TableInfo, error) {
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	r, err := k.c.rpc.DescribeTable(ctx, &pb.TableRequest{ConnId: k.id, Table: table})
	if err != nil {
		return nil, k.c.fail(ctx, err)
	}
	return sound(fromTableInfo(r)), nil
}

// sound drops the search modes the plugin described wrongly: the panel and vector_search
// draw their fields from them, and a broken one is not offered, while the table's rows, its
// columns and its other modes still are.
func sound(info *driver.TableInfo) *driver.TableInfo {
	kept := info.Searches[:0]
	for _, m := range info.Searches {
		if m.Check() == nil {
			kept = append(kept, m)
		}
	}
	if len(kept) == 0 {
		kept = nil
	}
	info.Searches = kept
	return info
}

// errLacks answers a call for an optional feature the plugin declared it does not offer,
// without asking it (contract 3: capabilities up front).
func errLacks(what string) error {
	return driver.Errorf(driver.KindUnsupported, "this database's driver %s", what)
}

// errOldPluginCreate answers CreateTable to a plugin built before it.
var errOldPluginCreate = driver.Errorf(driver.KindUnsupported, "this version of the driver plugin cannot create tables; update it in Settings, Plugins")

// CreateTable makes a table in the plugin (driver.TableCreator).
func (k *Conn) CreateTable(ctx context.Context, spec driver.TableSpec) (*driver.TableInfo, error) {
	defer k.schema.changing()()
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	req := &pb.CreateTableRequest{ConnId: k.id, Name: spec.Name, Vectors: spec.Vectors}
	for _, c := range spec.Columns {
		req.Columns = append(req.Columns, &pb.ColumnSpec{Name: c.Name, Kind: string(c.Kind), Of: string(c.Of), Exact: c.Exact})
	}
	r, err := k.c.rpc.CreateTable(ctx, req)
	if st, ok := status.FromError(err); ok && st.Code() == codes.Unimplemented && len(st.Details()) == 0 {
		return nil, errOldPluginCreate
	}
	if err != nil {
		return nil, k.c.fail(ctx, err)
	}
	return sound(fromTableInfo(r)), nil
}

// Templates are the editor's statements for a table (driver.TemplateMaker). A plugin built
// before them offers none.
func (k *Conn) Templates(ctx context.Context, table string) ([]driver.Template, error) {
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	if k.caps.Declared && !k.caps.Templates {
		return []driver.Template{}, nil
	}
	r, err := k.c.rpc.Templates(ctx, &pb.TableRequest{ConnId: k.id, Table: table})
	if st, ok := status.FromError(err); ok && st.Code() == codes.Unimplemented && len(st.Details()) == 0 {
		return []driver.Template{}, nil
	}
	if err != nil {
		return nil, k.c.fail(ctx, err)
	}
	out := make([]driver.Template, 0, len(r.GetTemplates()))
	for _, t := range r.GetTemplates() {
		out = append(out, driver.Template{Name: t.GetName(), Text: t.GetText()})
	}
	return out, nil
}

// Completions asks the plugin for its editor language's words (driver.Completer).
func (k *Conn) Completions(ctx context.Context) (*driver.Completions, error) {
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	if !k.caps.Completions {
		return nil, errLacks("cannot name its editor's words")
	}
	r, err := k.c.rpc.Completions(ctx, &pb.TableRequest{ConnId: k.id})
	if err != nil {
		return nil, k.c.fail(ctx, err)
	}
	out := &driver.Completions{Tables: make(map[string][]string, len(r.GetTables())), Functions: r.GetFunctions()}
	for _, t := range r.GetTables() {
		out.Tables[t.GetTable()] = t.GetColumns()
	}
	return out, nil
}

// filters converts filters for the wire, refusing ORed groups to a plugin that cannot read
// them (it would drop the group and AND every filter: more rows refused, never fewer shown
// wrongly, but a different answer than the grid's chips say).
func (k *Conn) filters(fs []driver.Filter) ([]*pb.Filter, error) {
	if !k.caps.FilterGroups {
		for _, f := range fs {
			if f.Group != 0 {
				return nil, driver.Errorf(driver.KindUnsupported, "this version of the driver plugin cannot combine filters with OR; update it in Settings, Plugins")
			}
		}
	}
	return toFilters(fs), nil
}

// Browse loads one page of rows.
func (k *Conn) Browse(ctx context.Context, table string, page driver.Page, filters []driver.Filter, sort []driver.Sort) (*driver.Grid, error) {
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	pf, err := k.filters(filters)
	if err != nil {
		return nil, err
	}
	r, err := k.c.rpc.Browse(ctx, &pb.BrowseRequest{
		ConnId:  k.id,
		Table:   table,
		Offset:  int64(page.Offset),
		Limit:   int64(page.Limit),
		Filters: pf,
		Sort:    toSorts(sort),
		Vectors: string(vectorRead(k.caps, page.Vectors)),
	})
	if err != nil {
		return nil, k.c.fail(ctx, err)
	}
	return fromGrid(r), nil
}

// Search runs a search in the plugin. (Every plugin of protocol 2 has it: one that predates it
// speaks protocol 1 and is refused at start with "update the plugin".)
func (k *Conn) Search(ctx context.Context, table string, req driver.SearchRequest, limit int) (*driver.Grid, error) {
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	if !k.caps.SearchModes && req.Query != nil {
		// An older plugin would read the words in its own default mode and drop the mode's
		// parameters, answering another search than the one asked.
		return nil, driver.Errorf(driver.KindUnsupported, "this version of the driver plugin cannot search by words as the app now asks; update it in Settings, Plugins")
	}
	if !k.caps.SearchOptions && len(req.Filters) > 0 {
		return nil, driver.Errorf(driver.KindUnsupported, "this version of the driver plugin cannot search with filters; update it in Settings, Plugins")
	}
	if _, err := k.filters(req.Filters); err != nil {
		return nil, err
	}
	if !k.caps.RowKeys && req.SimilarTo != nil && !legacyExpressible(req.SimilarTo) {
		return nil, errOldKeys
	}
	in, err := toSearch(k.id, table, req, limit, !k.caps.RowKeys)
	if err != nil {
		return nil, err
	}
	r, err := k.c.rpc.Search(ctx, in)
	if err != nil {
		return nil, k.c.fail(ctx, err)
	}
	return fromGrid(r), nil
}

// CheckCells asks the plugin to type one row's cells, as its Insert and Update will.
func (k *Conn) CheckCells(ctx context.Context, table string, values map[string]*string) (map[string]string, error) {
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	req := &pb.CheckCellsRequest{ConnId: k.id, Table: table}
	for col, v := range values {
		c := &pb.TypedCell{Column: col, Null: v == nil}
		if v != nil {
			c.Text = *v
		}
		req.Cells = append(req.Cells, c)
	}
	r, err := k.c.rpc.CheckCells(ctx, req)
	if err != nil {
		return nil, k.c.fail(ctx, err)
	}
	out := r.GetProblems()
	if out == nil {
		out = map[string]string{}
	}
	return out, nil
}

// CheckPaths asks the plugin how each path to the database answers; nil when the plugin
// cannot be asked.
func (k *Conn) CheckPaths(ctx context.Context) []driver.PathStatus {
	if k.c.isStopped() {
		return nil
	}
	if k.caps.Declared && !k.caps.Paths {
		return nil
	}
	r, err := k.c.rpc.CheckPaths(ctx, k.req())
	if err != nil {
		return nil
	}
	out := make([]driver.PathStatus, 0, len(r.GetPaths()))
	for _, p := range r.GetPaths() {
		out = append(out, driver.PathStatus{Name: p.GetName(), OK: p.GetOk(), Detail: p.GetDetail()})
	}
	return out
}

// errOldPlugin answers a call that a plugin built before it does not know.
var errOldPlugin = driver.Errorf(driver.KindUnsupported, "this version of the driver plugin cannot read or write a whole table; update it in Settings, Plugins")

// Scan walks one page of a table in the plugin (driver.Scanner). A plugin that predates Scan
// answers UNIMPLEMENTED, and the error says to update it.
func (k *Conn) Scan(ctx context.Context, table string, req driver.ScanRequest) (*driver.ScanPage, error) {
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	if k.caps.Declared && !k.caps.Scan {
		return nil, errLacks("cannot read a whole table past its paging limit")
	}
	pf, err := k.filters(req.Filters)
	if err != nil {
		return nil, err
	}
	r, err := k.c.rpc.Scan(ctx, &pb.ScanRequest{ConnId: k.id, Table: table, After: req.After, Limit: int64(req.Limit),
		Filters: pf, Vectors: req.Vectors, VectorNames: req.VectorNames})
	if st, ok := status.FromError(err); ok && st.Code() == codes.Unimplemented && len(st.Details()) == 0 {
		return nil, errOldPlugin
	}
	if err != nil {
		return nil, k.c.fail(ctx, err)
	}
	return fromScanPage(r), nil
}

// Count counts the rows matching filters.
func (k *Conn) Count(ctx context.Context, table string, filters []driver.Filter) (int64, error) {
	if k.c.isStopped() {
		return 0, stoppedError()
	}
	pf, err := k.filters(filters)
	if err != nil {
		return 0, err
	}
	r, err := k.c.rpc.Count(ctx, &pb.CountRequest{ConnId: k.id, Table: table, Filters: pf})
	if err != nil {
		return 0, k.c.fail(ctx, err)
	}
	return r.GetCount(), nil
}

// Estimate asks the plugin for its database's estimate of a count (driver.Estimator).
func (k *Conn) Estimate(ctx context.Context, table string, filters []driver.Filter) (int64, error) {
	if k.c.isStopped() {
		return 0, stoppedError()
	}
	if !k.caps.Estimate {
		return 0, errLacks("cannot estimate a count")
	}
	pf, err := k.filters(filters)
	if err != nil {
		return 0, err
	}
	r, err := k.c.rpc.Estimate(ctx, &pb.CountRequest{ConnId: k.id, Table: table, Filters: pf})
	if err != nil {
		return 0, k.c.fail(ctx, err)
	}
	return r.GetCount(), nil
}

// Execute runs editor text.
func (k *Conn) Execute(ctx context.Context, text string, opts driver.ExecOptions) (*driver.Result, error) {
	defer k.schema.changing()() // editor text may be DDL: the host does not read it
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	r, err := k.c.rpc.Execute(ctx, &pb.ExecuteRequest{ConnId: k.id, Text: text, MaxRows: int64(opts.MaxRows)})
	if err != nil {
		return nil, k.c.fail(ctx, err)
	}
	return fromResult(r), nil
}

// Classify asks the plugin whether text reads or writes. Text it cannot classify, or a
// plugin that cannot answer, is a write with the error.
func (k *Conn) Classify(text string) (driver.Classification, error) {
	write := driver.Classification{Access: driver.AccessWrite}
	if k.c.isStopped() {
		return write, stoppedError()
	}
	ctx, cancel := context.WithTimeout(context.Background(), classifyTimeout)
	defer cancel()
	r, err := k.c.rpc.Classify(ctx, &pb.ClassifyRequest{Text: text})
	if err != nil {
		return write, k.c.fail(ctx, err)
	}
	return fromClassification(r)
}

func (k *Conn) edit(ctx context.Context, call func(context.Context, *pb.EditRequest, ...grpc.CallOption) (*pb.EditResponse, error), table string, rows []driver.Row) ([]driver.RowResult, error) {
	defer k.schema.changing()() // a row may add a column where the database makes its schema from data
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	if err := k.legacyKeys(rows); err != nil {
		return nil, err
	}
	prows, err := toRows(rows, !k.caps.RowKeys)
	if err != nil {
		return nil, err
	}
	r, err := call(ctx, &pb.EditRequest{ConnId: k.id, Table: table, Rows: prows})
	if err != nil {
		return knownResults(err), k.c.fail(ctx, err)
	}
	return fromRowResults(r.GetResults()), nil
}

// Insert adds rows.
func (k *Conn) Insert(ctx context.Context, table string, rows []driver.Row) ([]driver.RowResult, error) {
	return k.edit(ctx, k.c.rpc.Insert, table, rows)
}

// WriteBatch writes rows at once in the plugin (driver.BatchWriter); a plugin that predates it
// answers UNIMPLEMENTED, and the error says to update it.
func (k *Conn) WriteBatch(ctx context.Context, table string, rows []driver.Row) ([]driver.RowResult, error) {
	defer k.schema.changing()()
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	prows, err := toRows(rows, !k.caps.RowKeys)
	if err != nil {
		return nil, err
	}
	r, err := k.c.rpc.WriteBatch(ctx, &pb.EditRequest{ConnId: k.id, Table: table, Rows: prows})
	if st, ok := status.FromError(err); ok && st.Code() == codes.Unimplemented && len(st.Details()) == 0 {
		return nil, errOldPlugin
	}
	if err != nil {
		return knownResults(err), k.c.fail(ctx, err)
	}
	return fromRowResults(r.GetResults()), nil
}

// errOldPluginTenants answers a tenant call to a plugin built before tenants.
var errOldPluginTenants = driver.Errorf(driver.KindUnsupported, "this version of the driver plugin cannot list or change tenants; update it in Settings, Plugins")

// ListTenants lists a table's tenants in the plugin (driver.Tenants).
func (k *Conn) ListTenants(ctx context.Context, table string) ([]driver.Tenant, error) {
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	if k.caps.Declared && !k.caps.Tenants {
		return nil, errLacks("has no tenants")
	}
	r, err := k.c.rpc.ListTenants(ctx, &pb.TableRequest{ConnId: k.id, Table: table})
	if st, ok := status.FromError(err); ok && st.Code() == codes.Unimplemented && len(st.Details()) == 0 {
		return nil, errOldPluginTenants
	}
	if err != nil {
		return nil, k.c.fail(ctx, err)
	}
	out := make([]driver.Tenant, len(r.GetTenants()))
	for i, t := range r.GetTenants() {
		out[i] = driver.Tenant{Name: t.GetName(), Table: t.GetTable(), Status: t.GetStatus()}
	}
	return out, nil
}

// SetTenantStatus changes a tenant's activity status in the plugin (driver.Tenants).
func (k *Conn) SetTenantStatus(ctx context.Context, table, tenant, to string) error {
	defer k.schema.changing()()
	if k.c.isStopped() {
		return stoppedError()
	}
	if k.caps.Declared && !k.caps.Tenants {
		return errLacks("has no tenants")
	}
	_, err := k.c.rpc.SetTenantStatus(ctx, &pb.SetTenantStatusRequest{ConnId: k.id, Table: table, Tenant: tenant, Status: to})
	if st, ok := status.FromError(err); ok && st.Code() == codes.Unimplemented && len(st.Details()) == 0 {
		return errOldPluginTenants
	}
	if err != nil {
		return k.c.fail(ctx, err)
	}
	return nil
}

// Nodes reads the cluster's nodes in the plugin (driver.Cluster).
func (k *Conn) Nodes(ctx context.Context, table string) ([]driver.Node, error) {
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	if k.caps.Declared && !k.caps.Nodes {
		return nil, errLacks("has no cluster nodes to list")
	}
	r, err := k.c.rpc.Nodes(ctx, &pb.TableRequest{ConnId: k.id, Table: table})
	if st, ok := status.FromError(err); ok && st.Code() == codes.Unimplemented && len(st.Details()) == 0 {
		return nil, driver.Errorf(driver.KindUnsupported, "this version of the driver plugin cannot list the database's nodes; update it in Settings, Plugins")
	}
	if err != nil {
		return nil, k.c.fail(ctx, err)
	}
	out := make([]driver.Node, len(r.GetNodes()))
	for i, n := range r.GetNodes() {
		out[i] = driver.Node{Name: n.GetName(), Status: n.GetStatus(), Version: n.GetVersion(), Objects: n.GetObjects(), Shards: int(n.GetShards())}
		for _, t := range n.GetTables() {
			nt := driver.NodeTables{Table: t.GetTable(), Shards: int(t.GetShards()), Loaded: int(t.GetLoaded()), Objects: t.GetObjects(), ShardsLeftOut: int(t.GetShardsLeftOut())}
			for _, sh := range t.GetShardList() {
				nt.ShardList = append(nt.ShardList, driver.NodeShard{Name: sh.GetName(), Objects: sh.GetObjects(), Loaded: sh.GetLoaded(), VectorIndexing: sh.GetVectorIndexing()})
			}
			out[i].Tables = append(out[i].Tables, nt)
		}
	}
	return out, nil
}

// Update writes the given cells of rows.
func (k *Conn) Update(ctx context.Context, table string, rows []driver.Row) ([]driver.RowResult, error) {
	return k.edit(ctx, k.c.rpc.Update, table, rows)
}

// Delete removes rows.
func (k *Conn) Delete(ctx context.Context, table string, rows []driver.Row) ([]driver.RowResult, error) {
	return k.edit(ctx, k.c.rpc.Delete, table, rows)
}

// Capabilities are the connection's capabilities, read when it was opened.
func (k *Conn) Capabilities() driver.Capabilities { return k.caps }

// Close ends the connection in the plugin. It is safe to call more than once; closing a
// connection whose plugin is gone succeeds.
func (k *Conn) Close() error {
	k.mu.Lock()
	if k.closed {
		k.mu.Unlock()
		return nil
	}
	k.closed = true
	k.mu.Unlock()
	if k.onClose != nil {
		defer k.onClose()
	}
	if k.c.isStopped() {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	if _, err := k.c.rpc.Close(ctx, k.req()); err != nil {
		if e := k.c.fail(ctx, err); !driver.IsKind(e, driver.KindConnection) {
			return e
		}
	}
	return nil
}

// vectorRead is how a page asks a plugin for its vectors: whole ones as their numbers where the
// driver carries them so (3 bytes on the wire for each 8 of their text, printed here by
// fromGrid), else as asked.
func vectorRead(caps driver.Capabilities, v driver.VectorRead) driver.VectorRead {
	if v == driver.VectorsFull && caps.VectorNumbers {
		return driver.VectorsNumbers
	}
	return v
}
