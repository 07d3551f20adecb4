package app

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"app/backend/driver"
)

// A multi-tenant table may have tens of thousands of tenants (issue 23: the tree stays
// responsive with 50,000). The window never receives them all: ListTenants keeps a listing per
// table (the tree's count lists them anyway, and a fresh read replaces it) and answers windows
// of it, filtered by name, as the list scrolls or the filter changes. The list opens from the
// kept listing at once and then asks for a fresh one: sending 50,000 tenants across to the
// window took longer than the second the tree may take, and on a loaded machine so did
// listing them from the database again (1.6 s).

// maxTenantPage bounds one window of tenants.
const maxTenantPage = 1000

// maxTenantLists bounds the listings kept: the oldest is dropped past it.
const maxTenantLists = 8

// tenantLists are the kept listings by connection and table.
type tenantLists struct {
	mu    sync.Mutex
	lists map[tenantKey]*tenantList
}

type tenantKey struct{ conn, table string }

type tenantList struct {
	at      time.Time
	tenants []driver.Tenant
}

func (l *tenantLists) get(k tenantKey) []driver.Tenant {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.lists[k]; e != nil {
		return e.tenants
	}
	return nil
}

func (l *tenantLists) put(k tenantKey, ts []driver.Tenant) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lists == nil {
		l.lists = map[tenantKey]*tenantList{}
	}
	if _, ok := l.lists[k]; !ok && len(l.lists) >= maxTenantLists {
		var oldest tenantKey
		first := true
		for key, e := range l.lists {
			if first || e.at.Before(l.lists[oldest].at) {
				oldest, first = key, false
			}
		}
		delete(l.lists, oldest)
	}
	l.lists[k] = &tenantList{at: time.Now(), tenants: ts}
}

// setStatus records a status the app set, in the kept listing. It writes a copy: a
// ListTenants reading the old listing outside the lock must not see it change under it.
func (l *tenantLists) setStatus(k tenantKey, tenant, status string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.lists[k]
	if e == nil {
		return
	}
	ts := append([]driver.Tenant(nil), e.tenants...)
	for i := range ts {
		if ts[i].Name == tenant {
			ts[i].Status = status
		}
	}
	e.tenants = ts
}

// ListTenants answers a window of a multi-tenant table's tenants by name: those whose name
// holds filter (ignoring case), from offset, at most limit (0: 200, at most 1000). With fresh,
// or when none is kept, the tenants are listed from the database first; otherwise the window
// comes from the last listing, and says so (Kept).
func (a *ExplorerAPI) ListTenants(id, table, filter string, offset, limit int, fresh bool) (TenantPageDTO, error) {
	tn, err := a.tenants(id)
	if err != nil {
		return TenantPageDTO{}, err
	}
	switch {
	case offset < 0 || limit < 0:
		return TenantPageDTO{}, invalidArgument("offset and limit must not be negative")
	case limit == 0:
		limit = 200
	}
	limit = min(limit, maxTenantPage)
	key := tenantKey{id, table}
	all := a.tenantLists.get(key)
	kept := !fresh && all != nil
	if fresh || all == nil {
		ctx, cancel := a.callContext()
		defer cancel()
		if all, err = tn.ListTenants(ctx, table); err != nil {
			return TenantPageDTO{}, apiError(err)
		}
		a.tenantLists.put(key, all)
	}
	matched := all
	if f := strings.ToLower(strings.TrimSpace(filter)); f != "" {
		matched = nil
		for _, t := range all {
			if strings.Contains(strings.ToLower(t.Name), f) {
				matched = append(matched, t)
			}
		}
	}
	out := TenantPageDTO{Total: len(all), Matched: len(matched), Offset: offset, Tenants: []TenantDTO{}, Kept: kept}
	for _, t := range matched[min(offset, len(matched)):min(offset+limit, len(matched))] {
		out.Tenants = append(out.Tenants, TenantDTO{Name: t.Name, Table: t.Table, Status: t.Status})
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
	yes, err := a.ask(title, msg, func(ctx context.Context) error {
		return tn.SetTenantStatus(ctx, table, tenant, status)
	})
	if err != nil {
		return yes, apiError(err)
	}
	if yes {
		a.tenantLists.setStatus(tenantKey{id, table}, tenant, status)
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
