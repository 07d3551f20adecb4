package weaviate

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/sirupsen/logrus"

	"app/backend/driver"
)

// Insert adds each row with POST /v1/objects: the property values, and an id
// only when the row carries one (Row.UUID, or a "uuid" value). The vector is
// never written. Each row reports its own outcome.
func (d *Driver) Insert(ctx context.Context, table string, rows []driver.Row) ([]driver.RowResult, error) {
	return d.edit(ctx, table, rows, d.insertRow)
}

// Update sends PATCH /v1/objects/<uuid>?class=<collection> with only the
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
	if c.MultiTenancyConfig.Enabled {
		return nil, tenantError(c)
	}
	out := make([]driver.RowResult, len(rows))
	for i, r := range rows {
		if cerr := driver.ContextError(ctx); cerr != nil {
			for j := i; j < len(rows); j++ {
				out[j] = driver.RowResult{Index: j, UUID: rows[j].UUID, Status: driver.RowFailed, Kind: cerr.Kind, Message: cerr.Msg}
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
	return driver.RowResult{Index: i, UUID: id, Status: driver.RowFailed, Kind: driver.KindOf(err), Message: err.Error()}
}

// needUUID checks a row's uuid; an empty one is skipped and logged.
func (d *Driver) needUUID(c *class, i int, r driver.Row, action string) (string, *driver.RowResult) {
	id := strings.TrimSpace(r.UUID)
	if id == "" {
		if v, ok := r.Values[ColUUID].(string); ok {
			id = strings.TrimSpace(v)
		}
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
	id := strings.TrimSpace(r.UUID)
	if v, ok := r.Values[ColUUID]; ok && id == "" {
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
	props, err := properties(c, r.Values)
	if err != nil {
		return failed(i, id, err)
	}
	body := map[string]any{"class": c.Class, "properties": props}
	if id != "" {
		body["id"] = id
	}
	data, err := json.Marshal(body)
	if err != nil {
		return failed(i, id, driver.Wrap(driver.KindInvalidArgument, err, "row %d cannot be encoded", i+1))
	}
	st, resp, err := d.call(ctx, http.MethodPost, "/v1/objects", nil, data)
	if err != nil {
		return failed(i, id, err)
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
	return driver.RowResult{Index: i, UUID: id, Status: driver.RowOK}
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
		return driver.RowResult{Index: i, UUID: id, Status: driver.RowSkipped, Message: "no edited cells: nothing sent"}
	}
	props, err := properties(c, vals)
	if err != nil {
		return failed(i, id, err)
	}
	data, _ := json.Marshal(map[string]any{"class": c.Class, "properties": props})
	q := url.Values{"class": {c.Class}}
	st, resp, err := d.call(ctx, http.MethodPatch, "/v1/objects/"+id, q, data)
	if err != nil {
		return failed(i, id, err)
	}
	if st == http.StatusNotFound {
		return failed(i, id, driver.Errorf(driver.KindNotFound, "object %s does not exist in %s", id, c.Class))
	}
	if st/100 != 2 {
		return failed(i, id, d.statusError(st, resp, "the update of "+id))
	}
	return driver.RowResult{Index: i, UUID: id, Status: driver.RowOK}
}

func (d *Driver) deleteRow(ctx context.Context, c *class, i int, r driver.Row) driver.RowResult {
	id, skip := d.needUUID(c, i, r, "delete")
	if skip != nil {
		return *skip
	}
	// The class-scoped path, not /v1/objects/<uuid>?class=<collection>:
	// weaviate-server (v1.35.2, deleteObjectDeprecated) ignores that class
	// parameter, deletes by id in whichever collection holds it, and fails
	// outright while any multi-tenant collection exists. PATCH keeps the spec
	// path because the server reads the class from its body.
	st, resp, err := d.call(ctx, http.MethodDelete, "/v1/objects/"+escapePath(c.Class)+"/"+id, nil, nil)
	if err != nil {
		return failed(i, id, err)
	}
	if st == http.StatusNotFound {
		return failed(i, id, driver.Errorf(driver.KindNotFound, "object %s does not exist in %s", id, c.Class))
	}
	if st/100 != 2 {
		return failed(i, id, d.statusError(st, resp, "the delete of "+id))
	}
	return driver.RowResult{Index: i, UUID: id, Status: driver.RowOK}
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
		tv, err := coerce(p, v)
		if err != nil {
			return nil, driver.Errorf(driver.KindInvalidArgument, "column %s (%s): %s", k, p.Type(), err.Error())
		}
		props[k] = tv
	}
	return props, nil
}

// coerce types one cell value for a write. A string is parsed by the type
// (JSON text for arrays, objects, geo coordinates, phone numbers and
// references); Go values are checked and used.
func coerce(p property, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	b, arr := p.base()
	if b == "reference" || b == "object" || b == "geoCoordinates" || b == "phoneNumber" || arr {
		if s, ok := v.(string); ok {
			var x any
			dec := json.NewDecoder(strings.NewReader(s))
			dec.UseNumber()
			if err := dec.Decode(&x); err != nil || dec.More() {
				return nil, fmt.Errorf("expects JSON text, e.g. %s", example(b, arr))
			}
			v = x
		}
		if b == "reference" || b == "object" || b == "geoCoordinates" || b == "phoneNumber" {
			return v, nil
		}
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("expects a JSON array, e.g. %s", example(b, arr))
		}
		out := make([]any, len(list))
		for i, e := range list {
			tv, err := scalar(b, e)
			if err != nil {
				return nil, fmt.Errorf("item %d: %s", i+1, err.Error())
			}
			out[i] = tv
		}
		return out, nil
	}
	return scalar(b, v)
}

func example(b string, arr bool) string {
	switch {
	case b == "reference":
		return `[{"beacon":"weaviate://localhost/<Collection>/<uuid>"}]`
	case b == "geoCoordinates":
		return `{"latitude":52.37,"longitude":4.9}`
	case b == "phoneNumber":
		return `{"input":"020 1234567","defaultCountry":"nl"}`
	case b == "object":
		return `{"name":"value"}`
	case b == "int" || b == "number":
		return "[1, 2]"
	case b == "boolean":
		return "[true, false]"
	}
	return `["a", "b"]`
}

// scalar types one scalar value.
func scalar(b string, v any) (any, error) {
	s, isStr := v.(string)
	switch b {
	case "text", "string", "blob":
		if !isStr {
			return nil, fmt.Errorf("expects text")
		}
		if b == "blob" {
			if _, err := base64.StdEncoding.DecodeString(s); err != nil {
				return nil, fmt.Errorf("expects base64 text")
			}
		}
		return s, nil
	case "uuid":
		if !isStr {
			return nil, fmt.Errorf("expects a UUID")
		}
		s = strings.TrimSpace(s)
		if _, err := uuid.Parse(s); err != nil || len(s) != 36 {
			return nil, fmt.Errorf("%q is not a UUID", s)
		}
		return strings.ToLower(s), nil
	case "int":
		switch x := v.(type) {
		case string:
			n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%q is not an integer", x)
			}
			return n, nil
		case json.Number:
			n, err := x.Int64()
			if err != nil {
				return nil, fmt.Errorf("%s is not an integer", x)
			}
			return n, nil
		case float64:
			if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
				return nil, fmt.Errorf("%v is not an integer", x)
			}
			return int64(x), nil
		case int:
			return int64(x), nil
		case int64:
			return x, nil
		case int32:
			return int64(x), nil
		}
		return nil, fmt.Errorf("expects an integer")
	case "number":
		switch x := v.(type) {
		case string:
			f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("%q is not a number", x)
			}
			return f, nil
		case json.Number:
			f, err := x.Float64()
			if err != nil {
				return nil, fmt.Errorf("%s is not a number", x)
			}
			return f, nil
		case float64:
			return x, nil
		case float32:
			return float64(x), nil
		case int:
			return float64(x), nil
		case int64:
			return float64(x), nil
		}
		return nil, fmt.Errorf("expects a number")
	case "boolean":
		switch x := v.(type) {
		case bool:
			return x, nil
		case string:
			switch strings.ToLower(strings.TrimSpace(x)) {
			case "true":
				return true, nil
			case "false":
				return false, nil
			}
			return nil, fmt.Errorf("%q is not a boolean (true or false)", x)
		}
		return nil, fmt.Errorf("expects true or false")
	case "date":
		if !isStr {
			return nil, fmt.Errorf("expects an RFC 3339 timestamp")
		}
		s = strings.TrimSpace(s)
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return nil, fmt.Errorf("%q is not a full RFC 3339 timestamp (YYYY-MM-DDThh:mm:ssZ)", s)
		}
		return t.Format(time.RFC3339Nano), nil
	}
	return nil, fmt.Errorf("type %s cannot be written from the grid", b)
}
