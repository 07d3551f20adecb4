package app

import (
	"context"
	"fmt"
	"strings"

	"app/backend/driver"
)

// ListTenants lists the tenants of a multi-tenant table by name, each with the table name
// that opens it and its activity status (issue 23: the tree lists them under the table).
func (a *ExplorerAPI) ListTenants(id, table string) ([]TenantDTO, error) {
	tn, err := a.tenants(id)
	if err != nil {
		return nil, err
	}
	ctx, cancel := a.callContext()
	defer cancel()
	ts, err := tn.ListTenants(ctx, table)
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]TenantDTO, len(ts))
	for i, t := range ts {
		out[i] = TenantDTO{Name: t.Name, Table: t.Table, Status: t.Status}
	}
	return out, nil
}

// SetTenantStatus changes a tenant's activity status after the person says Yes in a native
// question, which names what the change does. It reports whether the person said Yes.
func (a *ExplorerAPI) SetTenantStatus(id, table, tenant, status string) (bool, error) {
	tn, err := a.tenants(id)
	if err != nil {
		return false, err
	}
	status = strings.ToUpper(strings.TrimSpace(status))
	var what string
	switch status {
	case driver.TenantActive:
		what = "Its rows can be read and written again. Weaviate loads its data into memory."
	case driver.TenantInactive:
		what = "Its rows can no longer be read or written until it is activated again. Its data stays on this node's disk."
	case driver.TenantOffloaded:
		what = "Its data moves to the cloud storage the node's offload module names, and its rows cannot be read or written until it is activated again."
	default:
		return false, invalidArgument("%q is not a tenant status (%s, %s or %s)", status, driver.TenantActive, driver.TenantInactive, driver.TenantOffloaded)
	}
	title := fmt.Sprintf("Set tenant %s to %s", tenant, strings.ToLower(status))
	where := table
	if name := a.connectionName(id); name != "" {
		where += " on " + name
	}
	msg := fmt.Sprintf("Set tenant \u201c%s\u201d of %s to %s?\n\n%s", tenant, where, strings.ToLower(status), what)
	yes, err := askThenAct(a.parent(), a.confirm, title, msg, func(ctx context.Context) error {
		return tn.SetTenantStatus(ctx, table, tenant, status)
	})
	if err != nil {
		return yes, apiError(err)
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
