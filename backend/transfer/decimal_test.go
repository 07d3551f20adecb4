package transfer

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"app/backend/driver"
)

// Numbers reach a file with the digits the driver gave: CSV and JSON Lines write them as they
// are (NaN and the infinities by name, a string in JSON), Parquet as a DECIMAL where the column
// declares its digits, as text where it does not, and as a double only for a float column. The
// import reads every one of them back to the same digits.
func TestExactNumbersKeepEveryDigitInEveryFormat(t *testing.T) {
	g := &driver.Grid{
		Columns: []driver.Column{
			{Name: "id", Kind: driver.ColumnInteger},
			{Name: "fixed", Kind: driver.ColumnNumber, Exact: true, Precision: 40, Scale: 10},
			{Name: "small", Kind: driver.ColumnNumber, Exact: true, Precision: 5, Scale: 2},
			{Name: "free", Kind: driver.ColumnNumber, Exact: true},
			{Name: "wide", Kind: driver.ColumnNumber, Exact: true, Precision: 3, Scale: 5}, // PostgreSQL 15 allows it; Parquet does not
			{Name: "float", Kind: driver.ColumnNumber},
			{Name: "list", Kind: driver.ColumnArray, Of: driver.ColumnNumber, Exact: true},
		},
		Rows: [][]any{
			{json.Number("9007199254740993"), json.Number("12345678901234567890.1234567890"), json.Number("-123.45"),
				json.Number("-0.000000000000000000001234567890123456789"), json.Number("0.00123"), json.Number("0.1"), `[1.10, "NaN"]`},
			{json.Number("2"), json.Number("-0.0000000001"), nil, "NaN", nil, "Infinity", `[]`},
		},
	}
	dir := t.TempDir()
	export := func(f Format) string {
		t.Helper()
		path := filepath.Join(dir, "n."+string(f))
		if _, err := ExportGrid(context.Background(), g, f, path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	text := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	if got, want := text(export(CSV)), "id,fixed,small,free,wide,float,list\r\n"+
		`9007199254740993,12345678901234567890.1234567890,-123.45,-0.000000000000000000001234567890123456789,0.00123,0.1,"[1.10,""NaN""]"`+"\r\n"+
		"2,-0.0000000001,,NaN,,Infinity,[]\r\n"; got != want {
		t.Errorf("CSV:\n%s\nwant\n%s", got, want)
	}
	if got, want := text(export(JSONL)),
		`{"id":9007199254740993,"fixed":12345678901234567890.1234567890,"small":-123.45,"free":-0.000000000000000000001234567890123456789,"wide":0.00123,"float":0.1,"list":[1.10,"NaN"]}`+"\n"+
			`{"id":2,"fixed":-0.0000000001,"small":null,"free":"NaN","wide":null,"float":"Infinity","list":[]}`+"\n"; got != want {
		t.Errorf("JSON Lines:\n%s\nwant\n%s", got, want)
	}

	path := export(Parquet)
	pf := OpenParquet(t, path)
	types := map[string]string{}
	for _, c := range pf.Schema().Columns() {
		leaf, _ := pf.Schema().Lookup(c...)
		types[c[0]] = leaf.Node.Type().String()
	}
	if want := map[string]string{"id": "INT(64,true)", "fixed": "DECIMAL(40,10)", "small": "DECIMAL(5,2)", "free": "STRING",
		"wide": "STRING", "float": "DOUBLE", "list": "STRING"}; !reflect.DeepEqual(types, want) {
		t.Errorf("Parquet types %v, want %v", types, want)
	}
	got := readBack(t, path)
	want := []map[string]any{
		{"id": int64(9007199254740993), "fixed": json.Number("12345678901234567890.1234567890"), "small": json.Number("-123.45"),
			"free": "-0.000000000000000000001234567890123456789", "wide": "0.00123", "float": 0.1, "list": []any{"1.10", "NaN"}},
		{"id": int64(2), "fixed": json.Number("-0.0000000001"), "small": nil, "free": "NaN", "wide": nil, "float": math.Inf(1), "list": []any{}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parquet read back as\n%v\nwant\n%v", got, want)
	}

	t.Run("a value a DECIMAL cannot hold fails the export, naming the column", func(t *testing.T) {
		bad := &driver.Grid{Columns: g.Columns[1:2], Rows: [][]any{{"NaN"}}}
		_, err := ExportGrid(context.Background(), bad, Parquet, filepath.Join(dir, "bad.parquet"))
		if err == nil || !strings.Contains(err.Error(), "column fixed") {
			t.Fatalf("err = %v", err)
		}
	})
}

// A DECIMAL another program wrote as an INT32 or INT64 imports with its digits, where the map
// reader would give a float32 or float64 (1234567.89 as 1234567.9).
func TestImportReadsADecimalOfEveryPhysicalType(t *testing.T) {
	type row struct {
		Small int32  `parquet:"small,decimal(2:9)"`
		Big   int64  `parquet:"big,decimal(4:18)"`
		Wide  []byte `parquet:"wide,decimal(3:30)"`
	}
	path := filepath.Join(t.TempDir(), "d.parquet")
	wide, _ := toFixedDecimal("-98765432109876543210987654.321", 30, 3)
	if err := parquet.WriteFile(path, []row{{Small: 123456789, Big: 123456789012345678, Wide: wide}}); err != nil {
		t.Fatal(err)
	}
	got := readBack(t, path)
	want := []map[string]any{{"small": json.Number("1234567.89"), "big": json.Number("12345678901234.5678"),
		"wide": json.Number("-98765432109876543210987654.321")}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back as %v, want %v", got, want)
	}
}

// readBack reads a Parquet file as the import does.
func readBack(t *testing.T, path string) []map[string]any {
	t.Helper()
	src, err := openSource(path, Parquet)
	if err != nil {
		t.Fatal(err)
	}
	defer src.close()
	var out []map[string]any
	for {
		rec, err := src.next()
		if err != nil {
			break
		}
		out = append(out, rec.values)
	}
	return out
}
