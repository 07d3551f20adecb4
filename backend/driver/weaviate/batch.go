package weaviate

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/google/uuid"

	"app/backend/driver"
)

// WriteBatch writes rows with POST /v1/batch/objects (driver.BatchWriter): one request for
// the batch, each object created or replaced by its id, with its vectors. A row whose cells
// do not type, or whose uuid is not one, fails alone and is not sent. References may be given
// as the target uuids (an export writes them so) as well as beacons.
func (d *Driver) WriteBatch(ctx context.Context, table string, rows []driver.Row) ([]driver.RowResult, error) {
	c, err := d.classFor(ctx, table)
	if err != nil {
		return nil, err
	}
	if c.needsTenant() {
		return nil, tenantError(c)
	}
	out := make([]driver.RowResult, len(rows))
	objects := make([]map[string]any, 0, len(rows))
	sent := make([]int, 0, len(rows)) // objects[k] is rows[sent[k]]
	names := c.vectorSlots()
	for i, r := range rows {
		values := r.InsertValues()
		id, given := "", values[ColUUID]
		if given != nil {
			s, ok := given.(string)
			if !ok {
				out[i] = failed(i, "", driver.Errorf(driver.KindInvalidArgument, "the uuid must be text"))
				continue
			}
			id = strings.ToLower(strings.TrimSpace(s))
		}
		if id != "" {
			if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
				out[i] = failed(i, id, driver.Errorf(driver.KindInvalidArgument, "%q is not a UUID", id))
				continue
			}
		} else {
			id = uuid.NewString() // the batch API needs ids to report outcomes by
		}
		withBeacons, err := d.uuidRefsToBeacons(ctx, c, values)
		if err != nil {
			out[i] = failed(i, id, err)
			continue
		}
		props, err := properties(c, withBeacons)
		if err != nil {
			out[i] = failed(i, id, err)
			continue
		}
		obj := map[string]any{"class": c.Class, "id": id, "properties": props}
		if c.tenant != "" {
			obj["tenant"] = c.tenant
		}
		if err := batchVectors(obj, names, r.Vectors); err != nil {
			out[i] = failed(i, id, err)
			continue
		}
		out[i] = driver.RowResult{Index: i, Key: keyOf(id)}
		objects = append(objects, obj)
		sent = append(sent, i)
	}
	if len(objects) == 0 {
		return out, nil
	}
	body, err := json.Marshal(map[string]any{"objects": objects})
	if err != nil {
		return nil, driver.Wrap(driver.KindInvalidArgument, err, "the batch cannot be encoded")
	}
	st, resp, err := d.call(ctx, http.MethodPost, "/v1/batch/objects", nil, body)
	if err != nil {
		for _, i := range sent {
			out[i] = sentFailed(i, out[i].Key.Text(), err)
		}
		if cerr := driver.ContextError(ctx); cerr != nil {
			return out, cerr
		}
		return out, err
	}
	if st != http.StatusOK {
		// The node refused the batch whole. A 4xx applied nothing; after a 5xx the node may
		// have applied some of it.
		serr := d.statusError(st, resp, "the batch into "+c.Class)
		for _, i := range sent {
			out[i] = driver.RowResult{Index: i, Key: out[i].Key, Status: driver.RowFailed, Kind: driver.KindOf(serr), Message: serr.Error()}
			if st >= 500 {
				out[i].Message += "; the row " + driver.MaybeWritten + ": reload to see"
				out[i].MaybeWritten = true
			}
		}
		return out, nil
	}
	var results []struct {
		ID     string `json:"id"`
		Result struct {
			Errors *struct {
				Error []struct {
					Message string `json:"message"`
				} `json:"error"`
			} `json:"errors"`
		} `json:"result"`
	}
	if err := json.Unmarshal(resp, &results); err != nil || len(results) != len(objects) {
		for _, i := range sent {
			out[i] = driver.RowResult{Index: i, Key: out[i].Key, Status: driver.RowFailed, Kind: driver.KindQueryFailed, MaybeWritten: true,
				Message: "the server's answer to the batch does not say each row's outcome: the row " + driver.MaybeWritten + "; reload to see"}
		}
		return out, nil
	}
	for k, res := range results {
		i := sent[k]
		if res.Result.Errors != nil && len(res.Result.Errors.Error) > 0 {
			msgs := make([]string, 0, len(res.Result.Errors.Error))
			for _, e := range res.Result.Errors.Error {
				msgs = append(msgs, d.redact(e.Message))
			}
			out[i] = driver.RowResult{Index: i, Key: out[i].Key, Status: driver.RowFailed, Kind: driver.KindQueryFailed, Message: strings.Join(msgs, "; ")}
			continue
		}
		out[i].Status = driver.RowOK
	}
	return out, nil
}

// batchVectors puts a row's vectors on its object: "vector" for a table's own vector ("";
// names as class.vectorSlots gives them), "vectors" by name for named vectors. A vector the
// table does not have is refused.
func batchVectors(obj map[string]any, names []string, vecs map[string][]float32) error {
	if len(vecs) == 0 {
		return nil
	}
	named := map[string][]float32{}
	for n, v := range vecs {
		switch {
		case n == "" && (len(names) == 0 || names[0] == ""):
			obj["vector"] = v
		case n != "" && slices.Contains(names, n):
			named[n] = v
		case n == "":
			return driver.Errorf(driver.KindInvalidArgument, "the collection has named vectors (%s): name the vector", strings.Join(names, ", "))
		default:
			return driver.Errorf(driver.KindInvalidArgument, "the collection has no vector named %q", n)
		}
	}
	if len(named) > 0 {
		obj["vectors"] = named
	}
	return nil
}

// uuidRefsToBeacons turns reference cells given as a list of target uuids (JSON text or a
// list) into beacons naming their target collection (refTarget).
func (d *Driver) uuidRefsToBeacons(ctx context.Context, c *class, vals map[string]any) (map[string]any, error) {
	var out map[string]any
	for k, v := range vals {
		p, ok := c.property(k)
		if !ok || !p.isRef() || v == nil {
			continue
		}
		list, ok := v.([]any)
		if s, isText := v.(string); isText {
			if json.Unmarshal([]byte(s), &list) != nil {
				continue
			}
			ok = true
		}
		if !ok {
			if ss, isStrings := v.([]string); isStrings {
				for _, s := range ss {
					list = append(list, s)
				}
				ok = true
			}
		}
		if !ok {
			continue
		}
		ids := make([]string, 0, len(list))
		for _, it := range list {
			s, isText := it.(string)
			if !isText {
				ids = nil
				break
			}
			if _, err := uuid.Parse(s); err != nil {
				ids = nil
				break
			}
			ids = append(ids, s)
		}
		if ids == nil {
			continue
		}
		beacons := make([]any, 0, len(ids))
		for _, id := range ids {
			target, err := d.refTarget(ctx, c, p, id)
			if err != nil {
				return nil, err
			}
			beacons = append(beacons, map[string]any{"beacon": "weaviate://localhost/" + target + "/" + id})
		}
		if out == nil {
			out = make(map[string]any, len(vals))
			for kk, vv := range vals {
				out[kk] = vv
			}
		}
		out[k] = beacons
	}
	if out == nil {
		return vals, nil
	}
	return out, nil
}

// refTarget is the collection a reference given by its target's uuid alone points to: the
// property's one target collection, or, for a property with several, the first of them that
// holds the uuid (HEAD /v1/objects/<collection>/<uuid>). A beacon never goes without its
// collection: a cluster with namespaces refuses that for a property with several, and a uuid
// none of them holds is refused by every release (the server checks the target exists), so
// the row fails here, saying so.
func (d *Driver) refTarget(ctx context.Context, c *class, p property, id string) (string, error) {
	if len(p.DataType) == 1 {
		return p.DataType[0], nil
	}
	for _, target := range p.DataType {
		st, _, err := d.call(ctx, http.MethodHead, "/v1/objects/"+escapePath(target)+"/"+strings.ToLower(id), c.withTenant(nil), nil)
		if err != nil {
			return "", err
		}
		if st/100 == 2 {
			return target, nil
		}
	}
	return "", driver.Errorf(driver.KindNotFound, "the reference %s of %s points to no object of %s", id, p.Name, strings.Join(p.DataType, " or "))
}
