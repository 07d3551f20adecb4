package driver

import (
	"strings"
	"time"
)

// QueryProfile is the database's own account of where a search spent its time, shard by
// shard (Weaviate 1.36.9+: vector index traversal, filtering, rescoring, object hydration,
// keyword scoring). A driver fills Grid.Profile when SearchRequest.Profile asked for it and
// the database gave one; TableInfo.Profiles says beforehand whether it can.
type QueryProfile struct {
	Shards []ShardProfile `json:"shards"`
}

// ShardProfile is one shard's part of a search.
type ShardProfile struct {
	Name string `json:"name"`
	// Node is the server that searched the shard, where the database names it.
	Node     string          `json:"node,omitempty"`
	Searches []SearchProfile `json:"searches"`
}

// SearchProfile is one kind of search within a shard ("vector", "keyword"), its metrics in
// the order of their names.
type SearchProfile struct {
	Kind    string          `json:"kind"`
	Metrics []ProfileMetric `json:"metrics"`
}

// ProfileMetric is one measure as the database wrote it ("126.068µs", "blockmaxwand", "2");
// Seconds is set where the value is a duration, for the window's bars.
type ProfileMetric struct {
	Name    string   `json:"name"`
	Value   string   `json:"value"`
	Seconds *float64 `json:"seconds,omitempty"`
}

// NewProfileMetric reads a duration from the value where it is one.
func NewProfileMetric(name, value string) ProfileMetric {
	m := ProfileMetric{Name: name, Value: value}
	if d, err := time.ParseDuration(strings.TrimSpace(value)); err == nil && d >= 0 {
		s := d.Seconds()
		m.Seconds = &s
	}
	return m
}
