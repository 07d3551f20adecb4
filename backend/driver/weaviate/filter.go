package weaviate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"app/backend/driver"
)

// where is one node of a filter, read path neutral: rendered as GraphQL where text (String)
// or as a gRPC Filters message (grpcFilter), so both read paths run the same filter.
type where struct {
	op       string  // And, Or, Not, Equal, Like, ...
	operands []where // for And / Or / Not
	path     string  // property, "id", or "len(p)"
	kind     string  // valueText, valueInt, valueNumber, valueBoolean, valueDate
	literal  string  // GraphQL literal text of the value (scalar or list)
	// value is the typed value: string (text, uuid, date), int64, float64, bool, or a slice
	// of one of those for the list operators.
	value any
}

// String renders the node as GraphQL input-object text.
func (w where) String() string {
	var b strings.Builder
	w.render(&b)
	return b.String()
}

func (w where) render(b *strings.Builder) {
	if len(w.operands) > 0 {
		b.WriteString("{operator: ")
		b.WriteString(w.op)
		b.WriteString(", operands: [")
		for i, o := range w.operands {
			if i > 0 {
				b.WriteString(", ")
			}
			o.render(b)
		}
		b.WriteString("]}")
		return
	}
	b.WriteString("{path: [")
	b.WriteString(quote(w.path))
	b.WriteString("], operator: ")
	b.WriteString(w.op)
	b.WriteString(", ")
	b.WriteString(w.kind)
	b.WriteString(": ")
	b.WriteString(w.literal)
	b.WriteString("}")
}

// refused builds the error for a filter that cannot run.
func refused(f driver.Filter, format string, args ...any) error {
	return driver.RefusedFilter(f, fmt.Sprintf(format, args...))
}

func opLabel(op driver.Operator) string { return driver.OperatorLabel(op) }

// scalar families a filter value can be typed as.
const (
	famText   = "text"
	famUUID   = "uuid"
	famInt    = "int"
	famNumber = "number"
	famBool   = "boolean"
	famDate   = "date"
	famNone   = ""
)

// family of a column: its scalar type and whether it is an array.
func family(c *class, col string) (fam string, array bool, p property, err error) {
	if col == ColUUID {
		return famUUID, false, property{Name: "id"}, nil
	}
	if col == ColVector {
		return famNone, false, property{}, fmt.Errorf("the vector column cannot be filtered; use a nearVector search in the editor")
	}
	p, ok := c.property(col)
	if !ok {
		return famNone, false, p, fmt.Errorf("collection %s has no column %q", c.Class, col)
	}
	b, arr := p.base()
	switch b {
	case "text", "string":
		return famText, arr, p, nil
	case "uuid", "int", "number", "date":
		return b, arr, p, nil
	case "boolean":
		return famBool, arr, p, nil
	case "reference":
		return famNone, arr, p, fmt.Errorf("%s is a cross-reference; filter on the referenced collection in the editor's GraphQL instead", col)
	default:
		return famNone, arr, p, fmt.Errorf("properties of type %s cannot be filtered from the grid", p.Type())
	}
}

// operatorsFor lists the operators a property accepts under c's settings.
func operatorsFor(c *class, p property) []driver.Operator {
	var out []driver.Operator
	for _, op := range driver.Operators() {
		if checkOperator(c, p.Name, op) == nil {
			out = append(out, op)
		}
	}
	return out
}

// blockedFor are the operators that fit column col but cannot run on this collection, with
// why: REGEX (Weaviate has none), the null tests without indexNullState, and emptiness of a
// text or array property without indexPropertyLength. An operator that does not fit the
// column (a comparison on text) is not among them: it is simply not offered.
func blockedFor(c *class, col string) map[driver.Operator]string {
	out := map[driver.Operator]string{}
	block := func(ops ...driver.Operator) {
		for _, op := range ops {
			if err := checkOperator(c, col, op); err != nil {
				out[op] = err.Error()
			}
		}
	}
	block(driver.OpRegex)
	if col != ColUUID && !c.InvertedIndexConfig.IndexNullState {
		block(driver.OpIsNull, driver.OpIsNotNull)
	}
	if fam, arr, _, err := family(c, col); err == nil && col != ColUUID && (fam == famText || arr) && !c.InvertedIndexConfig.IndexPropertyLength {
		block(driver.OpIsEmpty, driver.OpIsNotEmpty)
	}
	return out
}

// checkOperator says why op cannot run on column col (nil when it can).
func checkOperator(c *class, col string, op driver.Operator) error {
	fam, arr, p, err := family(c, col)
	if err != nil {
		return err
	}
	// A value filter needs an index to match values with; the null state and the length
	// have indexes of their own.
	indexed := func() error {
		if col == ColUUID || p.valueIndexed() {
			return nil
		}
		return fmt.Errorf("%s cannot be filtered by value: its %s off (properties.%s)", col, p.valueIndexes(), col)
	}
	switch op {
	case driver.OpEquals, driver.OpNotEquals, driver.OpIn, driver.OpNotIn:
		return indexed()
	case driver.OpGreater, driver.OpGreaterEq, driver.OpLess, driver.OpLessEq, driver.OpBetween:
		if fam == famInt || fam == famNumber || fam == famDate {
			return indexed()
		}
		return fmt.Errorf("%s compares numbers and dates only; %s is %s", opLabel(op), col, typeName(c, col))
	case driver.OpContains, driver.OpNotContains, driver.OpStartsWith, driver.OpEndsWith:
		if fam == famText {
			return indexed()
		}
		return fmt.Errorf("%s is a text pattern (Like) and applies to text properties only; %s is %s", opLabel(op), col, typeName(c, col))
	case driver.OpIsNull, driver.OpIsNotNull:
		if col == ColUUID {
			return fmt.Errorf("uuid is never null")
		}
		if !c.InvertedIndexConfig.IndexNullState {
			return fmt.Errorf("IsNull needs indexNullState, which collection %s does not enable (invertedIndexConfig.indexNullState)", c.Class)
		}
		return nil
	case driver.OpIsEmpty, driver.OpIsNotEmpty:
		if col == ColUUID {
			return fmt.Errorf("uuid is never empty")
		}
		if fam != famText && !arr {
			return fmt.Errorf("emptiness (len) applies to text and array properties only; %s is %s", col, typeName(c, col))
		}
		if !c.InvertedIndexConfig.IndexPropertyLength {
			return fmt.Errorf("len() needs indexPropertyLength, which collection %s does not enable (invertedIndexConfig.indexPropertyLength)", c.Class)
		}
		return nil
	case driver.OpRegex:
		//lint:ignore ST1005 the sentence starts with the product's name, shown to the user as is
		return fmt.Errorf("Weaviate has no regular-expression filter; use contains, starts with or ends with (Like with * wildcards)")
	}
	return fmt.Errorf("unknown operator %q", string(op))
}

func typeName(c *class, col string) string {
	if col == ColUUID {
		return "uuid"
	}
	if p, ok := c.property(col); ok {
		return p.Type()
	}
	return "unknown"
}

// buildWhere turns the grid's filters into one where node (ANDed). It
// returns ok=false for no filters.
func buildWhere(c *class, filters []driver.Filter) (where, bool, error) {
	if len(filters) == 0 {
		return where{}, false, nil
	}
	var terms []where
	for _, group := range driver.FilterGroups(filters) {
		ors := make([]where, 0, len(group))
		for _, f := range group {
			n, err := filterNode(c, f)
			if err != nil {
				return where{}, false, err
			}
			ors = append(ors, n)
		}
		if len(ors) == 1 {
			terms = append(terms, ors[0])
		} else {
			terms = append(terms, where{op: "Or", operands: ors})
		}
	}
	if len(terms) == 1 {
		return terms[0], true, nil
	}
	return where{op: "And", operands: terms}, true, nil
}

// filterNode types one filter from the schema and builds its node.
func filterNode(c *class, f driver.Filter) (where, error) {
	if err := checkOperator(c, f.Column, f.Operator); err != nil {
		return where{}, refused(f, "%s", err.Error())
	}
	fam, _, p, _ := family(c, f.Column)
	path := p.Name
	leaf := func(op, raw string) (where, error) {
		kind, lit, v, err := typedValue(fam, raw)
		if err != nil {
			return where{}, refused(f, "%s", err.Error())
		}
		return where{op: op, path: path, kind: kind, literal: lit, value: v}, nil
	}
	switch f.Operator {
	case driver.OpEquals:
		return leaf("Equal", f.Value)
	case driver.OpNotEquals:
		return leaf("NotEqual", f.Value)
	case driver.OpGreater:
		return leaf("GreaterThan", f.Value)
	case driver.OpGreaterEq:
		return leaf("GreaterThanEqual", f.Value)
	case driver.OpLess:
		return leaf("LessThan", f.Value)
	case driver.OpLessEq:
		return leaf("LessThanEqual", f.Value)
	case driver.OpContains, driver.OpNotContains, driver.OpStartsWith, driver.OpEndsWith:
		if f.Value == "" {
			return where{}, refused(f, "the pattern is empty")
		}
		pat := f.Value
		switch f.Operator {
		case driver.OpContains, driver.OpNotContains:
			pat = "*" + pat + "*"
		case driver.OpStartsWith:
			pat += "*"
		case driver.OpEndsWith:
			pat = "*" + pat
		}
		n := where{op: "Like", path: path, kind: "valueText", literal: quote(pat), value: pat}
		if f.Operator == driver.OpNotContains {
			return where{op: "Not", operands: []where{n}}, nil
		}
		return n, nil
	case driver.OpIn, driver.OpNotIn:
		items, err := driver.SplitList(f.Value)
		if err != nil {
			return where{}, refused(f, "%s", err.Error())
		}
		kind, lits, vals := "", make([]string, 0, len(items)), make([]any, 0, len(items))
		for _, it := range items {
			k, lit, v, err := typedValue(fam, it)
			if err != nil {
				return where{}, refused(f, "%s", err.Error())
			}
			kind = k
			lits = append(lits, lit)
			vals = append(vals, v)
		}
		op := "ContainsAny"
		if f.Operator == driver.OpNotIn {
			op = "ContainsNone"
		}
		return where{op: op, path: path, kind: kind, literal: "[" + strings.Join(lits, ", ") + "]", value: listOf(vals)}, nil
	case driver.OpBetween:
		if strings.TrimSpace(f.Value) == "" || strings.TrimSpace(f.Value2) == "" {
			return where{}, refused(f, "between needs two bounds")
		}
		lo, err := leaf("GreaterThanEqual", f.Value)
		if err != nil {
			return where{}, err
		}
		hi, err := leaf("LessThanEqual", f.Value2)
		if err != nil {
			return where{}, err
		}
		return where{op: "And", operands: []where{lo, hi}}, nil
	case driver.OpIsNull, driver.OpIsNotNull:
		v := "true"
		if f.Operator == driver.OpIsNotNull {
			v = "false"
		}
		return where{op: "IsNull", path: path, kind: "valueBoolean", literal: v, value: v == "true"}, nil
	case driver.OpIsEmpty:
		return where{op: "Equal", path: "len(" + path + ")", kind: "valueInt", literal: "0", value: int64(0)}, nil
	case driver.OpIsNotEmpty:
		return where{op: "GreaterThan", path: "len(" + path + ")", kind: "valueInt", literal: "0", value: int64(0)}, nil
	}
	return where{}, refused(f, "unknown operator")
}

// typedValue parses raw as the family's type and returns the where value
// key, the GraphQL literal and the typed value.
func typedValue(fam, raw string) (kind, literal string, value any, err error) {
	switch fam {
	case famText:
		return "valueText", quote(raw), raw, nil
	case famUUID:
		s := strings.TrimSpace(raw)
		if _, e := uuid.Parse(s); e != nil || len(s) != 36 {
			return "", "", nil, fmt.Errorf("%q is not a UUID (8-4-4-4-12 hex digits)", raw)
		}
		s = strings.ToLower(s)
		return "valueText", quote(s), s, nil
	case famInt:
		s := strings.TrimSpace(raw)
		n, e := strconv.ParseInt(s, 10, 64)
		if e != nil {
			return "", "", nil, fmt.Errorf("%q is not an integer", raw)
		}
		return "valueInt", strconv.FormatInt(n, 10), n, nil
	case famNumber:
		s := strings.TrimSpace(raw)
		f, e := strconv.ParseFloat(s, 64)
		if e != nil || math.IsNaN(f) || math.IsInf(f, 0) || strings.ContainsAny(s, "xXpP_") {
			return "", "", nil, fmt.Errorf("%q is not a number", raw)
		}
		return "valueNumber", strconv.FormatFloat(f, 'g', -1, 64), f, nil
	case famBool:
		switch strings.ToLower(strings.TrimSpace(raw)) {
		case "true":
			return "valueBoolean", "true", true, nil
		case "false":
			return "valueBoolean", "false", false, nil
		}
		return "", "", nil, fmt.Errorf("%q is not a boolean (true or false)", raw)
	case famDate:
		s := strings.TrimSpace(raw)
		t, e := time.Parse(time.RFC3339Nano, s)
		if e != nil || !strings.Contains(s, "T") {
			return "", "", nil, fmt.Errorf("%q is not a full RFC 3339 timestamp; dates need the shape YYYY-MM-DDThh:mm:ssZ, e.g. 2024-01-31T00:00:00Z", raw)
		}
		d := t.Format(time.RFC3339Nano)
		return "valueDate", quote(d), d, nil
	}
	return "", "", nil, fmt.Errorf("this column cannot be filtered")
}

// listOf turns the typed items of a list filter into one typed slice.
func listOf(items []any) any {
	if len(items) == 0 {
		return []string{}
	}
	switch items[0].(type) {
	case int64:
		return typedList[int64](items)
	case float64:
		return typedList[float64](items)
	case bool:
		return typedList[bool](items)
	}
	return typedList[string](items)
}

func typedList[T any](items []any) []T {
	out := make([]T, len(items))
	for i, it := range items {
		out[i], _ = it.(T)
	}
	return out
}

// sortKey is one sort of a page: the path Weaviate sorts on (_id for uuid) and its order.
type sortKey struct {
	path       string
	descending bool
}

// sortKeys checks the grid's sorts against c and returns what both read paths sort on.
func sortKeys(c *class, sorts []driver.Sort) ([]sortKey, error) {
	out := make([]sortKey, 0, len(sorts))
	for _, s := range sorts {
		path := s.Column
		switch s.Column {
		case ColUUID:
			path = "_id"
		case ColVector:
			return nil, driver.Errorf(driver.KindInvalidArgument, "the vector column cannot be sorted")
		default:
			p, ok := c.property(s.Column)
			if !ok {
				return nil, driver.Errorf(driver.KindInvalidArgument, "collection %s has no column %q to sort on", c.Class, s.Column)
			}
			if !sortable(p) {
				return nil, driver.Errorf(driver.KindInvalidArgument, "column %s (%s) cannot be sorted", s.Column, p.Type())
			}
		}
		out = append(out, sortKey{path: path, descending: s.Descending})
	}
	return out, nil
}

// sortArg renders the GraphQL sort argument.
func sortArg(c *class, sorts []driver.Sort) (string, error) {
	keys, err := sortKeys(c, sorts)
	if err != nil || len(keys) == 0 {
		return "", err
	}
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		order := "asc"
		if k.descending {
			order = "desc"
		}
		parts = append(parts, "{path: ["+quote(k.path)+"], order: "+order+"}")
	}
	return "[" + strings.Join(parts, ", ") + "]", nil
}
