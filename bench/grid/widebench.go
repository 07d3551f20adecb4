package main

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
)

// WideBench is issue 42's wide table (target 5): wideRows objects of 48 properties of mixed
// kinds and no vector, which the grid shows as 50 columns (the object's uuid first, its
// vector, null here, last). It is a
// Weaviate collection in the bench's kept data directory, beside GridBench: the server, the
// driver plugin and the saved connection are the ones the grid bench already runs, so the
// wide table costs one load of about 10 MB of JSON (seconds) the first time.
const (
	wideClass = "WideBench"
	wideRows  = 10000
	wideBatch = 500
)

// wideKind is a property's Weaviate data type and how its values are made.
type wideKind int

const (
	wideText wideKind = iota
	wideLong          // a paragraph, 200 to 600 characters
	wideInt
	wideNumber
	wideDate
	wideBool
)

// wideProps are the 48 properties: 14 short texts, 4 long texts, 10 ints, 8 numbers, 6 dates,
// 6 booleans, in an order that mixes them as a real table does.
var wideProps = []struct {
	name string
	kind wideKind
}{
	{"sku", wideText}, {"name", wideText}, {"brand", wideText}, {"category", wideText}, {"price", wideNumber},
	{"cost", wideNumber}, {"stock", wideInt}, {"reorderLevel", wideInt}, {"active", wideBool}, {"createdAt", wideDate},
	{"updatedAt", wideDate}, {"description", wideLong}, {"color", wideText}, {"size", wideText}, {"weightGrams", wideInt},
	{"lengthMm", wideInt}, {"widthMm", wideInt}, {"heightMm", wideInt}, {"fragile", wideBool}, {"supplier", wideText},
	{"supplierCountry", wideText}, {"leadTimeDays", wideInt}, {"rating", wideNumber}, {"reviewCount", wideInt}, {"lastReview", wideLong},
	{"warehouse", wideText}, {"aisle", wideText}, {"taxRate", wideNumber}, {"discount", wideNumber},
	{"onSale", wideBool}, {"saleStarts", wideDate}, {"saleEnds", wideDate}, {"barcode", wideText}, {"hazardous", wideBool},
	{"origin", wideText}, {"material", wideText}, {"careNotes", wideLong}, {"warrantyMonths", wideInt}, {"returnable", wideBool},
	{"returnsRate", wideNumber}, {"margin", wideNumber}, {"firstSold", wideDate}, {"lastSold", wideDate}, {"unitsSold", wideInt},
	{"featured", wideBool}, {"channel", wideText}, {"notes", wideLong}, {"status", wideText},
}

var wideWords = strings.Fields(`alpha amber anchor arctic atlas aurora basin beacon birch bramble canyon cedar
	cobalt coral crest delta dune ember falcon fern fjord garnet glacier granite harbor hazel indigo iris jade
	juniper kestrel lagoon larch lumen maple marble meadow mesa nectar nimbus oak onyx orchid pebble pine prairie
	quartz quill raven reed ridge sable saffron sage sierra slate sorrel spruce summit tidal timber topaz tundra
	umber valley vapor willow yarrow zephyr`)

// wideID is the object's UUID: a prefix of its own and the row number, so ids sort in row order.
func wideID(i int) string { return fmt.Sprintf("0000b003-0000-4000-8000-%012x", i) }

// wideObject is row i of WideBench, the same on every run (a generator seeded by the row).
func wideObject(i int) fixtures.Object {
	h := fnv.New64a()
	_ = binary.Write(h, binary.LittleEndian, int64(i))
	r := rand.New(rand.NewPCG(h.Sum64(), 0x42))
	word := func() string { return wideWords[r.IntN(len(wideWords))] }
	words := func(n int) string {
		w := make([]string, n)
		for k := range w {
			w[k] = word()
		}
		return strings.Join(w, " ")
	}
	base := time.Date(2018, 1, 1, 0, 0, 0, 0, time.UTC)
	props := make(map[string]any, len(wideProps))
	for j, p := range wideProps {
		switch {
		case j == 0:
			props[p.name] = fmt.Sprintf("SKU-%06d", i)
		case p.kind == wideText:
			props[p.name] = words(1 + r.IntN(3))
		case p.kind == wideLong:
			props[p.name] = words(30 + r.IntN(60))
		case p.kind == wideInt:
			props[p.name] = r.IntN(100000)
		case p.kind == wideNumber:
			props[p.name] = float64(r.IntN(10000000)) / 100
		case p.kind == wideDate:
			props[p.name] = base.Add(time.Duration(r.IntN(8*365*24*60)) * time.Minute).Format(time.RFC3339)
		case p.kind == wideBool:
			props[p.name] = r.IntN(2) == 0
		}
	}
	return fixtures.Object{Class: wideClass, ID: wideID(i), Properties: props}
}

func wideSchema() map[string]any {
	types := map[wideKind]string{wideText: "text", wideLong: "text", wideInt: "int", wideNumber: "number", wideDate: "date", wideBool: "boolean"}
	props := make([]any, len(wideProps))
	for j, p := range wideProps {
		props[j] = map[string]any{"name": p.name, "dataType": []string{types[p.kind]}}
	}
	return map[string]any{"class": wideClass, "vectorizer": "none", "properties": props,
		"description": fmt.Sprintf("Wide-table benchmark (issue 42): %d objects x %d properties of mixed kinds, no vector.", wideRows, len(wideProps))}
}

// loadWide deletes WideBench if present, creates it and loads its rows.
func loadWide(ctx context.Context, n *weaviatenode.Node) error {
	err := n.DoJSON(ctx, http.MethodDelete, "/v1/schema/"+wideClass, nil, nil)
	var se interface{ StatusCode() int }
	if err != nil && !(errors.As(err, &se) && se.StatusCode() == http.StatusNotFound) {
		return fmt.Errorf("delete %s: %w", wideClass, err)
	}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", wideSchema(), nil); err != nil {
		return fmt.Errorf("create %s: %w", wideClass, err)
	}
	for from := 0; from < wideRows; from += wideBatch {
		objs := make([]fixtures.Object, 0, wideBatch)
		for i := from; i < min(from+wideBatch, wideRows); i++ {
			objs = append(objs, wideObject(i))
		}
		if err := fixtures.Batch(ctx, n, objs); err != nil {
			return err
		}
	}
	return nil
}

// holdsWide reports whether the node holds WideBench as wideObject makes it (count, first and
// last rows).
func holdsWide(ctx context.Context, n *weaviatenode.Node) (bool, string) {
	got, err := n.Count(ctx, wideClass, "")
	if err != nil {
		return false, "not there"
	}
	if got != wideRows {
		return false, fmt.Sprintf("%d objects", got)
	}
	for _, i := range []int{0, wideRows - 1} {
		want := wideObject(i)
		var obj struct {
			Properties map[string]any `json:"properties"`
		}
		if err := n.DoJSON(ctx, http.MethodGet, "/v1/objects/"+wideClass+"/"+want.ID, nil, &obj); err != nil {
			return false, fmt.Sprintf("object %d: %v", i, err)
		}
		if len(obj.Properties) != len(wideProps) || obj.Properties["notes"] != want.Properties["notes"] {
			return false, fmt.Sprintf("object %d differs from the generator", i)
		}
	}
	return true, ""
}
