package explore

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"app/backend/driver"
)

// Counting tables: a few at a time, each bounded, so one slow collection does not hold the
// others back.
const (
	countParallel = 4
	countTimeout  = 10 * time.Second
)

// TableCount is the row count of one table: Count is nil when it cannot be counted, and Err
// says why; a multi-tenant table has no rows of its own, and Tenants is how many tenants it
// has instead (Note says so).
type TableCount struct {
	Name  string
	Count *int64
	// Estimated: Count is the database's estimate, the exact count having run past its time.
	Estimated bool
	Tenants   *int
	Note      string
	Err       error
}

// CountTables counts the rows of every table of d, a few tables at a time. listed receives
// each multi-tenant table's tenants as they were listed to count them (the tree opens from
// that listing). It fails only when the tables cannot be listed.
func CountTables(ctx context.Context, d driver.Driver, listed func(table string, ts []driver.Tenant)) ([]TableCount, error) {
	tables, err := d.ListTables(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]TableCount, len(tables))
	sem := make(chan struct{}, countParallel)
	var wg sync.WaitGroup
	for i, t := range tables {
		out[i].Name = t.Name
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			cctx, cancel := context.WithTimeout(ctx, countTimeout)
			defer cancel()
			if tn, ok := d.(driver.Tenants); ok && t.MultiTenant {
				ts, err := tn.ListTenants(cctx, t.Name)
				if err != nil {
					out[i].Err = err
					return
				}
				n := len(ts)
				out[i].Tenants, out[i].Note = &n, "multi-tenant: its rows live in its tenants"
				if listed != nil {
					listed(t.Name, ts)
				}
				return
			}
			n, estimated, err := CountWithin(cctx, d, t.Name, nil, ExactWithin)
			if err != nil {
				out[i].Err = err
				return
			}
			out[i].Count, out[i].Estimated = &n, estimated
		}()
	}
	wg.Wait()
	return out, nil
}

// A multi-tenant table may have tens of thousands of tenants (issue 23: the tree stays
// responsive with 50,000). A window never receives them all: TenantLists keeps a listing per
// table (the tree's count lists them anyway, and a fresh read replaces it) and Window answers
// pieces of it, filtered by name, as the list scrolls or the filter changes.

// Bounds of the tenant listings: the most tenants in one window, the default window, and how
// many listings are kept (the oldest is dropped past it).
const (
	MaxTenantPage     = 1000
	DefaultTenantPage = 200
	maxTenantLists    = 8
)

// TenantLists are the kept listings by connection and table; the zero value is empty.
type TenantLists struct {
	mu    sync.Mutex
	lists map[tenantKey]*tenantList
}

type tenantKey struct{ conn, table string }

type tenantList struct {
	at      time.Time
	tenants []driver.Tenant
}

// Get is the kept listing of a connection's table (nil when none).
func (l *TenantLists) Get(conn, table string) []driver.Tenant {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.lists[tenantKey{conn, table}]; e != nil {
		return e.tenants
	}
	return nil
}

// Put keeps a listing, dropping the oldest past the bound.
func (l *TenantLists) Put(conn, table string, ts []driver.Tenant) {
	k := tenantKey{conn, table}
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

// SetStatus records a status the app set, in the kept listing. It writes a copy: a reader of
// the old listing outside the lock must not see it change under it.
func (l *TenantLists) SetStatus(conn, table, tenant, status string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.lists[tenantKey{conn, table}]
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

// TenantWindow is a window of a listing: Matched of the listing's tenants hold the filter,
// and Tenants are the matches from the window's offset on.
type TenantWindow struct {
	Matched int
	Tenants []driver.Tenant
}

// TenantLimit checks a window's offset and limit and returns the limit to use (0:
// DefaultTenantPage, at most MaxTenantPage).
func TenantLimit(offset, limit int) (int, error) {
	switch {
	case offset < 0 || limit < 0:
		return 0, invalid("offset and limit must not be negative")
	case limit == 0:
		return DefaultTenantPage, nil
	}
	return min(limit, MaxTenantPage), nil
}

// Window is the tenants of all whose name holds filter (ignoring case), from offset, at most
// limit (checked by TenantLimit).
func Window(all []driver.Tenant, filter string, offset, limit int) TenantWindow {
	matched := all
	if f := strings.ToLower(strings.TrimSpace(filter)); f != "" {
		matched = nil
		for _, t := range all {
			if strings.Contains(strings.ToLower(t.Name), f) {
				matched = append(matched, t)
			}
		}
	}
	return TenantWindow{Matched: len(matched), Tenants: matched[min(offset, len(matched)):min(offset+limit, len(matched))]}
}

// TenantStatusQuestion is the question asked before a tenant's status changes, naming what the
// change does; where names the table (and its connection). status is normalised to upper case.
func TenantStatusQuestion(tenant, where, status string) (norm, title, message string, err error) {
	norm = strings.ToUpper(strings.TrimSpace(status))
	var what string
	switch norm {
	case driver.TenantActive:
		what = "Its rows can be read and written again; the database loads its data again."
	case driver.TenantInactive:
		what = "Its rows can no longer be read or written until it is activated again. Its data stays on this node's disk."
	case driver.TenantOffloaded:
		what = "Its data moves to the cloud storage the node's offload module names, and its rows cannot be read or written until it is activated again."
	default:
		return norm, "", "", invalid("%q is not a tenant status (%s, %s or %s)", norm, driver.TenantActive, driver.TenantInactive, driver.TenantOffloaded)
	}
	lower := strings.ToLower(norm)
	return norm, fmt.Sprintf("Set tenant %s to %s", tenant, lower), fmt.Sprintf("Set tenant \u201c%s\u201d of %s to %s?\n\n%s", tenant, where, lower, what), nil
}
