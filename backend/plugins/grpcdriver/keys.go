package grpcdriver

import (
	"app/backend/driver"
	pb "app/backend/plugins/internal/proto/driverv2"
)

// legacyKeyColumn is the column a row key of protocol 2 and 3 named: those protocols carried
// a key as one text (EditRow.uuid, RowResult.uuid, SearchRequest.similar_to,
// DescribeTableResponse.primary_key), the uuid of the only driver that spoke them. Each
// message now carries the key by column as well; a peer reads that first, and the one text
// only from a peer that did not send it, so either side may be older.
const legacyKeyColumn = "uuid"

// errOldKeys refuses a key an older plugin would misread.
var errOldKeys = driver.Errorf(driver.KindUnsupported, "this version of the driver plugin names a row by one text key only; update it in Settings, Plugins")

// legacyExpressible tells whether an older plugin reads k as meant: no key, or one column
// of text.
func legacyExpressible(k driver.Key) bool {
	return len(k) == 0 || legacyKey(k) != ""
}

// legacyKeys refuses rows whose keys a plugin without RowKeys would misread.
func (k *Conn) legacyKeys(rows []driver.Row) error {
	if k.caps.RowKeys {
		return nil
	}
	for _, r := range rows {
		if !legacyExpressible(r.Key) {
			return errOldKeys
		}
	}
	return nil
}

// toKey is k on the wire; nil for none.
func toKey(k driver.Key) (map[string]*pb.Value, error) {
	if len(k) == 0 {
		return nil, nil
	}
	out := make(map[string]*pb.Value, len(k))
	for col, v := range k {
		pv, err := toValue(v)
		if err != nil {
			return nil, driver.Errorf(driver.KindInvalidArgument, "the key column %s: %s", col, err.Error())
		}
		out[col] = pv
	}
	return out, nil
}

// fromKey reads a key by column, or else an older peer's one text as the legacy column's.
func fromKey(k map[string]*pb.Value, legacy string) driver.Key {
	if len(k) > 0 {
		out := make(driver.Key, len(k))
		for col, v := range k {
			out[col] = fromValue(v)
		}
		return out
	}
	if legacy != "" {
		return driver.Key{legacyKeyColumn: legacy}
	}
	return nil
}

// legacyKey is k as an older peer reads it: the text of a one-column key, else "".
func legacyKey(k driver.Key) string {
	if len(k) != 1 {
		return ""
	}
	for _, v := range k {
		if s, ok := v.(string); ok {
			return s
		}
	}
	return ""
}

// legacyInsertKey is the one text an older plugin reads as the key an inserted row is stored
// under: its key, or the legacy column's value typed among its cells.
func legacyInsertKey(r driver.Row) string {
	if s := legacyKey(r.Key); s != "" {
		return s
	}
	s, _ := r.Values[legacyKeyColumn].(string)
	return s
}

// keyColumns are a table's key columns as the response says them.
func keyColumns(t *pb.DescribeTableResponse) []string {
	if cols := t.GetKeyColumns(); len(cols) > 0 {
		return cols
	}
	if pk := t.GetPrimaryKey(); pk != "" {
		return []string{pk}
	}
	return nil
}

// legacyPrimaryKey is a table's key as an older host reads it: its one column, else "".
func legacyPrimaryKey(cols []string) string {
	if len(cols) == 1 {
		return cols[0]
	}
	return ""
}
