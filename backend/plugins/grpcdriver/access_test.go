package grpcdriver

import (
	"context"
	"net"
	"reflect"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"app/backend/driver"
	pb "app/backend/plugins/internal/proto/driverv2"
)

// Issue 40, item 4: who a connection is and what it may do crosses the plugin boundary whole,
// through the bytes: the own part always, the cluster's lists exactly where they are shown.
func TestAccessReportsRoundTripExactly(t *testing.T) {
	reader := driver.Role{Name: "article-reader", Permissions: []driver.Permission{
		{Action: "read_data", Scope: "collection Article, object *, tenant *", Words: "reading rows on Article"},
		{Action: "read_cluster", Words: "reading the cluster on the database"},
	}}
	for _, c := range []struct {
		name string
		a    *driver.AccessReport
	}{
		{"a key that may read everything", &driver.AccessReport{Enforced: true, User: "admin", Auth: "an API key",
			Roles:      []driver.Role{{Name: "root", BuiltIn: true, Permissions: []driver.Permission{}}},
			RolesShown: true, AllRoles: []driver.Role{{Name: "admin", BuiltIn: true, Permissions: []driver.Permission{}}, reader},
			UsersShown: true, Users: []driver.User{{Name: "carol", Kind: "database user", Active: false, Roles: []string{}}, {Name: "reader", Kind: "API key user", Active: true, Roles: []string{"article-reader"}}}}},
		{"a key that may read only its own, with the note", &driver.AccessReport{Enforced: true, User: "reader", Auth: "an API key", Roles: []driver.Role{reader}, Groups: []string{"staff"},
			Note: "The key's roles grant neither read_roles nor read_users, so the cluster's roles and users are not shown; only its own are."}},
		{"lists shown but empty stay lists", &driver.AccessReport{Enforced: true, User: "x", Roles: []driver.Role{}, RolesShown: true, AllRoles: []driver.Role{}, UsersShown: true, Users: []driver.User{}}},
		{"a database that checks no roles", &driver.AccessReport{Auth: "anonymous access", Roles: []driver.Role{}, Note: "does not check roles (RBAC is off)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := fromAccessReport(wire(t, toAccessReport(c.a))); !reflect.DeepEqual(got, c.a) {
				t.Fatalf("got  %#v\nwant %#v", got, c.a)
			}
		})
	}
	t.Run("the capability", func(t *testing.T) {
		if c := fromCapabilities(wire(t, toCapabilities(driver.Capabilities{Declared: true, AccessControl: true}))); !c.AccessControl {
			t.Fatal("the access capability did not cross")
		}
	})
}

// accessDriver answers the access call with what it is given.
type accessDriver struct {
	bareDriver
	answer *driver.AccessReport
	err    error
}

func (d accessDriver) AccessControl(context.Context) (*driver.AccessReport, error) {
	return d.answer, d.err
}

// The access call reaches the plugin's driver and its answer (or its failure, with its kind)
// comes back whole; the plugin declares the feature.
func TestTheAccessCallCrossesTheBoundary(t *testing.T) {
	answer := &driver.AccessReport{Enforced: true, User: "reader", Auth: "an API key", Roles: []driver.Role{{Name: "r", Permissions: []driver.Permission{{Action: "read_data", Words: "reading rows on A"}}}}, Note: "n"}
	k := openConn(t, serveLoopback(t, Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) {
		return accessDriver{answer: answer}, nil
	}}), driver.Settings{})
	if c := k.Capabilities(); !c.Declared || !c.AccessControl || !driver.Offered(k).AccessControl {
		t.Fatalf("the plugin's driver reads access, the host reads %+v", c)
	}
	ctx := context.Background()
	if got, err := k.AccessControl(ctx); err != nil || !reflect.DeepEqual(got, answer) {
		t.Fatalf("got %+v %v", got, err)
	}
	failing := openConn(t, serveLoopback(t, Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) {
		return accessDriver{err: driver.Errorf(driver.KindAuth, "the server at x refused the API key")}, nil
	}}), driver.Settings{})
	if _, err := failing.AccessControl(ctx); !driver.IsKind(err, driver.KindAuth) || !strings.Contains(err.Error(), "refused the API key") {
		t.Fatalf("a failure crossed as %v (%s)", err, driver.KindOf(err))
	}
}

// A plugin whose driver has no access call declares none, and the host refuses the call in
// words without sending it.
func TestAPluginWithoutAccessControlOffersNone(t *testing.T) {
	k := openConn(t, serveLoopback(t, Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) { return bareDriver{}, nil }}), driver.Settings{})
	if k.Capabilities().AccessControl || driver.Offered(k).AccessControl {
		t.Fatalf("a bare driver declares %+v", k.Capabilities())
	}
	if _, err := k.AccessControl(context.Background()); !driver.IsKind(err, driver.KindUnsupported) || !strings.Contains(err.Error(), "cannot show the connection's user, roles and permissions") {
		t.Fatalf("got %v", err)
	}
}

// olderAccessPlugin is a plugin built before the access call and before declaring features.
type olderAccessPlugin struct{ *Server }

func (o olderAccessPlugin) Open(ctx context.Context, req *pb.OpenRequest) (*pb.OpenResponse, error) {
	r, err := o.Server.Open(ctx, req)
	if err == nil {
		r.Capabilities.Declared, r.Capabilities.AccessControl = false, false
	}
	return r, err
}

func (olderAccessPlugin) AccessControl(context.Context, *pb.ConnRequest) (*pb.AccessReport, error) {
	return nil, unknownCall("AccessControl")
}

// A plugin built before the access call, whose driver would have one: the host cannot know
// beforehand, and the call says to update the plugin.
func TestAnOlderPluginWithoutTheAccessCallSaysToUpdateIt(t *testing.T) {
	srv := NewServer(Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) {
		return accessDriver{answer: &driver.AccessReport{}}, nil
	}, Log: logrus.New()})
	g := grpc.NewServer(ServerOptions(srv)...)
	pb.RegisterDriverServer(g, olderAccessPlugin{srv})
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
	if _, err := k.AccessControl(ctx); !driver.IsKind(err, driver.KindUnsupported) || !strings.Contains(err.Error(), "update it in Settings, Plugins") {
		t.Fatalf("got %v", err)
	}
}
