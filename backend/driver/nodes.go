package driver

import "context"

// Node is one node of a database cluster as the database reports it (Weaviate: /v1/nodes).
type Node struct {
	Name string `json:"name"`
	// Status is the node's health as the database names it (Weaviate: HEALTHY, UNHEALTHY,
	// UNAVAILABLE, TIMEOUT, INDEXING).
	Status  string `json:"status"`
	Version string `json:"version"`
	// Objects and Shards are the node's totals over the tables asked for; Tables what each
	// table keeps on the node.
	Objects int64        `json:"objects"`
	Shards  int          `json:"shards"`
	Tables  []NodeTables `json:"tables,omitempty"`
}

// NodeTables is what one table keeps on one node: its shards (a multi-tenant table has one a
// tenant), how many are loaded (an inactive tenant's is not) and its objects there.
type NodeTables struct {
	Table   string `json:"table"`
	Shards  int    `json:"shards"`
	Loaded  int    `json:"loaded"`
	Objects int64  `json:"objects"`
	// ShardList is each shard, when one table was asked for, at most MaxShardList of them by
	// name; ShardsLeftOut counts the rest.
	ShardList     []NodeShard `json:"shardList,omitempty"`
	ShardsLeftOut int         `json:"shardsLeftOut,omitempty"`
}

// MaxShardList is how many shards of one table on one node a Nodes answer lists (a
// multi-tenant table has a shard a tenant).
const MaxShardList = 500

// NodeShard is one shard of a table on a node (a tenant's, for a multi-tenant table).
type NodeShard struct {
	Name    string `json:"name"`
	Objects int64  `json:"objects"`
	Loaded  bool   `json:"loaded"`
	// VectorIndexing is the state of its vector index as the database names it (Weaviate:
	// READY, INDEXING, READONLY).
	VectorIndexing string `json:"vectorIndexing,omitempty"`
}

// Cluster is what a driver offers beyond the contract to show the database's nodes: every
// table's part of each node, or one table's ("" for all).
type Cluster interface {
	Nodes(ctx context.Context, table string) ([]Node, error)
}
