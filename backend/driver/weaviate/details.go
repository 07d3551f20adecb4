package weaviate

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"app/backend/driver"
)

// details is the collection's definition in words (issue 23, item 2): its vectors (the
// vectorizer and each vector's index, distance and compression), the inverted index, each
// property's type and how its words are indexed, replication, sharding and tenants. Each
// item names the schema field it reads, which is what filter refusals quote, so the UI can
// link a refusal to the setting behind it. It reads the definition as the server sent it:
// a field a newer server adds is simply not described.
func (c *class) details() []driver.DetailSection {
	var def map[string]any
	if len(c.raw) > 0 {
		_ = json.Unmarshal(c.raw, &def)
	}
	var out []driver.DetailSection
	if vc, ok := def["vectorConfig"].(map[string]any); ok && len(vc) > 0 {
		names := make([]string, 0, len(vc))
		for n := range vc {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			v, _ := vc[n].(map[string]any)
			prefix := "vectorConfig." + n + "."
			items := []driver.DetailItem{vectorizerItem(moduleOf(v["vectorizer"]), v["vectorizer"], prefix+"vectorizer")}
			items = append(items, indexItems(str(v["vectorIndexType"]), obj(v["vectorIndexConfig"]), prefix)...)
			out = append(out, driver.DetailSection{Title: "Vector " + n, Items: items})
		}
	} else {
		items := []driver.DetailItem{vectorizerItem(c.Vectorizer, def["moduleConfig"], "vectorizer")}
		items = append(items, indexItems(str(def["vectorIndexType"]), obj(def["vectorIndexConfig"]), "")...)
		out = append(out, driver.DetailSection{Title: "Vector", Items: items})
	}
	if mc := obj(def["moduleConfig"]); len(mc) > 0 {
		var items []driver.DetailItem
		for _, m := range sortedKeys(mc) {
			items = append(items, driver.DetailItem{Label: m, Value: restJSON(mc[m]), Setting: "moduleConfig." + m})
		}
		out = append(out, driver.DetailSection{Title: "Modules", Items: items})
	}
	out = append(out, driver.DetailSection{Title: "Inverted index", Items: invertedItems(c, obj(def["invertedIndexConfig"]))})
	props := make([]driver.DetailItem, 0, len(c.Properties))
	for _, p := range c.Properties {
		props = append(props, driver.DetailItem{Label: p.Name, Value: propertyWords(p), Setting: "properties." + p.Name})
	}
	if len(props) > 0 {
		out = append(out, driver.DetailSection{Title: "Properties", Items: props})
	}
	out = append(out, driver.DetailSection{Title: "Replication and sharding", Items: placementItems(def)})
	if ttl, ok := def["objectTtlConfig"].(map[string]any); ok {
		out = append(out, driver.DetailSection{Title: "Object expiry", Items: []driver.DetailItem{expiryItem(ttl)}})
	}
	return out
}

// vectorizerItem says where the vectors come from.
func vectorizerItem(module string, config any, setting string) driver.DetailItem {
	it := driver.DetailItem{Label: "Vectorizer", Setting: setting}
	switch module {
	case "", "none":
		it.Value = "none: vectors come from the client (nearText is not available)"
	default:
		it.Value = module
		if cfg := obj(obj(config)[module]); len(cfg) > 0 {
			it.Value += " " + restJSON(cfg)
		}
	}
	return it
}

// moduleOf is the one module a named vector's "vectorizer" object names.
func moduleOf(v any) string {
	for _, k := range sortedKeys(obj(v)) {
		return k
	}
	return ""
}

// indexItems describe a vector index: its type, distance, compression and, for HNSW, the
// graph's size settings.
func indexItems(kind string, cfg map[string]any, prefix string) []driver.DetailItem {
	if kind == "" {
		kind = "hnsw"
	}
	if kind == vectorIndexNone {
		return []driver.DetailItem{{Label: "Index type", Value: "none: the index was dropped, so this vector cannot be searched and the grid does not show it", Setting: prefix + "vectorIndexType"}}
	}
	items := []driver.DetailItem{{Label: "Index type", Value: kind, Setting: prefix + "vectorIndexType"}}
	if d := str(cfg["distance"]); d != "" {
		items = append(items, driver.DetailItem{Label: "Distance", Value: d, Setting: prefix + "vectorIndexConfig.distance"})
	}
	comp := cfg
	if kind == "dynamic" { // a dynamic index keeps its quantization under the index it becomes
		comp = obj(cfg["hnsw"])
	}
	items = append(items, driver.DetailItem{Label: "Compression", Value: compression(comp), Setting: prefix + "vectorIndexConfig"})
	if mv := obj(cfg["multivector"]); mv["enabled"] == true {
		items = append(items, driver.DetailItem{Label: "Multi-vector", Value: "yes, aggregated by " + str(mv["aggregation"]), Setting: prefix + "vectorIndexConfig.multivector"})
	}
	if kind == "hnsw" {
		var parts []string
		for _, k := range []string{"efConstruction", "maxConnections", "ef"} {
			if v, ok := cfg[k]; ok {
				parts = append(parts, k+" "+restJSON(v))
			}
		}
		if len(parts) > 0 {
			v := strings.Join(parts, ", ")
			if ef, ok := cfg["ef"].(float64); ok && ef < 0 {
				v += " (ef -1: chosen per query)"
			}
			items = append(items, driver.DetailItem{Label: "HNSW graph", Value: v, Setting: prefix + "vectorIndexConfig.ef"})
		}
	}
	if kind == "dynamic" {
		if t, ok := cfg["threshold"]; ok {
			items = append(items, driver.DetailItem{Label: "Switches to HNSW at", Value: restJSON(t) + " objects", Setting: prefix + "vectorIndexConfig.threshold"})
		}
	}
	return items
}

// compression names the quantization an index has on (pq, bq, sq, rq), or "none".
func compression(cfg map[string]any) string {
	var on []string
	for _, q := range []string{"pq", "bq", "sq", "rq"} {
		if obj(cfg[q])["enabled"] == true {
			name := strings.ToUpper(q)
			if q == "rq" {
				if bits, ok := obj(cfg[q])["bits"]; ok {
					name += fmt.Sprintf(" (%s bits)", restJSON(bits))
				}
			}
			on = append(on, name)
		}
	}
	if len(on) == 0 {
		return "none: full vectors"
	}
	return strings.Join(on, ", ")
}

// invertedItems describe the inverted index, saying which grid filters each switch allows.
func invertedItems(c *class, cfg map[string]any) []driver.DetailItem {
	yesNo := func(on bool, yes, no string) string {
		if on {
			return "yes: " + yes
		}
		return "no: " + no
	}
	items := []driver.DetailItem{
		{Label: "Null state indexed", Setting: "invertedIndexConfig.indexNullState",
			Value: yesNo(c.InvertedIndexConfig.IndexNullState, "the is null and is not null filters run", "the is null and is not null filters are refused")},
		{Label: "Property length indexed", Setting: "invertedIndexConfig.indexPropertyLength",
			Value: yesNo(c.InvertedIndexConfig.IndexPropertyLength, "the is empty and is not empty filters run", "the is empty and is not empty filters are refused")},
		{Label: "Timestamps indexed", Setting: "invertedIndexConfig.indexTimestamps",
			Value: yesNo(c.InvertedIndexConfig.IndexTimestamps, "rows can be filtered by creation and update time (in the editor)", "creation and update times cannot be filtered")},
	}
	if bm := obj(cfg["bm25"]); len(bm) > 0 {
		items = append(items, driver.DetailItem{Label: "BM25", Value: "k1 " + restJSON(bm["k1"]) + ", b " + restJSON(bm["b"]), Setting: "invertedIndexConfig.bm25"})
	}
	if sw := obj(cfg["stopwords"]); len(sw) > 0 {
		v := "preset " + str(sw["preset"])
		if a, ok := sw["additions"].([]any); ok && len(a) > 0 {
			v += fmt.Sprintf(", %d added", len(a))
		}
		if r, ok := sw["removals"].([]any); ok && len(r) > 0 {
			v += fmt.Sprintf(", %d removed", len(r))
		}
		items = append(items, driver.DetailItem{Label: "Stopwords", Value: v, Setting: "invertedIndexConfig.stopwords"})
	}
	if presets := obj(cfg["stopwordPresets"]); len(presets) > 0 {
		var parts []string
		for _, name := range sortedKeys(presets) {
			words, _ := presets[name].([]any)
			parts = append(parts, fmt.Sprintf("%s (%d words)", name, len(words)))
		}
		items = append(items, driver.DetailItem{Label: "Stopword presets", Value: strings.Join(parts, ", ") + ": a property's text analyzer may use one", Setting: "invertedIndexConfig.stopwordPresets"})
	}
	return items
}

// propertyWords is a property's type and indexes in words, e.g. "text, tokenized word;
// filterable, searchable".
func propertyWords(p property) string {
	s := p.Type()
	if p.isRef() {
		s = "reference to " + strings.Join(p.DataType, " or ")
	}
	b, _ := p.base()
	if b == "text" || b == "string" {
		s += ", tokenized " + p.tokenization()
	}
	if b == "blobHash" {
		s += " (the server keeps the SHA-256 of a written blob and shows it as hex; a write takes base64)"
	}
	if ta := p.TextAnalyzer; ta != nil {
		if ta.ASCIIFold {
			s += ", accents folded"
			if len(ta.ASCIIFoldIgnore) > 0 {
				s += " except " + strings.Join(ta.ASCIIFoldIgnore, " ")
			}
		}
		if ta.StopwordPreset != "" {
			s += ", stopwords " + ta.StopwordPreset
		}
	}
	var idx []string
	if p.filterable() {
		idx = append(idx, "filterable")
	}
	if p.searchable() {
		idx = append(idx, "searchable (bm25)")
	}
	if p.rangeable() {
		idx = append(idx, "range filters")
	}
	if len(idx) == 0 {
		idx = append(idx, "not indexed")
	}
	s += "; " + strings.Join(idx, ", ")
	if p.Description != "" {
		s += " · " + p.Description
	}
	return s
}

// placementItems describe replication, sharding and tenants.
func placementItems(def map[string]any) []driver.DetailItem {
	var items []driver.DetailItem
	rep := obj(def["replicationConfig"])
	if f, ok := rep["factor"]; ok {
		v := restJSON(f)
		// asyncEnabled is the 1.35 switch; later servers may leave it out and configure the
		// repair under asyncConfig.
		if rep["asyncEnabled"] == true || len(obj(rep["asyncConfig"])) > 0 {
			v += ", repaired asynchronously"
		}
		if ds := str(rep["deletionStrategy"]); ds != "" {
			v += "; conflicting deletes resolved by " + ds
		}
		items = append(items, driver.DetailItem{Label: "Replication factor", Value: v, Setting: "replicationConfig.factor"})
	}
	sh := obj(def["shardingConfig"])
	if n, ok := sh["desiredCount"]; ok {
		v := restJSON(n)
		if a, ok := sh["actualCount"]; ok && restJSON(a) != v {
			v += ", " + restJSON(a) + " now"
		}
		items = append(items, driver.DetailItem{Label: "Shards", Value: v + " (by " + str(sh["strategy"]) + " of " + str(sh["key"]) + ")", Setting: "shardingConfig.desiredCount"})
	}
	mt := obj(def["multiTenancyConfig"])
	if mt["enabled"] == true {
		v := "on: each tenant has a shard of its own"
		if mt["autoTenantCreation"] == true {
			v += "; tenants are created on first write"
		}
		if mt["autoTenantActivation"] == true {
			v += "; inactive tenants activate on use"
		}
		items = append(items, driver.DetailItem{Label: "Multi-tenancy", Value: v, Setting: "multiTenancyConfig.enabled"})
	} else {
		items = append(items, driver.DetailItem{Label: "Multi-tenancy", Value: "off", Setting: "multiTenancyConfig.enabled"})
	}
	return items
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// expiryItem says when objects expire (objectTtlConfig, 1.36+).
func expiryItem(ttl map[string]any) driver.DetailItem {
	it := driver.DetailItem{Label: "Expiry", Setting: "objectTtlConfig.enabled"}
	if ttl["enabled"] != true {
		it.Value = "off: objects stay until deleted"
		return it
	}
	it.Value = "on: an object expires " + restJSON(ttl["defaultTtl"]) + " s after its " + str(ttl["deleteOn"])
	if ttl["filterExpiredObjects"] == true {
		it.Value += "; expired objects are hidden until the server removes them"
	} else {
		it.Value += "; expired objects are still read until the server removes them"
	}
	return it
}
