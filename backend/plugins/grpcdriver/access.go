package grpcdriver

import (
	"context"

	"app/backend/driver"
	pb "app/backend/plugins/internal/proto/driverv2"
)

// The access call (driver.AccessControl, issue 40 item 4) on both sides of the boundary. A
// plugin built before it declares access_control false, or (built before declaring) answers
// UNIMPLEMENTED: either way the host shows no user, roles or permissions for its
// connections, and says to update the plugin only when asked anyway.

var _ driver.AccessControl = (*Conn)(nil)

// errOldPluginAccess answers the access call to a plugin built before it.
var errOldPluginAccess = driver.Errorf(driver.KindUnsupported, "this version of the driver plugin cannot show the connection's user, roles and permissions; update it in Settings, Plugins")

// AccessControl reads the connection's user, roles and permissions in the plugin.
func (k *Conn) AccessControl(ctx context.Context) (*driver.AccessReport, error) {
	if k.c.isStopped() {
		return nil, stoppedError()
	}
	if !k.caps.Offers(k.caps.AccessControl) {
		return nil, errLacks("cannot show the connection's user, roles and permissions")
	}
	r, err := k.c.rpc.AccessControl(ctx, k.req())
	if unimplemented(err) {
		return nil, errOldPluginAccess
	}
	if err != nil {
		return nil, k.c.fail(ctx, err)
	}
	return fromAccessReport(r), nil
}

// --- the plugin's side ---

// AccessControl reads who the connection is and what it may do.
func (s *Server) AccessControl(ctx context.Context, req *pb.ConnRequest) (*pb.AccessReport, error) {
	d, err := s.conn(req.GetConnId())
	if err != nil {
		return nil, err
	}
	a, ok := d.(driver.AccessControl)
	if !ok {
		return nil, toStatus(driver.Errorf(driver.KindUnsupported, "this driver cannot show the connection's user, roles and permissions"))
	}
	r, err := a.AccessControl(ctx)
	if err != nil {
		return nil, toStatus(err)
	}
	return toAccessReport(r), nil
}

// --- conversions ---

func toAccessReport(a *driver.AccessReport) *pb.AccessReport {
	if a == nil {
		return &pb.AccessReport{}
	}
	out := &pb.AccessReport{Enforced: a.Enforced, User: a.User, Auth: a.Auth, Roles: toRoles(a.Roles), Groups: a.Groups,
		RolesShown: a.RolesShown, AllRoles: toRoles(a.AllRoles), UsersShown: a.UsersShown, Note: a.Note}
	for _, u := range a.Users {
		out.Users = append(out.Users, &pb.User{Name: u.Name, Kind: u.Kind, Active: u.Active, Roles: u.Roles})
	}
	return out
}

// fromAccessReport reads a report as the driver gave it: its own roles are a list even when
// empty, and the cluster's lists are there (even empty) exactly where they are shown.
func fromAccessReport(r *pb.AccessReport) *driver.AccessReport {
	out := &driver.AccessReport{Enforced: r.GetEnforced(), User: r.GetUser(), Auth: r.GetAuth(), Roles: orNoRoles(fromRoles(r.GetRoles())),
		Groups: emptyNil(r.GetGroups()), RolesShown: r.GetRolesShown(), UsersShown: r.GetUsersShown(), Note: r.GetNote()}
	if out.RolesShown {
		out.AllRoles = orNoRoles(fromRoles(r.GetAllRoles()))
	}
	if out.UsersShown {
		out.Users = make([]driver.User, len(r.GetUsers()))
		for i, u := range r.GetUsers() {
			out.Users[i] = driver.User{Name: u.GetName(), Kind: u.GetKind(), Active: u.GetActive(), Roles: orEmpty(u.GetRoles())}
		}
	}
	return out
}

func toRoles(rs []driver.Role) []*pb.Role {
	var out []*pb.Role
	for _, r := range rs {
		pr := &pb.Role{Name: r.Name, BuiltIn: r.BuiltIn}
		for _, p := range r.Permissions {
			pr.Permissions = append(pr.Permissions, &pb.Permission{Action: p.Action, Scope: p.Scope, Words: p.Words})
		}
		out = append(out, pr)
	}
	return out
}

func fromRoles(rs []*pb.Role) []driver.Role {
	var out []driver.Role
	for _, r := range rs {
		dr := driver.Role{Name: r.GetName(), BuiltIn: r.GetBuiltIn(), Permissions: make([]driver.Permission, len(r.GetPermissions()))}
		for i, p := range r.GetPermissions() {
			dr.Permissions[i] = driver.Permission{Action: p.GetAction(), Scope: p.GetScope(), Words: p.GetWords()}
		}
		out = append(out, dr)
	}
	return out
}

func orNoRoles(rs []driver.Role) []driver.Role {
	if rs == nil {
		return []driver.Role{}
	}
	return rs
}
