package app

import (
	"context"

	"app/app/dto"
	"app/backend/driver"
	"app/backend/explore"
)

// ListTenants answers a window of a multi-tenant table's tenants by name: those whose name
// holds filter (ignoring case), from offset, at most limit (0: 200, at most 1000). With fresh,
// or when none is kept, the tenants are listed from the database first; otherwise the window
// comes from the last listing, and says so (Kept).
func (a *ExplorerAPI) ListTenants(id, table, filter string, offset, limit int, fresh bool) (dto.TenantPageDTO, error) {
	tn, err := a.tenants(id)
	if err != nil {
		return dto.TenantPageDTO{}, err
	}
	if limit, err = explore.TenantLimit(offset, limit); err != nil {
		return dto.TenantPageDTO{}, apiError(err)
	}
	all := a.tenantLists.Get(id, table)
	kept := !fresh && all != nil
	if fresh || all == nil {
		ctx, cancel := a.callContext()
		defer cancel()
		if all, err = tn.ListTenants(ctx, table); err != nil {
			return dto.TenantPageDTO{}, apiError(err)
		}
		a.tenantLists.Put(id, table, all)
	}
	return dto.FromTenants(len(all), explore.Window(all, filter, offset, limit), offset, kept), nil
}

// SetTenantStatus changes a tenant's activity status after the person says Yes in a native
// question, which names what the change does. It reports whether the person said Yes.
func (a *ExplorerAPI) SetTenantStatus(id, table, tenant, status string) (bool, error) {
	tn, err := a.tenants(id)
	if err != nil {
		return false, err
	}
	where := table
	if name := a.connectionName(id); name != "" {
		where += " on " + name
	}
	status, title, msg, err := explore.TenantStatusQuestion(tenant, where, status)
	if err != nil {
		return false, apiError(err)
	}
	yes, err := a.ask(title, msg, func(ctx context.Context) error {
		return tn.SetTenantStatus(ctx, table, tenant, status)
	})
	if err != nil {
		return yes, apiError(err)
	}
	if yes {
		a.tenantLists.SetStatus(id, table, tenant, status)
	}
	return yes, nil
}

// tenants is the open connection's driver as a driver.Tenants.
func (a *ExplorerAPI) tenants(id string) (driver.Tenants, error) {
	d, err := a.driver(id)
	if err != nil {
		return nil, err
	}
	tn, ok := d.(driver.Tenants)
	if !ok {
		return nil, apiError(driver.Errorf(driver.KindUnsupported, "this connection's driver has no tenants"))
	}
	return tn, nil
}
