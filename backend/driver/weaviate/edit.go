package weaviate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"syscall"

	"github.com/google/uuid"
	"github.com/sirupsen/logrus"

	"app/backend/driver"
)

// Insert adds each row with POST /v1/objects: the property values, and an id
// only when the row carries one (a "uuid" value). The vector is
// never written. Each row reports its own outcome.
func (d *Driver) Insert(ctx context.Context, table string, rows []driver.Row) ([]driver.RowResult, error) {
	return d.edit(ctx, table, rows, d.insertRow)
}

// Update sends PATCH /v1/objects/<collection>/<uuid> with only the
// given (edited) cells of each row. A row without uuid is skipped and logged.
func (d *Driver) Update(ctx context.Context, table string, rows []driver.Row) ([]driver.RowResult, error) {
	return d.edit(ctx, table, rows, d.updateRow)
}

// Delete sends DELETE /v1/objects/<collection>/<uuid> per row (see deleteRow
// for why not the ?class= form). A row without uuid is skipped and logged.
func (d *Driver) Delete(ctx context.Context, table string, rows []driver.Row) ([]driver.RowResult, error) {
	return d.edit(ctx, table, rows, d.deleteRow)
}

type rowFunc func(ctx context.Context, c *class, i int, r driver.Row) driver.RowResult

// edit applies fn to each row in order; a failed row does not stop the
// others. A cancelled context marks the remaining rows failed (cancelled)
// and is returned with the results.
func (d *Driver) edit(ctx context.Context, table string, rows []driver.Row, fn rowFunc) ([]driver.RowResult, error) {
	c, err := d.classFor(ctx, table)
	if err != nil {
		return nil, err
	}
	if c.needsTenant() {
		return nil, tenantError(c)
	}
	out := make([]driver.RowResult, len(rows))
	for i, r := range rows {
		if cerr := driver.ContextError(ctx); cerr != nil {
			for j := i; j < len(rows); j++ {
				out[j] = driver.RowResult{Index: j, Key: rows[j].Key, Status: driver.RowFailed, Kind: cerr.Kind, Message: cerr.Msg}
			}
			return out, cerr
		}
		out[i] = fn(ctx, c, i, r)
		out[i].Index = i
	}
	if cerr := driver.ContextError(ctx); cerr != nil {
		return out, cerr
	}
	return out, nil
}

func failed(i int, id string, err error) driver.RowResult {
	return driver.RowResult{Index: i, Key: keyOf(id), Status: driver.RowFailed, Kind: driver.KindOf(err), Message: err.Error()}
}

// keyOf is the key of the object id: its uuid column; none for "".
func keyOf(id string) driver.Key {
	if id == "" {
		return nil
	}
	return driver.Key{ColUUID: id}
}

// primaryKey is every collection's key: the object's uuid.
var primaryKey = []string{ColUUID}

// sentFailed is failed for a row whose request was sent: when no answer came back (the node
// closed the connection or died after the request went out, or did not answer in time), the
// node may have applied it, so the row says so instead of claiming nothing was written.
func sentFailed(i int, id string, err error) driver.RowResult {
	rr := failed(i, id, err)
	if unanswered(err) {
		rr.Message += "; the request was sent, so the row " + driver.MaybeWritten + ": reload to see"
		rr.MaybeWritten = true
	}
	return rr
}

// unanswered tells whether err is a request that went out and got no answer (rather than one
// that never left: refused, unresolvable, a failed TLS handshake, a failed dial).
func unanswered(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return false
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var nerr net.Error
	return errors.As(err, &nerr) && nerr.Timeout()
}

// needUUID checks a row's key, its uuid; a row without one is skipped and logged.
func (d *Driver) needUUID(c *class, i int, r driver.Row, action string) (string, *driver.RowResult) {
	if len(r.Key) > 0 {
		if err := driver.CheckKey(primaryKey, r.Key, fmt.Sprintf("the key of row %d", i+1)); err != nil {
			rr := failed(i, "", err)
			rr.Key = r.Key
			return "", &rr
		}
	}
	id := ""
	switch v := r.Key[ColUUID].(type) {
	case nil:
	case string:
		id = strings.TrimSpace(v)
	default:
		rr := failed(i, "", driver.Errorf(driver.KindInvalidArgument, "the uuid of row %d must be text", i+1))
		return "", &rr
	}
	if id == "" {
		d.log.WithFields(logrus.Fields{"collection": c.Class, "row": i, "action": action}).
			Warn("row without uuid skipped; no request sent")
		return "", &driver.RowResult{Index: i, Status: driver.RowSkipped, Message: fmt.Sprintf("row %d has no uuid: %s skipped, no request sent", i+1, action)}
	}
	if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
		e := driver.Errorf(driver.KindInvalidArgument, "%q is not a UUID", id)
		rr := failed(i, id, e)
		return "", &rr
	}
	return strings.ToLower(id), nil
}

func (d *Driver) insertRow(ctx context.Context, c *class, i int, r driver.Row) driver.RowResult {
	values := r.InsertValues()
	id := ""
	if v, ok := values[ColUUID]; ok {
		s, isStr := v.(string)
		if !isStr && v != nil {
			return failed(i, "", driver.Errorf(driver.KindInvalidArgument, "uuid must be text"))
		}
		id = strings.TrimSpace(s)
	}
	if id != "" {
		if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
			return failed(i, id, driver.Errorf(driver.KindInvalidArgument, "%q is not a UUID", id))
		}
		id = strings.ToLower(id)
	}
	props, err := properties(c, values)
	if err != nil {
		return failed(i, id, err)
	}
	body := map[string]any{"class": c.Class, "properties": props}
	if c.tenant != "" {
		body["tenant"] = c.tenant
	}
	if id != "" {
		body["id"] = id
	}
	data, err := json.Marshal(body)
	if err != nil {
		return failed(i, id, driver.Wrap(driver.KindInvalidArgument, err, "row %d cannot be encoded", i+1))
	}
	st, resp, err := d.call(ctx, http.MethodPost, "/v1/objects", nil, data)
	if err != nil {
		return sentFailed(i, id, err)
	}
	if st != http.StatusOK && st != http.StatusCreated {
		return failed(i, id, d.statusError(st, resp, "the insert into "+c.Class))
	}
	var created struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(resp, &created)
	if created.ID != "" {
		id = created.ID
	}
	return driver.RowResult{Index: i, Key: keyOf(id), Status: driver.RowOK}
}

func (d *Driver) updateRow(ctx context.Context, c *class, i int, r driver.Row) driver.RowResult {
	id, skip := d.needUUID(c, i, r, "update")
	if skip != nil {
		return *skip
	}
	vals := make(map[string]any, len(r.Values))
	for k, v := range r.Values {
		if k == ColUUID {
			if s, _ := v.(string); strings.EqualFold(strings.TrimSpace(s), id) {
				continue
			}
			return failed(i, id, driver.Errorf(driver.KindInvalidArgument, "uuid is read-only"))
		}
		vals[k] = v
	}
	if len(vals) == 0 {
		return driver.RowResult{Index: i, Key: keyOf(id), Status: driver.RowSkipped, Message: "no edited cells: nothing sent"}
	}
	props, err := properties(c, vals)
	if err != nil {
		return failed(i, id, err)
	}
	// A PATCH merges cross-references into the ones stored (weaviate-server appends
	// them), so an edited reference cell replaces its list with PUT .../references/<p>,
	// after the PATCH of the other cells. NULL (no references) is the empty list.
	refs := map[string][]string{}
	for k, v := range props {
		p, _ := c.property(k)
		if !p.isRef() {
			continue
		}
		b := []string{}
		if v != nil {
			b, _ = Beacons(v) // properties checked the shape (ParseCell)
		}
		refs[k] = b
		delete(props, k)
	}
	if len(props) > 0 {
		body := map[string]any{"class": c.Class, "properties": props}
		if c.tenant != "" {
			body["tenant"] = c.tenant
		}
		data, _ := json.Marshal(body)
		// The class-scoped path: a cluster with namespaces (1.38+) answers the class-less
		// /v1/objects/<uuid> with 410 whatever the method (namespaces.go).
		if err := d.objectCall(ctx, c, id, http.MethodPatch, "/v1/objects/"+escapePath(c.Class)+"/"+id, c.withTenant(nil), data, "the update of "+id); err != nil {
			return sentFailed(i, id, err)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(refs)) {
		if err := d.replaceRefs(ctx, c, id, k, refs[k]); err != nil {
			rr := sentFailed(i, id, err)
			if len(props) > 0 {
				rr.Message += "; the row's other edited cells were written"
			}
			return rr
		}
	}
	return driver.RowResult{Index: i, Key: keyOf(id), Status: driver.RowOK}
}

// replaceRefs sets a cross-reference property of one object to exactly these beacons.
func (d *Driver) replaceRefs(ctx context.Context, c *class, id, prop string, beacons []string) error {
	body := make([]map[string]string, len(beacons))
	for j, b := range beacons {
		body[j] = map[string]string{"beacon": b}
	}
	data, _ := json.Marshal(body)
	path := "/v1/objects/" + escapePath(c.Class) + "/" + id + "/references/" + escapePath(prop)
	return d.objectCall(ctx, c, id, http.MethodPut, path, c.withTenant(nil), data, "the references "+prop+" of "+id)
}

func (d *Driver) deleteRow(ctx context.Context, c *class, i int, r driver.Row) driver.RowResult {
	id, skip := d.needUUID(c, i, r, "delete")
	if skip != nil {
		return *skip
	}
	// The class-scoped path, not /v1/objects/<uuid>?class=<collection>:
	// weaviate-server (v1.35.2, deleteObjectDeprecated) ignores that class
	// parameter, deletes by id in whichever collection holds it, and fails
	// outright while any multi-tenant collection exists; a cluster with namespaces
	// answers it 410.
	if err := d.objectCall(ctx, c, id, http.MethodDelete, "/v1/objects/"+escapePath(c.Class)+"/"+id, c.withTenant(nil), nil, "the delete of "+id); err != nil {
		return sentFailed(i, id, err)
	}
	return driver.RowResult{Index: i, Key: keyOf(id), Status: driver.RowOK}
}

// objectCall sends one request about object id of c: a 404 is not_found naming the object
// (weaviate-server's 404 here has no body), another non-2xx answer the server's reason.
func (d *Driver) objectCall(ctx context.Context, c *class, id, method, path string, q url.Values, body []byte, what string) error {
	st, resp, err := d.call(ctx, method, path, q, body)
	if err != nil {
		return err
	}
	if st == http.StatusNotFound {
		return driver.Errorf(driver.KindNotFound, "object %s does not exist in %s", id, c.table())
	}
	if st/100 != 2 {
		return d.statusError(st, resp, what)
	}
	return nil
}

// properties types the row's cells from the schema. uuid and vector are
// read-only; unknown columns are refused.
func properties(c *class, vals map[string]any) (map[string]any, error) {
	props := make(map[string]any, len(vals))
	for k, v := range vals {
		switch k {
		case ColUUID:
			continue
		case ColVector:
			return nil, driver.Errorf(driver.KindInvalidArgument, "the vector column is read-only and never written")
		}
		p, ok := c.property(k)
		if !ok {
			return nil, driver.Errorf(driver.KindInvalidArgument, "collection %s has no column %q", c.Class, k)
		}
		tv, err := ParseCell(p.Type(), v)
		if err != nil {
			return nil, driver.Errorf(driver.KindInvalidArgument, "column %s (%s): %s", k, p.Type(), err.Error())
		}
		props[k] = tv
	}
	return props, nil
}

// CheckCells types the cells a person typed into one row, as Insert and Update will
// (ParseCell on the column's type), without sending anything. The uuid is checked as a UUID
// (a new row may carry one; none lets Weaviate make one); the vector is read-only.
func (d *Driver) CheckCells(ctx context.Context, table string, values map[string]*string) (map[string]string, error) {
	info, err := d.DescribeTable(ctx, table)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for name, v := range values {
		if reason := cellProblem(info, name, v); reason != "" {
			out[name] = reason
		}
	}
	return out, nil
}

// cellProblem is why one typed cell cannot be written, or "".
func cellProblem(info *driver.TableInfo, name string, v *string) string {
	col, ok := info.Column(name)
	switch {
	case !ok:
		return fmt.Sprintf("%s has no column %q", info.Name, name)
	case col.PrimaryKey:
		if v == nil || strings.TrimSpace(*v) == "" {
			return "" // no uuid: the database makes one
		}
		if _, err := ParseCell("uuid", *v); err != nil {
			return err.Error()
		}
		return ""
	case col.ReadOnly:
		return fmt.Sprintf("the %s column is read-only and never written", name)
	}
	var cell any
	if v != nil {
		cell = *v
	}
	if _, err := ParseCell(col.Type, cell); err != nil {
		return fmt.Sprintf("%s (%s): %s", name, col.Type, err.Error())
	}
	return ""
}
