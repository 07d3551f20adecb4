package app

import (
	"app/backend/driver"
)

// AccessControl is who the open connection is in its database and what it may do (issue 40,
// item 4): its user, how it authenticates, its roles and their permissions in words, and, where
// the credential may read them, the database's roles and users. Read-only: nothing here
// changes a grant.
func (a *ExplorerAPI) AccessControl(id string) (driver.AccessReport, error) {
	d, err := a.driver(id)
	if err != nil {
		return driver.AccessReport{}, err
	}
	ac, ok := d.(driver.AccessControl)
	if !ok || !driver.Offered(d).AccessControl {
		return driver.AccessReport{}, apiError(driver.Errorf(driver.KindUnsupported, "this connection's driver cannot say who the connection is in its database"))
	}
	ctx, cancel := a.callContext()
	defer cancel()
	r, err := ac.AccessControl(ctx)
	if err != nil {
		return driver.AccessReport{}, apiError(err)
	}
	out := *r
	if out.Roles == nil {
		out.Roles = []driver.Role{}
	}
	return out, nil
}
