package grpcdriver

import (
	"context"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"app/backend/driver"
	pb "app/backend/plugins/internal/proto/driverv2"
)

// Issue 40, item 5: the backup calls cross the plugin boundary whole, through the bytes.
func TestBackupsRoundTripExactly(t *testing.T) {
	started := time.Date(2026, 12, 7, 12, 56, 51, 520_000_000, time.UTC)
	t.Run("backends", func(t *testing.T) {
		bs := []driver.BackupBackend{{Name: "filesystem", Label: "the database server's disk", Where: "/var/backups"}, {Name: "s3", Label: "an S3 bucket"}}
		if got := fromBackupBackends(wire(t, toBackupBackends(bs))); !reflect.DeepEqual(got, bs) {
			t.Fatalf("got %#v", got)
		}
	})
	t.Run("a backup, finished, with its size and its tables", func(t *testing.T) {
		b := &driver.Backup{ID: "some", Backend: "filesystem", Tables: []string{"Alpha", "Beta"}, State: driver.BackupSucceeded, Phase: "SUCCESS",
			Started: started, Completed: started.Add(2003 * time.Millisecond), Bytes: 1674, Where: "/var/backups/some"}
		if got := fromBackup(wire(t, toBackup(b))); !reflect.DeepEqual(got, b) {
			t.Fatalf("got  %#v\nwant %#v", got, b)
		}
	})
	t.Run("a restore running, with no times, no size and no tables known", func(t *testing.T) {
		b := &driver.Backup{ID: "some", Backend: "filesystem", State: driver.BackupRunning, Phase: "TRANSFERRING"}
		if got := fromBackup(wire(t, toBackup(b))); !reflect.DeepEqual(got, b) {
			t.Fatalf("got %#v", got)
		}
	})
	t.Run("a failed one keeps its error in words", func(t *testing.T) {
		b := &driver.Backup{ID: "x", Backend: "filesystem", State: driver.BackupFailed, Phase: "FAILED", Started: started, Error: "collections that exist were not restored: Beta"}
		if got := fromBackup(wire(t, toBackup(b))); !reflect.DeepEqual(got, b) {
			t.Fatalf("got %#v", got)
		}
	})
	t.Run("a restore plan with its refusals", func(t *testing.T) {
		p := &driver.RestorePlan{ID: "all", Backend: "filesystem", Tables: []string{"Alpha", "Beta"}, Creates: []string{"Alpha"}, Overwrites: []string{},
			Refused: []driver.RestoreRefusal{{Table: "Beta", Reason: "exists: delete it first"}}, Note: "overwrites nothing"}
		if got := fromRestorePlan(wire(t, toRestorePlan(p))); !reflect.DeepEqual(got, p) {
			t.Fatalf("got %#v", got)
		}
	})
	t.Run("a plan that creates nothing and overwrites nothing says so with empty lists", func(t *testing.T) {
		p := &driver.RestorePlan{ID: "x", Backend: "filesystem", Tables: []string{}, Creates: []string{}, Overwrites: []string{}}
		if got := fromRestorePlan(wire(t, toRestorePlan(p))); !reflect.DeepEqual(got, p) {
			t.Fatalf("got %#v", got)
		}
	})
	t.Run("a request names its tables, or none for all", func(t *testing.T) {
		for _, r := range []driver.BackupRequest{{ID: "some", Tables: []string{"Alpha"}}, {}} {
			if got := fromBackupRequest(wire(t, toBackupRequest("filesystem", r))); !reflect.DeepEqual(got, r) {
				t.Fatalf("got %#v, want %#v", got, r)
			}
		}
	})
	t.Run("the capability and a statement only the person runs", func(t *testing.T) {
		if c := fromCapabilities(wire(t, toCapabilities(driver.Capabilities{Declared: true, Backups: true}))); !c.Backups {
			t.Fatal("the backups capability did not cross")
		}
		c, err := fromClassification(wire(t, toClassification(driver.Classification{Access: driver.AccessWrite, Form: driver.FormRequest, PersonOnly: true}, nil)))
		if err != nil || !c.PersonOnly || !c.Write() {
			t.Fatalf("%+v %v", c, err)
		}
	})
}

// backingDriver records the backup calls it is asked and answers each with what it is given.
type backingDriver struct {
	bareDriver
	got    *[]string
	answer driver.Backup
	plan   driver.RestorePlan
	err    error
}

func (d backingDriver) record(s string) { *d.got = append(*d.got, s) }

func (d backingDriver) BackupBackends(context.Context) ([]driver.BackupBackend, error) {
	d.record("backends")
	return []driver.BackupBackend{{Name: "filesystem", Label: "disk", Where: "/b"}}, d.err
}
func (d backingDriver) ListBackups(_ context.Context, backend string) ([]driver.Backup, error) {
	d.record("list " + backend)
	return []driver.Backup{d.answer, {ID: "older", Backend: backend, State: driver.BackupCancelled, Phase: "CANCELED"}}, d.err
}
func (d backingDriver) CreateBackup(_ context.Context, backend string, r driver.BackupRequest) (*driver.Backup, error) {
	d.record("create " + backend + " " + r.ID + " " + strings.Join(r.Tables, ","))
	return &d.answer, d.err
}
func (d backingDriver) BackupStatus(_ context.Context, backend, id string) (*driver.Backup, error) {
	d.record("status " + backend + " " + id)
	return &d.answer, d.err
}
func (d backingDriver) CancelBackup(_ context.Context, backend, id string) error {
	d.record("cancel " + backend + " " + id)
	return d.err
}
func (d backingDriver) PlanRestore(_ context.Context, backend string, r driver.BackupRequest) (*driver.RestorePlan, error) {
	d.record("plan " + backend + " " + r.ID + " " + strings.Join(r.Tables, ","))
	return &d.plan, d.err
}
func (d backingDriver) RestoreBackup(_ context.Context, backend string, r driver.BackupRequest) (*driver.Backup, error) {
	d.record("restore " + backend + " " + r.ID + " " + strings.Join(r.Tables, ","))
	return &d.answer, d.err
}
func (d backingDriver) RestoreStatus(_ context.Context, backend, id string) (*driver.Backup, error) {
	d.record("restore status " + backend + " " + id)
	return &d.answer, d.err
}

// Each backup call reaches the plugin's driver with what the host asked, and its answer (or
// its refusal, with its precise kind) comes back whole; the plugin declares the feature.
func TestBackupCallsCrossTheBoundary(t *testing.T) {
	var got []string
	answer := driver.Backup{ID: "some", Backend: "filesystem", Tables: []string{"Alpha"}, State: driver.BackupRunning, Phase: "STARTED",
		Started: time.Date(2026, 12, 7, 13, 0, 0, 0, time.UTC), Where: "/b/some"}
	plan := driver.RestorePlan{ID: "some", Backend: "filesystem", Tables: []string{"Alpha"}, Creates: []string{"Alpha"}, Overwrites: []string{}, Note: "n"}
	var fail error
	k := openConn(t, serveLoopback(t, Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) {
		return backingDriver{got: &got, answer: answer, plan: plan, err: fail}, nil
	}}), driver.Settings{})
	if c := k.Capabilities(); !c.Declared || !c.Backups || !driver.Offered(k).Backups {
		t.Fatalf("the plugin's driver backs up, the host reads %+v", c)
	}
	ctx := context.Background()
	bs, err := k.BackupBackends(ctx)
	if err != nil || len(bs) != 1 || bs[0] != (driver.BackupBackend{Name: "filesystem", Label: "disk", Where: "/b"}) {
		t.Fatalf("%+v %v", bs, err)
	}
	list, err := k.ListBackups(ctx, "filesystem")
	if err != nil || len(list) != 2 || !reflect.DeepEqual(list[0], answer) || list[1].State != driver.BackupCancelled {
		t.Fatalf("%+v %v", list, err)
	}
	for name, call := range map[string]func() (*driver.Backup, error){
		"create": func() (*driver.Backup, error) {
			return k.CreateBackup(ctx, "filesystem", driver.BackupRequest{ID: "some", Tables: []string{"Alpha"}})
		},
		"status": func() (*driver.Backup, error) { return k.BackupStatus(ctx, "filesystem", "some") },
		"restore": func() (*driver.Backup, error) {
			return k.RestoreBackup(ctx, "filesystem", driver.BackupRequest{ID: "some"})
		},
		"restore status": func() (*driver.Backup, error) { return k.RestoreStatus(ctx, "filesystem", "some") },
	} {
		if b, err := call(); err != nil || !reflect.DeepEqual(*b, answer) {
			t.Errorf("%s: %+v %v", name, b, err)
		}
	}
	if p, err := k.PlanRestore(ctx, "filesystem", driver.BackupRequest{ID: "some", Tables: []string{"Alpha"}}); err != nil || !reflect.DeepEqual(*p, plan) {
		t.Fatalf("plan %+v %v", p, err)
	}
	if err := k.CancelBackup(ctx, "filesystem", "some"); err != nil {
		t.Fatal(err)
	}
	want := []string{"backends", "list filesystem", "plan filesystem some Alpha", "cancel filesystem some"}
	for _, w := range []string{"create filesystem some Alpha", "status filesystem some", "restore filesystem some ", "restore status filesystem some"} {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			t.Errorf("the driver was not asked %q: %q", w, got)
		}
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			t.Errorf("the driver was not asked %q: %q", w, got)
		}
	}

	refusing := openConn(t, serveLoopback(t, Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) {
		return backingDriver{got: &got, err: driver.Errorf(driver.KindConflict, "a backup with the id %q already exists in filesystem", "some")}, nil
	}}), driver.Settings{})
	if _, err := refusing.CreateBackup(ctx, "filesystem", driver.BackupRequest{ID: "some"}); !driver.IsKind(err, driver.KindConflict) || !strings.Contains(err.Error(), `"some" already exists`) {
		t.Fatalf("a refusal crossed as %v (%s)", err, driver.KindOf(err))
	}
}

// A plugin whose driver has no backups declares none: the host offers none (no backends, no
// error) and refuses each call in words without sending it.
func TestAPluginWithoutBackupsOffersNone(t *testing.T) {
	k := openConn(t, serveLoopback(t, Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) { return bareDriver{}, nil }}), driver.Settings{})
	if k.Capabilities().Backups || driver.Offered(k).Backups {
		t.Fatalf("a bare driver declares %+v", k.Capabilities())
	}
	ctx := context.Background()
	if bs, err := k.BackupBackends(ctx); err != nil || len(bs) != 0 {
		t.Fatalf("backends %+v %v", bs, err)
	}
	if _, err := k.ListBackups(ctx, "filesystem"); !driver.IsKind(err, driver.KindUnsupported) || !strings.Contains(err.Error(), "cannot make or restore backups") {
		t.Fatalf("list: %v", err)
	}
	if err := k.CancelBackup(ctx, "filesystem", "x"); !driver.IsKind(err, driver.KindUnsupported) {
		t.Fatalf("cancel: %v", err)
	}
}

// olderPlugin is a plugin built before the backup calls and before declaring its features:
// its server answers each backup call as the generated code of that protocol does.
type olderPlugin struct{ *Server }

func unknownCall(name string) error {
	return status.Errorf(codes.Unimplemented, "method %s not implemented", name)
}

// Open answers capabilities as a plugin built before declaring them (and before backups).
func (o olderPlugin) Open(ctx context.Context, req *pb.OpenRequest) (*pb.OpenResponse, error) {
	r, err := o.Server.Open(ctx, req)
	if err == nil {
		r.Capabilities.Declared, r.Capabilities.Backups = false, false
	}
	return r, err
}

func (olderPlugin) BackupBackends(context.Context, *pb.ConnRequest) (*pb.BackupBackendsResponse, error) {
	return nil, unknownCall("BackupBackends")
}
func (olderPlugin) ListBackups(context.Context, *pb.BackupRequest) (*pb.BackupsResponse, error) {
	return nil, unknownCall("ListBackups")
}
func (olderPlugin) CreateBackup(context.Context, *pb.BackupRequest) (*pb.Backup, error) {
	return nil, unknownCall("CreateBackup")
}
func (olderPlugin) RestoreBackup(context.Context, *pb.BackupRequest) (*pb.Backup, error) {
	return nil, unknownCall("RestoreBackup")
}

// A plugin built before the backup calls (and before declaring its features, so the host
// cannot know beforehand): its connections offer no backends, and a call says to update it.
func TestAnOlderPluginWithoutTheBackupCallsOffersNoBackups(t *testing.T) {
	srv := NewServer(Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) { return bareDriver{}, nil },
		Log: logrus.New()})
	g := grpc.NewServer(ServerOptions(srv)...)
	pb.RegisterDriverServer(g, olderPlugin{srv})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = g.Serve(ln) }()
	t.Cleanup(g.Stop)
	cc, err := grpc.NewClient(ln.Addr().String(), append(DialOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	ctx := context.Background()
	k, err := NewClient(cc, nil).Open(ctx, driver.Settings{}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if k.Capabilities().Declared {
		t.Fatal("the stand-in for an older plugin declares its features")
	}
	if bs, err := k.BackupBackends(ctx); err != nil || len(bs) != 0 {
		t.Fatalf("backends %+v %v", bs, err)
	}
	for name, call := range map[string]func() error{
		"list":    func() error { _, err := k.ListBackups(ctx, "filesystem"); return err },
		"create":  func() error { _, err := k.CreateBackup(ctx, "filesystem", driver.BackupRequest{}); return err },
		"restore": func() error { _, err := k.RestoreBackup(ctx, "filesystem", driver.BackupRequest{ID: "x"}); return err },
	} {
		if err := call(); !driver.IsKind(err, driver.KindUnsupported) || !strings.Contains(err.Error(), "cannot make or restore backups; update it in Settings, Plugins") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
