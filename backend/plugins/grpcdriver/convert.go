package grpcdriver

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	"app/backend/driver"
	pb "app/backend/plugins/internal/proto/driverv2"
)

// The conversions between backend/driver's types and the wire, both ways. Each pair is
// tested for round-trip equality (convert_test.go). What a round trip normalizes, on purpose:
//
//   - Values: nil, string, bool and json.Number arrive as they left (every grid cell is one
//     of these). Integers of every width arrive as int64, floats as float64, unsigned
//     integers as int64 (or as json.Number above MaxInt64), any slice as []any, any map with
//     string keys as map[string]any, []byte as its base64 text (as encoding/json writes it),
//     json.RawMessage as the value it encodes, and anything else as its JSON encoding
//     decoded with UseNumber. An empty list or object stays empty (never nil), so null and
//     empty stay apart; a nil slice, map or pointer is null.
//   - Grid.Columns and Grid.Rows are never nil (an empty page is [] in JSON, as in-process).
//     Other empty slices (Filterable, NamedVectors, Operators, filters, rows of an edit)
//     arrive nil.
//   - TableInfo.Definition and Result.JSON: empty arrives nil.

// --- values ---

// toValue converts one Go value to the wire.
func toValue(v any) (*pb.Value, error) {
	switch x := v.(type) {
	case nil:
		return &pb.Value{}, nil
	case string:
		return &pb.Value{Kind: &pb.Value_StringValue{StringValue: x}}, nil
	case bool:
		return &pb.Value{Kind: &pb.Value_BoolValue{BoolValue: x}}, nil
	case json.Number:
		return &pb.Value{Kind: &pb.Value_NumberValue{NumberValue: string(x)}}, nil
	case int:
		return intValue(int64(x)), nil
	case int8:
		return intValue(int64(x)), nil
	case int16:
		return intValue(int64(x)), nil
	case int32:
		return intValue(int64(x)), nil
	case int64:
		return intValue(x), nil
	case uint:
		return uintValue(uint64(x)), nil
	case uint8:
		return uintValue(uint64(x)), nil
	case uint16:
		return uintValue(uint64(x)), nil
	case uint32:
		return uintValue(uint64(x)), nil
	case uint64:
		return uintValue(x), nil
	case float32:
		return &pb.Value{Kind: &pb.Value_DoubleValue{DoubleValue: float64(x)}}, nil
	case float64:
		return &pb.Value{Kind: &pb.Value_DoubleValue{DoubleValue: x}}, nil
	case []byte:
		return &pb.Value{Kind: &pb.Value_StringValue{StringValue: base64.StdEncoding.EncodeToString(x)}}, nil
	case json.RawMessage:
		return rawValue(x)
	case []any:
		if x == nil {
			return &pb.Value{}, nil
		}
		return listValue(len(x), func(i int) any { return x[i] })
	case map[string]any:
		if x == nil {
			return &pb.Value{}, nil
		}
		obj := &pb.Object{Fields: make(map[string]*pb.Value, len(x))}
		for k, e := range x {
			ev, err := toValue(e)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			obj.Fields[k] = ev
		}
		return &pb.Value{Kind: &pb.Value_ObjectValue{ObjectValue: obj}}, nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return &pb.Value{}, nil
		}
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return &pb.Value{}, nil
		}
		if rv.Type().Elem().Kind() != reflect.Uint8 {
			return listValue(rv.Len(), func(i int) any { return rv.Index(i).Interface() })
		}
	case reflect.Map:
		if rv.IsNil() {
			return &pb.Value{}, nil
		}
		if rv.Type().Key().Kind() == reflect.String {
			obj := &pb.Object{Fields: make(map[string]*pb.Value, rv.Len())}
			it := rv.MapRange()
			for it.Next() {
				ev, err := toValue(it.Value().Interface())
				if err != nil {
					return nil, fmt.Errorf("%s: %w", it.Key().String(), err)
				}
				obj.Fields[it.Key().String()] = ev
			}
			return &pb.Value{Kind: &pb.Value_ObjectValue{ObjectValue: obj}}, nil
		}
	}
	// Anything else travels as its JSON encoding (a struct, a named string type, ...).
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("a %T cannot be sent to the driver plugin: %v", v, err)
	}
	return rawValue(raw)
}

func intValue(n int64) *pb.Value { return &pb.Value{Kind: &pb.Value_IntValue{IntValue: n}} }

func uintValue(n uint64) *pb.Value {
	if n <= math.MaxInt64 {
		return intValue(int64(n))
	}
	return &pb.Value{Kind: &pb.Value_NumberValue{NumberValue: strconv.FormatUint(n, 10)}}
}

func listValue(n int, at func(int) any) (*pb.Value, error) {
	list := &pb.List{Values: make([]*pb.Value, n)}
	for i := range n {
		ev, err := toValue(at(i))
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i+1, err)
		}
		list.Values[i] = ev
	}
	return &pb.Value{Kind: &pb.Value_ListValue{ListValue: list}}, nil
}

// rawValue converts JSON text to the value it encodes (numbers kept exact).
func rawValue(raw []byte) (*pb.Value, error) {
	if len(strings.TrimSpace(string(raw))) == 0 {
		return &pb.Value{}, nil
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, fmt.Errorf("invalid JSON value: %v", err)
	}
	return toValue(x)
}

// fromValue converts a wire value back to Go (see the normalization rules above).
func fromValue(v *pb.Value) any {
	switch k := v.GetKind().(type) {
	case *pb.Value_StringValue:
		return k.StringValue
	case *pb.Value_Floats:
		return driver.Floats(driver.PackedFloats(k.Floats))
	case *pb.Value_BoolValue:
		return k.BoolValue
	case *pb.Value_NumberValue:
		return json.Number(k.NumberValue)
	case *pb.Value_IntValue:
		return k.IntValue
	case *pb.Value_DoubleValue:
		return k.DoubleValue
	case *pb.Value_ListValue:
		vals := k.ListValue.GetValues()
		out := make([]any, len(vals))
		for i, e := range vals {
			out[i] = fromValue(e)
		}
		return out
	case *pb.Value_ObjectValue:
		fields := k.ObjectValue.GetFields()
		out := make(map[string]any, len(fields))
		for name, e := range fields {
			out[name] = fromValue(e)
		}
		return out
	}
	return nil
}

// --- settings and capabilities ---

func toSettings(s driver.Settings) *pb.Settings {
	return &pb.Settings{
		Host:          s.Host,
		Port:          int32(s.Port),
		AuthMethod:    string(s.AuthMethod),
		ApiKey:        s.APIKey,
		SslMode:       string(s.SSLMode),
		SkipTlsVerify: s.SkipTLSVerify,
		CaFile:        s.CAFile,
		GrpcHost:      s.GRPCHost,
		GrpcPort:      int32(s.GRPCPort),
		Values:        s.Values,
		Secrets:       s.Secrets,
	}
}

func fromSettings(s *pb.Settings) driver.Settings {
	return driver.Settings{
		Host:          s.GetHost(),
		Port:          int(s.GetPort()),
		AuthMethod:    driver.AuthMethod(s.GetAuthMethod()),
		APIKey:        s.GetApiKey(),
		SSLMode:       driver.SSLMode(s.GetSslMode()),
		SkipTLSVerify: s.GetSkipTlsVerify(),
		CAFile:        s.GetCaFile(),
		GRPCHost:      s.GetGrpcHost(),
		GRPCPort:      int(s.GetGrpcPort()),
		Values:        s.GetValues(),
		Secrets:       s.GetSecrets(),
	}
}

func toDescription(d driver.Description) *pb.Description {
	out := &pb.Description{Address: d.Address}
	for _, t := range d.Types {
		out.Types = append(out.Types, &pb.ConnectionType{Name: t.Name, Label: t.Label, Summary: t.Summary})
	}
	for _, f := range d.Settings {
		pf := &pb.SettingField{Key: f.Key, Label: f.Label, Kind: string(f.Kind), Default: f.Default, Placeholder: f.Placeholder,
			Help: f.Help, Required: f.Required, Section: f.Section, Options: f.Options, OptionHelp: f.OptionHelp,
			Min: int32(f.Min), Max: int32(f.Max), Format: f.Format}
		if f.ShowWhen != nil {
			pf.ShowWhenKey, pf.ShowWhenIn = f.ShowWhen.Key, f.ShowWhen.In
		}
		out.Settings = append(out.Settings, pf)
	}
	for _, g := range d.Suggestions {
		out.Suggestions = append(out.Suggestions, &pb.Suggestion{Key: g.Key, Suffixes: g.Suffixes, Set: g.Set, Text: g.Text, Action: g.Action})
	}
	if w := d.Words; w != nil {
		out.Words = &pb.Words{Language: w.Language, Table: w.Table, Row: w.Row, Instructions: w.Instructions, Notes: w.Notes, ActivateTenant: w.ActivateTenant}
	}
	if u := d.URL; u != nil {
		out.Url = &pb.URLForm{Schemes: u.Schemes, Example: u.Example, User: u.User, Password: u.Password, Host: u.Host, Port: u.Port, Path: u.Path, FilePath: u.FilePath, Query: u.Query}
	}
	return out
}

// fromDescription reads a plugin's description; a plugin built before contract 3 sends none,
// and is described by protocol 2's Settings fields under the types it serves.
func fromDescription(d *pb.Description, types []string) driver.Description {
	if len(d.GetSettings()) == 0 {
		return driver.ProtocolTwoDescription(types...)
	}
	out := driver.Description{Address: d.GetAddress()}
	for _, t := range d.GetTypes() {
		out.Types = append(out.Types, driver.ConnectionType{Name: t.GetName(), Label: t.GetLabel(), Summary: t.GetSummary()})
	}
	for _, f := range d.GetSettings() {
		df := driver.SettingField{Key: f.GetKey(), Label: f.GetLabel(), Kind: driver.FieldKind(f.GetKind()), Default: f.GetDefault(),
			Placeholder: f.GetPlaceholder(), Help: f.GetHelp(), Required: f.GetRequired(), Section: f.GetSection(),
			Options: f.GetOptions(), OptionHelp: f.GetOptionHelp(), Min: int(f.GetMin()), Max: int(f.GetMax()), Format: f.GetFormat()}
		if f.GetShowWhenKey() != "" {
			df.ShowWhen = &driver.Condition{Key: f.GetShowWhenKey(), In: f.GetShowWhenIn()}
		}
		out.Settings = append(out.Settings, df)
	}
	for _, g := range d.GetSuggestions() {
		out.Suggestions = append(out.Suggestions, driver.Suggestion{Key: g.GetKey(), Suffixes: g.GetSuffixes(), Set: g.GetSet(), Text: g.GetText(), Action: g.GetAction()})
	}
	if w := d.GetWords(); w != nil {
		out.Words = &driver.Words{Language: w.GetLanguage(), Table: w.GetTable(), Row: w.GetRow(), Instructions: w.GetInstructions(), Notes: w.GetNotes(), ActivateTenant: w.GetActivateTenant()}
	}
	if u := d.GetUrl(); u != nil {
		out.URL = &driver.URLForm{Schemes: u.GetSchemes(), Example: u.GetExample(), User: u.GetUser(), Password: u.GetPassword(), Host: u.GetHost(),
			Port: u.GetPort(), Path: u.GetPath(), FilePath: u.GetFilePath(), Query: nilIfEmptyMap(u.GetQuery())}
	}
	return out
}

func toOperators(ops []driver.Operator) []string {
	if len(ops) == 0 {
		return nil
	}
	out := make([]string, len(ops))
	for i, o := range ops {
		out[i] = string(o)
	}
	return out
}

func fromOperators(ops []string) []driver.Operator {
	if len(ops) == 0 {
		return nil
	}
	out := make([]driver.Operator, len(ops))
	for i, o := range ops {
		out[i] = driver.Operator(o)
	}
	return out
}

func toCapabilities(c driver.Capabilities) *pb.Capabilities {
	return &pb.Capabilities{
		QueryLanguage:   c.QueryLanguage,
		Sql:             c.SQL,
		SchemaEdits:     c.SchemaEdits,
		SshTunnel:       c.SSHTunnel,
		DatabaseField:   c.DatabaseField,
		RestLines:       c.RESTLines,
		MaxResults:      int64(c.MaxResults),
		DefaultPageSize: int64(c.DefaultPageSize),
		Operators:       toOperators(c.Operators),
		Transactions:    c.Transactions,
		FilterGroups:    c.FilterGroups,
		SearchOptions:   c.SearchOptions,
		SearchModes:     c.SearchModes,
		RowKeys:         c.RowKeys,
		CreateTable:     c.CreateTable,
		Declared:        c.Declared,
		Scan:            c.Scan,
		Estimate:        c.Estimate,
		Completions:     c.Completions,
		VectorNumbers:   c.VectorNumbers,
		BatchWrite:      c.BatchWrite,
		Tenants:         c.Tenants,
		Nodes:           c.Nodes,
		Paths:           c.Paths,
		Templates:       c.Templates,
		Backups:         c.Backups,
		AccessControl:   c.AccessControl,
	}
}

func fromCapabilities(c *pb.Capabilities) driver.Capabilities {
	return driver.Capabilities{
		QueryLanguage:   c.GetQueryLanguage(),
		SQL:             c.GetSql(),
		SchemaEdits:     c.GetSchemaEdits(),
		SSHTunnel:       c.GetSshTunnel(),
		DatabaseField:   c.GetDatabaseField(),
		RESTLines:       c.GetRestLines(),
		MaxResults:      int(c.GetMaxResults()),
		DefaultPageSize: int(c.GetDefaultPageSize()),
		Operators:       fromOperators(c.GetOperators()),
		Transactions:    c.GetTransactions(),
		FilterGroups:    c.GetFilterGroups(),
		SearchOptions:   c.GetSearchOptions(),
		SearchModes:     c.GetSearchModes(),
		RowKeys:         c.GetRowKeys(),
		CreateTable:     c.GetCreateTable(),
		Declared:        c.GetDeclared(),
		Scan:            c.GetScan(),
		Estimate:        c.GetEstimate(),
		Completions:     c.GetCompletions(),
		VectorNumbers:   c.GetVectorNumbers(),
		BatchWrite:      c.GetBatchWrite(),
		Tenants:         c.GetTenants(),
		Nodes:           c.GetNodes(),
		Paths:           c.GetPaths(),
		Templates:       c.GetTemplates(),
		Backups:         c.GetBackups(),
		AccessControl:   c.GetAccessControl(),
	}
}

// --- tables ---

func toTables(ts []driver.Table) []*pb.Table {
	out := make([]*pb.Table, len(ts))
	for i, t := range ts {
		out[i] = &pb.Table{Name: t.Name, Description: t.Description, MultiTenant: t.MultiTenant, Kind: t.Kind, Group: t.Group, Label: t.Label}
		if t.Estimate != nil {
			out[i].Estimate, out[i].HasEstimate = *t.Estimate, true
		}
	}
	return out
}

func fromTables(ts []*pb.Table) []driver.Table {
	if len(ts) == 0 {
		return nil
	}
	out := make([]driver.Table, len(ts))
	for i, t := range ts {
		out[i] = driver.Table{Name: t.GetName(), Description: t.GetDescription(), MultiTenant: t.GetMultiTenant(), Kind: t.GetKind(), Group: t.GetGroup(), Label: t.GetLabel()}
		if t.GetHasEstimate() {
			e := t.GetEstimate()
			out[i].Estimate = &e
		}
	}
	return out
}

func toColumns(cs []driver.Column) []*pb.Column {
	out := make([]*pb.Column, len(cs))
	for i, c := range cs {
		out[i] = &pb.Column{
			Name:         c.Name,
			Type:         c.Type,
			PrimaryKey:   c.PrimaryKey,
			ReadOnly:     c.ReadOnly,
			Array:        c.Array,
			Filterable:   toOperators(c.Filterable),
			Sortable:     c.Sortable,
			Description:  c.Description,
			Tokenization: c.Tokenization,
			Preview:      c.Preview,
			Kind:         string(c.Kind),
			Of:           string(c.Of),
			Dimension:    int64(c.Dimension),
			Exact:        c.Exact,
			Precision:    int32(c.Precision),
			Scale:        int32(c.Scale),
		}
		if len(c.FilterNotes) > 0 {
			out[i].FilterNotes = make(map[string]string, len(c.FilterNotes))
			for op, n := range c.FilterNotes {
				out[i].FilterNotes[string(op)] = n
			}
		}
		if len(c.Blocked) > 0 {
			out[i].Blocked = make(map[string]string, len(c.Blocked))
			for op, n := range c.Blocked {
				out[i].Blocked[string(op)] = n
			}
		}
	}
	return out
}

func fromColumns(cs []*pb.Column) []driver.Column {
	out := make([]driver.Column, len(cs))
	for i, c := range cs {
		out[i] = driver.Column{
			Name:         c.GetName(),
			Type:         c.GetType(),
			PrimaryKey:   c.GetPrimaryKey(),
			ReadOnly:     c.GetReadOnly(),
			Array:        c.GetArray(),
			Filterable:   fromOperators(c.GetFilterable()),
			Sortable:     c.GetSortable(),
			Description:  c.GetDescription(),
			Tokenization: c.GetTokenization(),
			Preview:      c.GetPreview(),
			Kind:         driver.ColumnKind(c.GetKind()),
			Of:           driver.ColumnKind(c.GetOf()),
			Dimension:    int(c.GetDimension()),
			Exact:        c.GetExact(),
			Precision:    int(c.GetPrecision()),
			Scale:        int(c.GetScale()),
		}
		if notes := c.GetFilterNotes(); len(notes) > 0 {
			out[i].FilterNotes = make(map[driver.Operator]string, len(notes))
			for op, n := range notes {
				out[i].FilterNotes[driver.Operator(op)] = n
			}
		}
		if blocked := c.GetBlocked(); len(blocked) > 0 {
			out[i].Blocked = make(map[driver.Operator]string, len(blocked))
			for op, n := range blocked {
				out[i].Blocked[driver.Operator(op)] = n
			}
		}
	}
	return out
}

func toTableInfo(t *driver.TableInfo) *pb.DescribeTableResponse {
	return &pb.DescribeTableResponse{
		Name:        t.Name,
		Description: t.Description,
		Columns:     toColumns(t.Columns),
		PrimaryKey:  legacyPrimaryKey(t.PrimaryKey),
		KeyColumns:  t.PrimaryKey,
		Settings: &pb.TableSettings{
			IndexNullState:      t.Settings.IndexNullState,
			IndexPropertyLength: t.Settings.IndexPropertyLength,
			IndexTimestamps:     t.Settings.IndexTimestamps,
			MultiTenancy:        t.Settings.MultiTenancy,
			Vectorizer:          t.Settings.Vectorizer,
			NamedVectors:        t.Settings.NamedVectors,
			Tenant:              t.Settings.Tenant,
			VectorizedVectors:   t.Settings.VectorizedVectors,
			OwnVector:           t.Settings.OwnVector,
		},
		Definition: t.Definition,
		Details:    toDetails(t.Details),
		Searches:   toSearchModes(t.Searches),
		Profiles:   t.Profiles,
	}
}

func toDetails(ds []driver.DetailSection) []*pb.DetailSection {
	out := make([]*pb.DetailSection, len(ds))
	for i, d := range ds {
		items := make([]*pb.DetailItem, len(d.Items))
		for j, it := range d.Items {
			items[j] = &pb.DetailItem{Label: it.Label, Value: it.Value, Setting: it.Setting}
		}
		out[i] = &pb.DetailSection{Title: d.Title, Items: items}
	}
	return out
}

func fromDetails(ds []*pb.DetailSection) []driver.DetailSection {
	if len(ds) == 0 {
		return nil
	}
	out := make([]driver.DetailSection, len(ds))
	for i, d := range ds {
		items := make([]driver.DetailItem, len(d.GetItems()))
		for j, it := range d.GetItems() {
			items[j] = driver.DetailItem{Label: it.GetLabel(), Value: it.GetValue(), Setting: it.GetSetting()}
		}
		out[i] = driver.DetailSection{Title: d.GetTitle(), Items: items}
	}
	return out
}

func fromTableInfo(t *pb.DescribeTableResponse) *driver.TableInfo {
	s := t.GetSettings()
	info := &driver.TableInfo{
		Name:        t.GetName(),
		Description: t.GetDescription(),
		Columns:     fromColumns(t.GetColumns()),
		PrimaryKey:  keyColumns(t),
		Settings: driver.TableSettings{
			IndexNullState:      s.GetIndexNullState(),
			IndexPropertyLength: s.GetIndexPropertyLength(),
			IndexTimestamps:     s.GetIndexTimestamps(),
			MultiTenancy:        s.GetMultiTenancy(),
			Vectorizer:          s.GetVectorizer(),
			NamedVectors:        nilIfEmpty(s.GetNamedVectors()),
			Tenant:              s.GetTenant(),
			VectorizedVectors:   nilIfEmpty(s.GetVectorizedVectors()),
			OwnVector:           s.GetOwnVector(),
		},
		Details:  fromDetails(t.GetDetails()),
		Searches: fromSearchModes(t.GetSearches()),
		Profiles: t.GetProfiles(),
	}
	if len(t.GetDefinition()) > 0 {
		info.Definition = json.RawMessage(t.GetDefinition())
	}
	return info
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// --- browsing ---

func toFilters(fs []driver.Filter) []*pb.Filter {
	if len(fs) == 0 {
		return nil
	}
	out := make([]*pb.Filter, len(fs))
	for i, f := range fs {
		out[i] = &pb.Filter{Column: f.Column, Operator: string(f.Operator), Value: f.Value, Value2: f.Value2, Group: int64(f.Group)}
	}
	return out
}

func fromFilters(fs []*pb.Filter) []driver.Filter {
	if len(fs) == 0 {
		return nil
	}
	out := make([]driver.Filter, len(fs))
	for i, f := range fs {
		out[i] = driver.Filter{Column: f.GetColumn(), Operator: driver.Operator(f.GetOperator()), Value: f.GetValue(), Value2: f.GetValue2(), Group: int(f.GetGroup())}
	}
	return out
}

func toSorts(ss []driver.Sort) []*pb.Sort {
	if len(ss) == 0 {
		return nil
	}
	out := make([]*pb.Sort, len(ss))
	for i, s := range ss {
		out[i] = &pb.Sort{Column: s.Column, Descending: s.Descending}
	}
	return out
}

func fromSorts(ss []*pb.Sort) []driver.Sort {
	if len(ss) == 0 {
		return nil
	}
	out := make([]driver.Sort, len(ss))
	for i, s := range ss {
		out[i] = driver.Sort{Column: s.GetColumn(), Descending: s.GetDescending()}
	}
	return out
}

// toGrid converts a grid. Cells are nil, string, bool or json.Number by the driver
// contract; anything else goes through toValue.
func toGrid(g *driver.Grid) (*pb.Grid, error) {
	out := &pb.Grid{
		Columns: toColumns(g.Columns),
		Rows:    make([]*pb.Row, len(g.Rows)),
		Offset:  int64(g.Offset),
		HasMore: g.HasMore,
		Notice:  g.Notice,
		Profile: toProfile(g.Profile),
	}
	// One backing array per grid for the rows and the cell values: a 1,000-row page is
	// one allocation for its Row structs and one for its Value structs instead of
	// thousands.
	n := 0
	for _, r := range g.Rows {
		n += len(r)
	}
	rows := make([]pb.Row, len(g.Rows))
	vals := make([]pb.Value, n)
	ptrs := make([]*pb.Value, n)
	k := 0
	for i, r := range g.Rows {
		cells := ptrs[k : k+len(r) : k+len(r)]
		for j, c := range r {
			v := &vals[k+j]
			switch x := c.(type) {
			case nil:
			case string:
				v.Kind = &pb.Value_StringValue{StringValue: x}
			case json.Number:
				v.Kind = &pb.Value_NumberValue{NumberValue: string(x)}
			case bool:
				v.Kind = &pb.Value_BoolValue{BoolValue: x}
			case driver.Floats:
				v.Kind = &pb.Value_Floats{Floats: driver.PackFloats(x)}
			default:
				cv, err := toValue(c)
				if err != nil {
					return nil, fmt.Errorf("row %d, column %d: %w", i+1, j+1, err)
				}
				v.Kind = cv.Kind
			}
			cells[j] = v
		}
		k += len(r)
		rows[i].Cells = cells
		out.Rows[i] = &rows[i]
	}
	return out, nil
}

func fromGrid(g *pb.Grid) *driver.Grid {
	out := &driver.Grid{
		Columns: fromColumns(g.GetColumns()),
		Rows:    make([][]any, len(g.GetRows())),
		Offset:  int(g.GetOffset()),
		HasMore: g.GetHasMore(),
		Notice:  g.GetNotice(),
		Profile: fromProfile(g.GetProfile()),
	}
	n := 0
	for _, r := range g.GetRows() {
		n += len(r.GetCells())
	}
	cells := make([]any, n)
	k := 0
	for i, r := range g.GetRows() {
		row := cells[k : k+len(r.GetCells()) : k+len(r.GetCells())]
		for j, c := range r.GetCells() {
			row[j] = fromValue(c)
		}
		k += len(row)
		out.Rows[i] = row
	}
	// A grid in the host holds no numbers of a vector, only its text.
	driver.PrintFloats(out, driver.VectorText)
	return out
}

// --- editor ---

func toResult(r *driver.Result) (*pb.Result, error) {
	out := &pb.Result{Kind: string(r.Kind), Json: r.JSON, Table: r.Table, Status: int32(r.Status), Truncated: r.Truncated, Notice: r.Notice,
		Text: r.Text, Tag: r.Tag}
	if r.Grid != nil {
		g, err := toGrid(r.Grid)
		if err != nil {
			return nil, err
		}
		out.Grid = g
	}
	for i := range r.Before {
		b, err := toResult(&r.Before[i])
		if err != nil {
			return nil, err
		}
		out.Before = append(out.Before, b)
	}
	return out, nil
}

func fromResult(r *pb.Result) *driver.Result {
	out := &driver.Result{Kind: driver.ResultKind(r.GetKind()), Table: r.GetTable(), Status: int(r.GetStatus()), Truncated: r.GetTruncated(), Notice: r.GetNotice(),
		Text: r.GetText(), Tag: r.GetTag()}
	for _, b := range r.GetBefore() {
		out.Before = append(out.Before, *fromResult(b))
	}
	if r.GetGrid() != nil {
		out.Grid = fromGrid(r.GetGrid())
	}
	if len(r.GetJson()) > 0 {
		out.JSON = json.RawMessage(r.GetJson())
	}
	return out
}

func toClassification(c driver.Classification, err error) *pb.Classification {
	out := &pb.Classification{Access: string(c.Access), Destructive: c.Destructive, Form: string(c.Form), PersonOnly: c.PersonOnly}
	if err != nil {
		out.Error = toDriverError(err)
	}
	return out
}

func fromClassification(c *pb.Classification) (driver.Classification, error) {
	out := driver.Classification{Access: driver.Access(c.GetAccess()), Destructive: c.GetDestructive(), Form: driver.Form(c.GetForm()), PersonOnly: c.GetPersonOnly()}
	if c.GetError() != nil {
		return out, fromDriverError(c.GetError())
	}
	return out, nil
}

// --- search ---

// toSearch is r on the wire; legacy also writes the row key as the one text a plugin without
// RowKeys reads.
func toSearch(conn, table string, r driver.SearchRequest, limit int, legacy bool) (*pb.SearchRequest, error) {
	out := &pb.SearchRequest{ConnId: conn, Table: table, Vector: r.Vector, Mode: r.Mode, Params: r.Params,
		TargetVector: r.TargetVector, Properties: r.Properties, Limit: int64(limit),
		SearchColumns: r.SearchColumns, Filters: toFilters(r.Filters), Explain: r.Explain, Profile: r.Profile}
	if r.Query != nil {
		out.HasQuery, out.Query = true, *r.Query
	}
	if r.SimilarTo != nil {
		k, err := toKey(r.SimilarTo)
		if err != nil {
			return nil, err
		}
		out.SimilarKey, out.HasSimilarKey = k, true
		if legacy {
			out.SimilarTo = legacyKey(r.SimilarTo)
		}
	}
	return out, nil
}

func fromSearch(r *pb.SearchRequest) driver.SearchRequest {
	out := driver.SearchRequest{Vector: r.GetVector(), Mode: r.GetMode(), Params: r.GetParams(), SimilarTo: fromKey(r.GetSimilarKey(), r.GetSimilarTo()),
		TargetVector: r.GetTargetVector(), Properties: r.GetProperties(),
		SearchColumns: r.GetSearchColumns(), Filters: fromFilters(r.GetFilters()), Explain: r.GetExplain(), Profile: r.GetProfile()}
	if len(out.Params) == 0 {
		out.Params = nil
	}
	if r.GetHasSimilarKey() && out.SimilarTo == nil {
		out.SimilarTo = driver.Key{} // given but empty: Check says so
	}
	if r.GetHasQuery() {
		q := r.GetQuery()
		out.Query = &q
	}
	return out
}

func toSearchModes(ms []driver.SearchMode) []*pb.SearchMode {
	out := make([]*pb.SearchMode, len(ms))
	for i, m := range ms {
		ps := make([]*pb.SearchParam, len(m.Params))
		for j, p := range m.Params {
			ps[j] = &pb.SearchParam{Key: p.Key, Label: p.Label, Help: p.Help, Kind: p.Kind, Min: p.Min, Max: p.Max, Step: p.Step,
				MinLabel: p.MinLabel, MaxLabel: p.MaxLabel, Default: p.Default, Options: p.Options, OptionLabels: p.OptionLabels}
		}
		out[i] = &pb.SearchMode{Name: m.Name, Label: m.Label, Hint: m.Hint, Note: m.Note, Measure: m.Measure, Columns: m.Columns,
			TextColumns: m.TextColumns, Explains: m.Explains, Vector: m.Vector, Params: ps}
	}
	return out
}

func fromSearchModes(ms []*pb.SearchMode) []driver.SearchMode {
	if len(ms) == 0 {
		return nil
	}
	out := make([]driver.SearchMode, len(ms))
	for i, m := range ms {
		var ps []driver.SearchParam
		for _, p := range m.GetParams() {
			ps = append(ps, driver.SearchParam{Key: p.GetKey(), Label: p.GetLabel(), Help: p.GetHelp(), Kind: p.GetKind(), Min: p.GetMin(),
				Max: p.GetMax(), Step: p.GetStep(), MinLabel: p.GetMinLabel(), MaxLabel: p.GetMaxLabel(), Default: p.GetDefault(),
				Options: nilIfEmpty(p.GetOptions()), OptionLabels: nilIfEmptyMap(p.GetOptionLabels())})
		}
		out[i] = driver.SearchMode{Name: m.GetName(), Label: m.GetLabel(), Hint: m.GetHint(), Note: m.GetNote(), Measure: m.GetMeasure(),
			Columns: m.GetColumns(), TextColumns: nilIfEmpty(m.GetTextColumns()), Explains: m.GetExplains(), Vector: m.GetVector(), Params: ps}
	}
	return out
}

func nilIfEmptyMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

// --- edits ---

// toRows are rows on the wire; legacy also writes each key as the one text a plugin without
// RowKeys reads.
func toRows(rows []driver.Row, legacy bool) ([]*pb.EditRow, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	out := make([]*pb.EditRow, len(rows))
	for i, r := range rows {
		key, err := toKey(r.Key)
		if err != nil {
			return nil, driver.Errorf(driver.KindInvalidArgument, "row %d: %s", i+1, err.Error())
		}
		er := &pb.EditRow{Key: key}
		if legacy {
			er.Uuid = legacyInsertKey(r)
		}
		if len(r.Vectors) > 0 {
			er.Vectors = make(map[string]*pb.ScanVector, len(r.Vectors))
			for name, v := range r.Vectors {
				er.Vectors[name] = &pb.ScanVector{Packed: driver.PackFloats(v)}
			}
		}
		if len(r.Original) > 0 {
			er.Original = make(map[string]*pb.Value, len(r.Original))
			for k, v := range r.Original {
				pv, err := toValue(v)
				if err != nil {
					return nil, driver.Errorf(driver.KindInvalidArgument, "row %d, the original of column %s: %s", i+1, k, err.Error())
				}
				er.Original[k] = pv
			}
		}
		if len(r.Values) > 0 {
			er.Values = make(map[string]*pb.Value, len(r.Values))
			for k, v := range r.Values {
				pv, err := toValue(v)
				if err != nil {
					return nil, driver.Errorf(driver.KindInvalidArgument, "row %d, column %s: %s", i+1, k, err.Error())
				}
				er.Values[k] = pv
			}
		}
		out[i] = er
	}
	return out, nil
}

func fromRows(rows []*pb.EditRow) []driver.Row {
	if len(rows) == 0 {
		return nil
	}
	out := make([]driver.Row, len(rows))
	for i, r := range rows {
		out[i].Key = fromKey(r.GetKey(), r.GetUuid())
		if len(r.GetVectors()) > 0 {
			out[i].Vectors = make(map[string][]float32, len(r.GetVectors()))
			for name, v := range r.GetVectors() {
				out[i].Vectors[name] = driver.PackedFloats(v.GetPacked())
			}
		}
		if len(r.GetOriginal()) > 0 {
			out[i].Original = make(map[string]any, len(r.GetOriginal()))
			for k, v := range r.GetOriginal() {
				out[i].Original[k] = fromValue(v)
			}
		}
		if len(r.GetValues()) > 0 {
			out[i].Values = make(map[string]any, len(r.GetValues()))
			for k, v := range r.GetValues() {
				out[i].Values[k] = fromValue(v)
			}
		}
	}
	return out
}

func toRowResults(rs []driver.RowResult) []*pb.RowResult {
	out := make([]*pb.RowResult, len(rs))
	for i, r := range rs {
		// A key that does not go on the wire (a driver's odd value) is left out, not the row.
		key, _ := toKey(r.Key)
		out[i] = &pb.RowResult{Index: int64(r.Index), Uuid: legacyKey(r.Key), Key: key, Status: string(r.Status), Kind: string(driver.Protocol2Kind(r.Kind)),
			Message: r.Message, MaybeWritten: r.MaybeWritten}
		if driver.Protocol2Kind(r.Kind) != r.Kind {
			out[i].Code = string(r.Kind)
		}
	}
	return out
}

func fromRowResults(rs []*pb.RowResult) []driver.RowResult {
	if len(rs) == 0 {
		return nil
	}
	out := make([]driver.RowResult, len(rs))
	for i, r := range rs {
		kind := driver.Kind(r.GetKind())
		if code := driver.Kind(r.GetCode()); code != "" && driver.KnownKind(code) {
			kind = code
		}
		out[i] = driver.RowResult{Index: int(r.GetIndex()), Key: fromKey(r.GetKey(), r.GetUuid()), Status: driver.RowStatus(r.GetStatus()), Kind: kind,
			Message: r.GetMessage(), MaybeWritten: r.GetMaybeWritten()}
	}
	return out
}

// GridWireSize is the size in bytes of g as a Browse answer on the wire (measurements, tests).
func GridWireSize(g *driver.Grid) (int, error) {
	pg, err := toGrid(g)
	if err != nil {
		return 0, err
	}
	return proto.Size(pg), nil
}

// --- scan ---

// ScanPageWireSize is the size in bytes of p as a Scan answer on the wire (measurements).
func ScanPageWireSize(p *driver.ScanPage) (int, error) {
	pp, err := toScanPage(p)
	if err != nil {
		return 0, err
	}
	return proto.Size(pp), nil
}

func toScanPage(p *driver.ScanPage) (*pb.ScanPage, error) {
	g, err := toGrid(&driver.Grid{Columns: p.Columns, Rows: p.Rows})
	if err != nil {
		return nil, err
	}
	out := &pb.ScanPage{Columns: g.Columns, Rows: g.Rows, VectorNames: p.VectorNames, Next: p.Next, Walked: int64(p.Walked)}
	if len(p.Vectors) > 0 {
		out.Vectors = make([]*pb.ScanVectors, len(p.Vectors))
		for i, row := range p.Vectors {
			vs := &pb.ScanVectors{Vectors: make([]*pb.ScanVector, len(row))}
			for k, v := range row {
				vs.Vectors[k] = &pb.ScanVector{Packed: driver.PackFloats(v)}
			}
			out.Vectors[i] = vs
		}
	}
	return out, nil
}

func fromScanPage(p *pb.ScanPage) *driver.ScanPage {
	g := fromGrid(&pb.Grid{Columns: p.GetColumns(), Rows: p.GetRows()})
	out := &driver.ScanPage{Columns: g.Columns, Rows: g.Rows, VectorNames: p.GetVectorNames(), Next: p.GetNext(), Walked: int(p.GetWalked())}
	if len(p.GetVectors()) > 0 {
		out.Vectors = make([][][]float32, len(p.GetVectors()))
		for i, row := range p.GetVectors() {
			vs := make([][]float32, len(row.GetVectors()))
			for k, v := range row.GetVectors() {
				vs[k] = driver.PackedFloats(v.GetPacked())
			}
			out.Vectors[i] = vs
		}
	}
	return out
}

// toProfile and fromProfile carry a search's profile; the seconds are read again on the host
// side from the values, so the wire holds only what the database wrote.
func toProfile(p *driver.QueryProfile) *pb.QueryProfile {
	if p == nil {
		return nil
	}
	out := &pb.QueryProfile{Shards: make([]*pb.QueryProfile_Shard, len(p.Shards))}
	for i, sh := range p.Shards {
		s := &pb.QueryProfile_Shard{Name: sh.Name, Node: sh.Node, Searches: make([]*pb.QueryProfile_Search, len(sh.Searches))}
		for j, se := range sh.Searches {
			ms := make([]*pb.QueryProfile_Metric, len(se.Metrics))
			for k, m := range se.Metrics {
				ms[k] = &pb.QueryProfile_Metric{Name: m.Name, Value: m.Value}
			}
			s.Searches[j] = &pb.QueryProfile_Search{Kind: se.Kind, Metrics: ms}
		}
		out.Shards[i] = s
	}
	return out
}

func fromProfile(p *pb.QueryProfile) *driver.QueryProfile {
	if p == nil {
		return nil
	}
	out := &driver.QueryProfile{Shards: make([]driver.ShardProfile, len(p.GetShards()))}
	for i, sh := range p.GetShards() {
		s := driver.ShardProfile{Name: sh.GetName(), Node: sh.GetNode(), Searches: make([]driver.SearchProfile, len(sh.GetSearches()))}
		for j, se := range sh.GetSearches() {
			ms := make([]driver.ProfileMetric, len(se.GetMetrics()))
			for k, m := range se.GetMetrics() {
				ms[k] = driver.NewProfileMetric(m.GetName(), m.GetValue())
			}
			s.Searches[j] = driver.SearchProfile{Kind: se.GetKind(), Metrics: ms}
		}
		out.Shards[i] = s
	}
	return out
}
