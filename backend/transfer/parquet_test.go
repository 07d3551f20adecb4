package transfer

import (
	"os"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// OpenParquet opens the Parquet file at path for a test to read back (this package's tests
// and transfer_test's), closed when the test ends.
func OpenParquet(t testing.TB, path string) *parquet.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	return pf
}

// ParquetTypes are the file's columns by name, each its logical type as the library spells it
// (INT(64,true), DECIMAL(40,10), STRING, DOUBLE).
func ParquetTypes(pf *parquet.File) map[string]string {
	types := map[string]string{}
	for _, c := range pf.Schema().Fields() {
		types[c.Name()] = c.Type().String()
	}
	return types
}
