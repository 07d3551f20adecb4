package grpcdriver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"maps"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/sirupsen/logrus"
	"google.golang.org/grpc"

	"app/backend/driver"
	pb "app/backend/plugins/internal/proto/driverv2"
)

// Info describes a plugin: what `<plugin> describe` prints and the Info call answers.
type Info struct {
	// Name is the plugin's registry name ("weaviate").
	Name string
	// Version is the plugin's own version (semantic, "1.0.0").
	Version string
	// Types are the connection types the plugin serves ("weaviate").
	Types []string
	// Capabilities are the driver's capabilities (driver.Driver.Capabilities).
	Capabilities driver.Capabilities
	// Connections describes the connections it serves (contract 3): types with labels, the
	// settings' fields. Empty: protocol 2's Settings fields describe them.
	Connections driver.Description
}

// Config is what a plugin binary hands to Main or Serve.
type Config struct {
	Info Info
	// Open makes an unconnected driver for one connection. log is the plugin's logger with
	// the connection's label as a field; give it to the driver so its lines reach the app.
	Open func(s driver.Settings, log logrus.FieldLogger) (driver.Driver, error)
	// Classify is driver.Driver.Classify, which needs no connection.
	Classify func(text string) (driver.Classification, error)
	// Log is the plugin's logger. Nil means JSON lines on stderr in the shape the host
	// parses (NewLogger); stdout belongs to the protocol and is never written.
	Log *logrus.Logger
	// ProtocolVersion overrides ProtocolVersion; only tests set it, to prove what the host
	// says about a plugin of another protocol.
	ProtocolVersion int
}

func (c Config) protocolVersion() int {
	if c.ProtocolVersion != 0 {
		return c.ProtocolVersion
	}
	return ProtocolVersion
}

// Server serves the Driver service in the plugin: a table of open connections, each a
// driver.Driver made by Config.Open.
type Server struct {
	pb.UnimplementedDriverServer
	cfg Config
	log logrus.FieldLogger

	mu    sync.Mutex
	conns map[string]driver.Driver
	ahead []*readAhead // pages of walks read before they are asked for (scanahead.go)
}

// NewServer returns the service for cfg.
func NewServer(cfg Config) *Server {
	if cfg.Log == nil {
		cfg.Log = NewLogger(nil)
	}
	return &Server{cfg: cfg, log: cfg.Log, conns: map[string]driver.Driver{}}
}

// Register adds the service to a gRPC server.
func (s *Server) Register(g *grpc.Server) { pb.RegisterDriverServer(g, s) }

// OpenCount returns how many connections are open.
func (s *Server) OpenCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// CloseAll closes every connection (the plugin is stopping).
func (s *Server) CloseAll() {
	s.mu.Lock()
	conns := s.conns
	s.conns = map[string]driver.Driver{}
	s.mu.Unlock()
	for _, d := range conns {
		_ = d.Close()
	}
}

func (s *Server) conn(id string) (driver.Driver, error) {
	s.mu.Lock()
	d, ok := s.conns[id]
	s.mu.Unlock()
	if !ok {
		return nil, toStatus(driver.Errorf(driver.KindConnection, "the connection is closed"))
	}
	return d, nil
}

// Info answers what the plugin is.
func (s *Server) Info(context.Context, *pb.InfoRequest) (*pb.InfoResponse, error) {
	return toInfo(s.cfg.Info, s.cfg.protocolVersion()), nil
}

// Open makes a connection and returns its id.
func (s *Server) Open(_ context.Context, req *pb.OpenRequest) (*pb.OpenResponse, error) {
	log := s.log
	if req.GetLabel() != "" {
		log = log.WithField("connection", req.GetLabel())
	}
	d, err := s.cfg.Open(fromSettings(req.GetSettings()), log)
	if err != nil {
		return nil, toStatus(err)
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	s.mu.Lock()
	s.conns[id] = d
	s.mu.Unlock()
	return &pb.OpenResponse{ConnId: id, Capabilities: toCapabilities(driver.Offer(d))}, nil
}

// versioned is what a driver offers beyond the contract to report the server's version.
type versioned interface{ ServerVersion() string }

func health(d driver.Driver, err error) (*pb.HealthResponse, error) {
	if err != nil {
		return nil, toStatus(err)
	}
	out := &pb.HealthResponse{}
	if v, ok := d.(versioned); ok {
		out.ServerVersion = v.ServerVersion()
	}
	if r, ok := d.(driver.Router); ok {
		out.Route = r.Route()
	}
	return out, nil
}

// Connect runs the driver's Connect.
func (s *Server) Connect(ctx context.Context, req *pb.ConnRequest) (*pb.HealthResponse, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	return health(d, d.Connect(ctx))
}

// Ping runs the driver's health check.
func (s *Server) Ping(ctx context.Context, req *pb.ConnRequest) (*pb.HealthResponse, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	return health(d, d.Ping(ctx))
}

// ListTables lists the tables.
func (s *Server) ListTables(ctx context.Context, req *pb.ConnRequest) (*pb.ListTablesResponse, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	ts, err := d.ListTables(ctx)
	if err != nil {
		return nil, toStatus(err)
	}
	return &pb.ListTablesResponse{Tables: toTables(ts)}, nil
}

// DescribeTable describes one table.
func (s *Server) DescribeTable(ctx context.Context, req *pb.TableRequest) (*pb.DescribeTableResponse, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	t, err := d.DescribeTable(ctx, req.GetTable())
	if err != nil {
		return nil, toStatus(err)
	}
	return toTableInfo(t), nil
}

// CreateTable makes a table, when the driver can (driver.TableCreator).
func (s *Server) CreateTable(ctx context.Context, req *pb.CreateTableRequest) (*pb.DescribeTableResponse, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	tc, ok := d.(driver.TableCreator)
	if !ok {
		return nil, toStatus(driver.Errorf(driver.KindUnsupported, "this driver cannot create tables"))
	}
	spec := driver.TableSpec{Name: req.GetName(), Vectors: req.GetVectors()}
	for _, c := range req.GetColumns() {
		spec.Columns = append(spec.Columns, driver.ColumnSpec{Name: c.GetName(), Kind: driver.ColumnKind(c.GetKind()), Of: driver.ColumnKind(c.GetOf()), Exact: c.GetExact()})
	}
	t, err := tc.CreateTable(ctx, spec)
	if err != nil {
		return nil, toStatus(err)
	}
	return toTableInfo(t), nil
}

// Templates are the editor's statements for a table, when the driver offers some
// (driver.TemplateMaker); none otherwise.
func (s *Server) Templates(ctx context.Context, req *pb.TableRequest) (*pb.TemplatesResponse, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	out := &pb.TemplatesResponse{}
	tm, ok := d.(driver.TemplateMaker)
	if !ok {
		return out, nil
	}
	ts, err := tm.Templates(ctx, req.GetTable())
	if err != nil {
		return nil, toStatus(err)
	}
	for _, t := range ts {
		out.Templates = append(out.Templates, &pb.Template{Name: t.Name, Text: t.Text})
	}
	return out, nil
}

// Completions answers the driver's editor words, when it names them (driver.Completer).
func (s *Server) Completions(ctx context.Context, req *pb.TableRequest) (*pb.CompletionsResponse, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	c, ok := d.(driver.Completer)
	if !ok {
		return nil, toStatus(driver.Errorf(driver.KindUnsupported, "this driver names no editor words"))
	}
	words, err := c.Completions(ctx)
	if err != nil {
		return nil, toStatus(err)
	}
	out := &pb.CompletionsResponse{Functions: words.Functions}
	for _, name := range slices.Sorted(maps.Keys(words.Tables)) {
		out.Tables = append(out.Tables, &pb.TableWords{Table: name, Columns: words.Tables[name]})
	}
	return out, nil
}

// Browse loads one page.
func (s *Server) Browse(ctx context.Context, req *pb.BrowseRequest) (*pb.Grid, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	page := driver.Page{Offset: int(req.GetOffset()), Limit: int(req.GetLimit()), Vectors: driver.VectorRead(req.GetVectors())}
	g, err := d.Browse(ctx, req.GetTable(), page, fromFilters(req.GetFilters()), fromSorts(req.GetSort()))
	if err != nil {
		return nil, toStatus(err)
	}
	out, err := toGrid(g)
	if err != nil {
		return nil, toStatus(driver.Wrap(driver.KindQueryFailed, err, "the page cannot be sent: %s", err.Error()))
	}
	return out, nil
}

// Search runs a search.
func (s *Server) Search(ctx context.Context, req *pb.SearchRequest) (*pb.Grid, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	g, err := d.Search(ctx, req.GetTable(), fromSearch(req), int(req.GetLimit()))
	if err != nil {
		return nil, toStatus(err)
	}
	out, err := toGrid(g)
	if err != nil {
		return nil, toStatus(driver.Wrap(driver.KindQueryFailed, err, "the matches cannot be sent: %s", err.Error()))
	}
	return out, nil
}

// CheckCells types one row's cells.
func (s *Server) CheckCells(ctx context.Context, req *pb.CheckCellsRequest) (*pb.CheckCellsResponse, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	values := make(map[string]*string, len(req.GetCells()))
	for _, c := range req.GetCells() {
		if c.GetNull() {
			values[c.GetColumn()] = nil
			continue
		}
		text := c.GetText()
		values[c.GetColumn()] = &text
	}
	problems, err := d.CheckCells(ctx, req.GetTable(), values)
	if err != nil {
		return nil, toStatus(err)
	}
	return &pb.CheckCellsResponse{Problems: problems}, nil
}

// CheckPaths reports each path to the database, when the driver can (driver.PathChecker).
func (s *Server) CheckPaths(ctx context.Context, req *pb.ConnRequest) (*pb.PathsResponse, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	out := &pb.PathsResponse{}
	if pc, ok := d.(driver.PathChecker); ok {
		for _, p := range pc.CheckPaths(ctx) {
			out.Paths = append(out.Paths, &pb.PathStatus{Name: p.Name, Ok: p.OK, Detail: p.Detail})
		}
	}
	return out, nil
}

// Scan walks one page of a table, when the driver can (driver.Scanner).
func (s *Server) Scan(ctx context.Context, req *pb.ScanRequest) (*pb.ScanPage, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	sc, ok := d.(driver.Scanner)
	if !ok {
		return nil, toStatus(driver.Errorf(driver.KindUnsupported, "this driver cannot read a whole table"))
	}
	var out *pb.ScanPage
	if ra := s.claimAhead(req); ra != nil {
		select {
		case <-ra.done:
			out = ra.page // on its error, the page is read again below, in this request
		case <-ctx.Done():
			ra.cancel()
			return nil, toStatus(driver.ContextError(ctx))
		}
		ra.cancel()
	}
	if out == nil {
		if out, err = scanPage(ctx, sc, req); err != nil {
			return nil, toStatus(err)
		}
	}
	s.startAhead(sc, req, out)
	return out, nil
}

// Count counts rows.
func (s *Server) Count(ctx context.Context, req *pb.CountRequest) (*pb.CountResponse, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	n, err := d.Count(ctx, req.GetTable(), fromFilters(req.GetFilters()))
	if err != nil {
		return nil, toStatus(err)
	}
	return &pb.CountResponse{Count: n}, nil
}

// Estimate answers the driver's estimate of a count, when it can (driver.Estimator).
func (s *Server) Estimate(ctx context.Context, req *pb.CountRequest) (*pb.CountResponse, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	est, ok := d.(driver.Estimator)
	if !ok {
		return nil, toStatus(driver.Errorf(driver.KindUnsupported, "this driver cannot estimate a count"))
	}
	n, err := est.Estimate(ctx, req.GetTable(), fromFilters(req.GetFilters()))
	if err != nil {
		return nil, toStatus(err)
	}
	return &pb.CountResponse{Count: n}, nil
}

// Execute runs editor text.
func (s *Server) Execute(ctx context.Context, req *pb.ExecuteRequest) (*pb.Result, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	r, err := d.Execute(ctx, req.GetText(), driver.ExecOptions{MaxRows: int(req.GetMaxRows())})
	if err != nil {
		return nil, toStatus(err)
	}
	out, err := toResult(r)
	if err != nil {
		return nil, toStatus(driver.Wrap(driver.KindQueryFailed, err, "the result cannot be sent: %s", err.Error()))
	}
	return out, nil
}

// Classify classifies editor text; it needs no connection.
func (s *Server) Classify(_ context.Context, req *pb.ClassifyRequest) (*pb.Classification, error) {
	if s.cfg.Classify == nil {
		return toClassification(driver.Classification{Access: driver.AccessWrite}, driver.Errorf(driver.KindUnsupported, "this driver cannot classify queries")), nil
	}
	c, err := s.cfg.Classify(req.GetText())
	return toClassification(c, err), nil
}

type editFunc func(ctx context.Context, table string, rows []driver.Row) ([]driver.RowResult, error)

func (s *Server) edit(ctx context.Context, req *pb.EditRequest, pick func(driver.Driver) editFunc) (*pb.EditResponse, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	rs, err := pick(d)(ctx, req.GetTable(), fromRows(req.GetRows()))
	if err != nil && len(rs) > 0 {
		return nil, toStatus(err, &pb.EditResponse{Results: toRowResults(rs)})
	}
	if err != nil {
		return nil, toStatus(err)
	}
	return &pb.EditResponse{Results: toRowResults(rs)}, nil
}

// Insert adds rows.
func (s *Server) Insert(ctx context.Context, req *pb.EditRequest) (*pb.EditResponse, error) {
	return s.edit(ctx, req, func(d driver.Driver) editFunc { return d.Insert })
}

// WriteBatch writes rows at once, when the driver can (driver.BatchWriter).
func (s *Server) WriteBatch(ctx context.Context, req *pb.EditRequest) (*pb.EditResponse, error) {
	return s.edit(ctx, req, func(d driver.Driver) editFunc {
		if bw, ok := d.(driver.BatchWriter); ok {
			return bw.WriteBatch
		}
		return func(context.Context, string, []driver.Row) ([]driver.RowResult, error) {
			return nil, driver.Errorf(driver.KindUnsupported, "this driver cannot write rows in batches")
		}
	})
}

// ListTenants lists a table's tenants, when the driver can (driver.Tenants).
func (s *Server) ListTenants(ctx context.Context, req *pb.TableRequest) (*pb.ListTenantsResponse, error) {
	tn, err := s.tenants(req.GetConnId())
	if err != nil {
		return nil, err
	}
	ts, err := tn.ListTenants(ctx, req.GetTable())
	if err != nil {
		return nil, toStatus(err)
	}
	out := &pb.ListTenantsResponse{Tenants: make([]*pb.Tenant, len(ts))}
	for i, t := range ts {
		out.Tenants[i] = &pb.Tenant{Name: t.Name, Table: t.Table, Status: t.Status}
	}
	return out, nil
}

// SetTenantStatus changes a tenant's activity status, when the driver can (driver.Tenants).
func (s *Server) SetTenantStatus(ctx context.Context, req *pb.SetTenantStatusRequest) (*pb.SetTenantStatusResponse, error) {
	tn, err := s.tenants(req.GetConnId())
	if err != nil {
		return nil, err
	}
	if err := tn.SetTenantStatus(ctx, req.GetTable(), req.GetTenant(), req.GetStatus()); err != nil {
		return nil, toStatus(err)
	}
	return &pb.SetTenantStatusResponse{}, nil
}

// Nodes reads the cluster's nodes, when the driver can (driver.Cluster).
func (s *Server) Nodes(ctx context.Context, req *pb.TableRequest) (*pb.NodesResponse, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	cl, ok := d.(driver.Cluster)
	if !ok {
		return nil, toStatus(driver.Errorf(driver.KindUnsupported, "this driver cannot list the database's nodes"))
	}
	nodes, err := cl.Nodes(ctx, req.GetTable())
	if err != nil {
		return nil, toStatus(err)
	}
	out := &pb.NodesResponse{Nodes: make([]*pb.Node, len(nodes))}
	for i, n := range nodes {
		pn := &pb.Node{Name: n.Name, Status: n.Status, Version: n.Version, Objects: n.Objects, Shards: int64(n.Shards)}
		for _, t := range n.Tables {
			pt := &pb.NodeTables{Table: t.Table, Shards: int64(t.Shards), Loaded: int64(t.Loaded), Objects: t.Objects, ShardsLeftOut: int64(t.ShardsLeftOut)}
			for _, sh := range t.ShardList {
				pt.ShardList = append(pt.ShardList, &pb.NodeShard{Name: sh.Name, Objects: sh.Objects, Loaded: sh.Loaded, VectorIndexing: sh.VectorIndexing})
			}
			pn.Tables = append(pn.Tables, pt)
		}
		out.Nodes[i] = pn
	}
	return out, nil
}

// tenants is the connection's driver as a driver.Tenants.
func (s *Server) tenants(id string) (driver.Tenants, error) {
	d, err := s.conn(id)
	if err != nil {
		return nil, err
	}
	tn, ok := d.(driver.Tenants)
	if !ok {
		return nil, toStatus(driver.Errorf(driver.KindUnsupported, "this driver has no tenants"))
	}
	return tn, nil
}

// Update changes cells of rows.
func (s *Server) Update(ctx context.Context, req *pb.EditRequest) (*pb.EditResponse, error) {
	return s.edit(ctx, req, func(d driver.Driver) editFunc { return d.Update })
}

// Delete removes rows.
func (s *Server) Delete(ctx context.Context, req *pb.EditRequest) (*pb.EditResponse, error) {
	return s.edit(ctx, req, func(d driver.Driver) editFunc { return d.Delete })
}

// Capabilities returns the connection's capabilities.
func (s *Server) Capabilities(_ context.Context, req *pb.ConnRequest) (*pb.Capabilities, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	return toCapabilities(driver.Offer(d)), nil
}

// Close closes a connection; an unknown id is already closed.
func (s *Server) Close(_ context.Context, req *pb.ConnRequest) (*pb.CloseResponse, error) {
	s.mu.Lock()
	d, ok := s.conns[req.GetConnId()]
	delete(s.conns, req.GetConnId())
	s.mu.Unlock()
	s.dropAhead(req.GetConnId())
	if ok {
		if err := d.Close(); err != nil {
			return nil, toStatus(err)
		}
	}
	return &pb.CloseResponse{}, nil
}

// recoverUnary turns a panic in a driver call into a query_failed error, logged with its
// stack in the plugin, instead of a dead plugin process.
func (s *Server) recoverUnary(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.WithField("method", info.FullMethod).Errorf("driver panic: %v\n%s", p, debug.Stack())
			resp, err = nil, toStatus(driver.Errorf(driver.KindQueryFailed, "the driver failed unexpectedly (see the app log)"))
		}
	}()
	return next(ctx, req)
}

func toInfo(i Info, protocol int) *pb.InfoResponse {
	return &pb.InfoResponse{
		Name:            i.Name,
		Version:         i.Version,
		ProtocolVersion: int32(protocol),
		Types:           i.Types,
		Capabilities:    toCapabilities(i.Capabilities),
		Description:     toDescription(i.Connections),
	}
}
