package weaviate

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strings"

	"app/backend/driver"
)

// ListTenants lists a multi-tenant collection's tenants by name (GET /v1/schema/{class}/tenants),
// each with the table name that opens it and its activity status as the server reports it.
func (d *Driver) ListTenants(ctx context.Context, table string) ([]driver.Tenant, error) {
	c, err := d.classFor(ctx, table)
	if err != nil {
		return nil, err
	}
	if !c.MultiTenancyConfig.Enabled {
		return nil, driver.Errorf(driver.KindInvalidArgument, "collection %s has no tenants (multi-tenancy is off)", c.Class)
	}
	st, body, err := d.call(ctx, http.MethodGet, "/v1/schema/"+escapePath(c.Class)+"/tenants", nil, nil)
	if err != nil {
		return nil, err
	}
	if st != http.StatusOK {
		return nil, d.statusError(st, body, "the tenants of "+c.Class)
	}
	var got []struct {
		Name           string `json:"name"`
		ActivityStatus string `json:"activityStatus"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		return nil, driver.Wrap(driver.KindQueryFailed, err, "the tenants of %s cannot be read", c.Class)
	}
	out := make([]driver.Tenant, len(got))
	for i, t := range got {
		out[i] = driver.Tenant{Name: t.Name, Table: driver.TenantTable(c.Class, t.Name), Status: tenantStatus(t.ActivityStatus)}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// tenantStatus is a reported status by its current name: weaviate-server 1.35 still answers
// the REST list with the names before 1.26 (HOT, COLD, FROZEN, FREEZING, UNFREEZING).
func tenantStatus(s string) string {
	switch s {
	case "HOT":
		return driver.TenantActive
	case "COLD":
		return driver.TenantInactive
	case "FROZEN":
		return driver.TenantOffloaded
	case "FREEZING":
		return "OFFLOADING"
	case "UNFREEZING":
		return "ONLOADING"
	}
	return s
}

// SetTenantStatus sets one tenant's activity status (PUT /v1/schema/{class}/tenants):
// driver.TenantActive, TenantInactive or TenantOffloaded (an offload needs an offload module
// on the server, which says so when it has none).
func (d *Driver) SetTenantStatus(ctx context.Context, table, tenant, status string) error {
	c, err := d.classFor(ctx, table)
	if err != nil {
		return err
	}
	if !c.MultiTenancyConfig.Enabled {
		return driver.Errorf(driver.KindInvalidArgument, "collection %s has no tenants (multi-tenancy is off)", c.Class)
	}
	if !isTenantName(tenant) {
		return driver.Errorf(driver.KindInvalidArgument, "%q is not a tenant name (letters, digits, _ and -, at most 64)", truncate(tenant, 100))
	}
	status = strings.ToUpper(strings.TrimSpace(status))
	switch status {
	case driver.TenantActive, driver.TenantInactive, driver.TenantOffloaded:
	default:
		return driver.Errorf(driver.KindInvalidArgument, "%q is not a tenant status (%s, %s or %s)", truncate(status, 40), driver.TenantActive, driver.TenantInactive, driver.TenantOffloaded)
	}
	body, _ := json.Marshal([]map[string]string{{"name": tenant, "activityStatus": status}})
	st, resp, err := d.call(ctx, http.MethodPut, "/v1/schema/"+escapePath(c.Class)+"/tenants", nil, body)
	if err != nil {
		return err
	}
	if st/100 != 2 {
		return d.statusError(st, resp, "the status of tenant "+tenant+" of "+c.Class)
	}
	return nil
}

// inactiveTenant is the error for a read or write of a tenant that is not active, or nil when
// msg (the server's reason) says nothing of the kind. Weaviate answers "tenant not active"
// with no name, where a person needs to know what to do.
func inactiveTenant(msg, what string) error {
	if !strings.Contains(msg, "tenant not active") {
		return nil
	}
	return driver.Errorf(driver.KindInactiveTenant, "%s: the tenant is not active (Weaviate reads and writes only ACTIVE tenants; an INACTIVE or OFFLOADED one must be activated first)", what)
}
