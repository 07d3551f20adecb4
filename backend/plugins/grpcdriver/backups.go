package grpcdriver

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"app/backend/driver"
	pb "app/backend/plugins/internal/proto/driverv2"
)

// The backup calls (driver.Backups, issue 40 item 5) on both sides of the boundary. A plugin
// built before them declares backups false, or (built before declaring) answers UNIMPLEMENTED:
// either way the host offers no backups for its connections, and says to update the plugin
// only when asked for one anyway.

var _ driver.Backups = (*Conn)(nil)

// errOldPluginBackups answers a backup call to a plugin built before them.
var errOldPluginBackups = driver.Errorf(driver.KindUnsupported, "this version of the driver plugin cannot make or restore backups; update it in Settings, Plugins")

// unimplemented reports whether err is an older plugin's answer to a call it does not know
// (a status with no driver error in its details).
func unimplemented(err error) bool {
	st, ok := status.FromError(err)
	return ok && st.Code() == codes.Unimplemented && len(st.Details()) == 0
}

// backupCall runs one backup call in the plugin, refusing it at once where the plugin said it
// has none.
func backupCall[T any](ctx context.Context, k *Conn, call func(context.Context, *pb.BackupRequest, ...grpc.CallOption) (T, error), req *pb.BackupRequest) (T, error) {
	var zero T
	if k.c.isStopped() {
		return zero, stoppedError()
	}
	if !k.caps.Offers(k.caps.Backups) {
		return zero, errLacks("cannot make or restore backups")
	}
	req.ConnId = k.id
	r, err := call(ctx, req)
	if unimplemented(err) {
		return zero, errOldPluginBackups
	}
	if err != nil {
		return zero, k.c.fail(ctx, err)
	}
	return r, nil
}

// BackupBackends are the places the connection's database keeps backups. A plugin without
// backups offers none (an empty list, no error): the feature is not there.
func (k *Conn) BackupBackends(ctx context.Context) ([]driver.BackupBackend, error) {
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	if !k.caps.Offers(k.caps.Backups) {
		return []driver.BackupBackend{}, nil
	}
	r, err := k.c.rpc.BackupBackends(ctx, k.req())
	if unimplemented(err) {
		return []driver.BackupBackend{}, nil
	}
	if err != nil {
		return nil, k.c.fail(ctx, err)
	}
	return fromBackupBackends(r), nil
}

// ListBackups lists a backend's backups in the plugin.
func (k *Conn) ListBackups(ctx context.Context, backend string) ([]driver.Backup, error) {
	r, err := backupCall(ctx, k, k.c.rpc.ListBackups, &pb.BackupRequest{Backend: backend})
	if err != nil {
		return nil, err
	}
	out := make([]driver.Backup, len(r.GetBackups()))
	for i, b := range r.GetBackups() {
		out[i] = *fromBackup(b)
	}
	return out, nil
}

// CreateBackup starts a backup in the plugin.
func (k *Conn) CreateBackup(ctx context.Context, backend string, req driver.BackupRequest) (*driver.Backup, error) {
	r, err := backupCall(ctx, k, k.c.rpc.CreateBackup, toBackupRequest(backend, req))
	if err != nil {
		return nil, err
	}
	return fromBackup(r), nil
}

// BackupStatus reads a backup's phase in the plugin.
func (k *Conn) BackupStatus(ctx context.Context, backend, id string) (*driver.Backup, error) {
	r, err := backupCall(ctx, k, k.c.rpc.BackupStatus, &pb.BackupRequest{Backend: backend, Id: id})
	if err != nil {
		return nil, err
	}
	return fromBackup(r), nil
}

// CancelBackup asks the plugin's database to stop a backup.
func (k *Conn) CancelBackup(ctx context.Context, backend, id string) error {
	_, err := backupCall(ctx, k, k.c.rpc.CancelBackup, &pb.BackupRequest{Backend: backend, Id: id})
	return err
}

// PlanRestore asks the plugin what a restore would do.
func (k *Conn) PlanRestore(ctx context.Context, backend string, req driver.BackupRequest) (*driver.RestorePlan, error) {
	r, err := backupCall(ctx, k, k.c.rpc.PlanRestore, toBackupRequest(backend, req))
	if err != nil {
		return nil, err
	}
	return fromRestorePlan(r), nil
}

// RestoreBackup starts a restore in the plugin.
func (k *Conn) RestoreBackup(ctx context.Context, backend string, req driver.BackupRequest) (*driver.Backup, error) {
	defer k.schema.changing()() // a restore brings tables back while it runs
	r, err := backupCall(ctx, k, k.c.rpc.RestoreBackup, toBackupRequest(backend, req))
	if err != nil {
		return nil, err
	}
	return fromBackup(r), nil
}

// RestoreStatus reads a restore's phase in the plugin.
func (k *Conn) RestoreStatus(ctx context.Context, backend, id string) (*driver.Backup, error) {
	defer k.schema.changing()() // a restore brings tables back while it runs
	r, err := backupCall(ctx, k, k.c.rpc.RestoreStatus, &pb.BackupRequest{Backend: backend, Id: id})
	if err != nil {
		return nil, err
	}
	return fromBackup(r), nil
}

// --- the plugin's side ---

// backups is the connection's driver as a driver.Backups.
func (s *Server) backups(id string) (driver.Backups, error) {
	d, err := s.conn(id)
	if err != nil {
		return nil, err
	}
	b, ok := d.(driver.Backups)
	if !ok {
		return nil, toStatus(driver.Errorf(driver.KindUnsupported, "this driver cannot make or restore backups"))
	}
	return b, nil
}

// BackupBackends lists where the connection's database keeps backups.
func (s *Server) BackupBackends(ctx context.Context, req *pb.ConnRequest) (*pb.BackupBackendsResponse, error) {
	b, err := s.backups(req.GetConnId())
	if err != nil {
		return nil, err
	}
	bs, err := b.BackupBackends(ctx)
	if err != nil {
		return nil, toStatus(err)
	}
	return toBackupBackends(bs), nil
}

// ListBackups lists a backend's backups.
func (s *Server) ListBackups(ctx context.Context, req *pb.BackupRequest) (*pb.BackupsResponse, error) {
	b, err := s.backups(req.GetConnId())
	if err != nil {
		return nil, err
	}
	list, err := b.ListBackups(ctx, req.GetBackend())
	if err != nil {
		return nil, toStatus(err)
	}
	out := &pb.BackupsResponse{Backups: make([]*pb.Backup, len(list))}
	for i := range list {
		out.Backups[i] = toBackup(&list[i])
	}
	return out, nil
}

// backupAnswer runs one call answering a backup and puts it on the wire.
func (s *Server) backupAnswer(req *pb.BackupRequest, call func(driver.Backups) (*driver.Backup, error)) (*pb.Backup, error) {
	b, err := s.backups(req.GetConnId())
	if err != nil {
		return nil, err
	}
	out, err := call(b)
	if err != nil {
		return nil, toStatus(err)
	}
	return toBackup(out), nil
}

// CreateBackup starts a backup.
func (s *Server) CreateBackup(ctx context.Context, req *pb.BackupRequest) (*pb.Backup, error) {
	return s.backupAnswer(req, func(b driver.Backups) (*driver.Backup, error) {
		return b.CreateBackup(ctx, req.GetBackend(), fromBackupRequest(req))
	})
}

// BackupStatus reads a backup's phase.
func (s *Server) BackupStatus(ctx context.Context, req *pb.BackupRequest) (*pb.Backup, error) {
	return s.backupAnswer(req, func(b driver.Backups) (*driver.Backup, error) {
		return b.BackupStatus(ctx, req.GetBackend(), req.GetId())
	})
}

// CancelBackup asks the database to stop a backup.
func (s *Server) CancelBackup(ctx context.Context, req *pb.BackupRequest) (*pb.CancelBackupResponse, error) {
	b, err := s.backups(req.GetConnId())
	if err != nil {
		return nil, err
	}
	if err := b.CancelBackup(ctx, req.GetBackend(), req.GetId()); err != nil {
		return nil, toStatus(err)
	}
	return &pb.CancelBackupResponse{}, nil
}

// PlanRestore says what a restore would do.
func (s *Server) PlanRestore(ctx context.Context, req *pb.BackupRequest) (*pb.RestorePlan, error) {
	b, err := s.backups(req.GetConnId())
	if err != nil {
		return nil, err
	}
	p, err := b.PlanRestore(ctx, req.GetBackend(), fromBackupRequest(req))
	if err != nil {
		return nil, toStatus(err)
	}
	return toRestorePlan(p), nil
}

// RestoreBackup starts a restore.
func (s *Server) RestoreBackup(ctx context.Context, req *pb.BackupRequest) (*pb.Backup, error) {
	return s.backupAnswer(req, func(b driver.Backups) (*driver.Backup, error) {
		return b.RestoreBackup(ctx, req.GetBackend(), fromBackupRequest(req))
	})
}

// RestoreStatus reads a restore's phase.
func (s *Server) RestoreStatus(ctx context.Context, req *pb.BackupRequest) (*pb.Backup, error) {
	return s.backupAnswer(req, func(b driver.Backups) (*driver.Backup, error) {
		return b.RestoreStatus(ctx, req.GetBackend(), req.GetId())
	})
}

// --- conversions ---

func toBackupBackends(bs []driver.BackupBackend) *pb.BackupBackendsResponse {
	out := &pb.BackupBackendsResponse{Backends: make([]*pb.BackupBackend, len(bs))}
	for i, b := range bs {
		out.Backends[i] = &pb.BackupBackend{Name: b.Name, Label: b.Label, Where: b.Where}
	}
	return out
}

func fromBackupBackends(r *pb.BackupBackendsResponse) []driver.BackupBackend {
	out := make([]driver.BackupBackend, len(r.GetBackends()))
	for i, b := range r.GetBackends() {
		out[i] = driver.BackupBackend{Name: b.GetName(), Label: b.GetLabel(), Where: b.GetWhere()}
	}
	return out
}

func toBackupRequest(backend string, r driver.BackupRequest) *pb.BackupRequest {
	return &pb.BackupRequest{Backend: backend, Id: r.ID, Tables: r.Tables}
}

func fromBackupRequest(r *pb.BackupRequest) driver.BackupRequest {
	return driver.BackupRequest{ID: r.GetId(), Tables: emptyNil(r.GetTables())}
}

// unixNano is t on the wire: 0 for the zero time (not known), which UnixNano cannot say.
func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// fromUnixNano is unixNano's inverse, in UTC.
func fromUnixNano(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

func toBackup(b *driver.Backup) *pb.Backup {
	if b == nil {
		return &pb.Backup{}
	}
	return &pb.Backup{Id: b.ID, Backend: b.Backend, Tables: b.Tables, State: string(b.State), Phase: b.Phase,
		StartedUnixNano: unixNano(b.Started), CompletedUnixNano: unixNano(b.Completed), Bytes: b.Bytes,
		Where: b.Where, Error: b.Error}
}

func fromBackup(b *pb.Backup) *driver.Backup {
	return &driver.Backup{ID: b.GetId(), Backend: b.GetBackend(), Tables: emptyNil(b.GetTables()),
		State: driver.BackupState(b.GetState()), Phase: b.GetPhase(),
		Started: fromUnixNano(b.GetStartedUnixNano()), Completed: fromUnixNano(b.GetCompletedUnixNano()),
		Bytes: b.GetBytes(), Where: b.GetWhere(), Error: b.GetError()}
}

func toRestorePlan(p *driver.RestorePlan) *pb.RestorePlan {
	out := &pb.RestorePlan{Id: p.ID, Backend: p.Backend, Tables: p.Tables, Creates: p.Creates, Overwrites: p.Overwrites, Note: p.Note}
	for _, r := range p.Refused {
		out.Refused = append(out.Refused, &pb.RestorePlan_Refusal{Table: r.Table, Reason: r.Reason})
	}
	return out
}

// fromRestorePlan reads a plan; its lists are never nil, so that "creates nothing" and
// "overwrites nothing" print as empty lists.
func fromRestorePlan(p *pb.RestorePlan) *driver.RestorePlan {
	out := &driver.RestorePlan{ID: p.GetId(), Backend: p.GetBackend(), Tables: orEmpty(p.GetTables()),
		Creates: orEmpty(p.GetCreates()), Overwrites: orEmpty(p.GetOverwrites()), Note: p.GetNote()}
	for _, r := range p.GetRefused() {
		out.Refused = append(out.Refused, driver.RestoreRefusal{Table: r.GetTable(), Reason: r.GetReason()})
	}
	return out
}

func emptyNil(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
