package weaviate

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"sort"

	"app/backend/driver"
)

// Nodes reads the cluster's nodes (GET /v1/nodes?output=verbose, or /v1/nodes/{class} for one
// table), so a multi-node cluster is seen at a glance: each node's status, version and object
// count, and what each collection keeps on it. A collection's shards are summed per node (a
// multi-tenant collection has a shard a tenant, 50,000 of them in the e2e). Asked for one
// table, each node lists that table's shards too (the first driver.MaxShardList by name).
func (d *Driver) Nodes(ctx context.Context, table string) ([]driver.Node, error) {
	path := "/v1/nodes"
	if table != "" {
		c, err := d.classFor(ctx, table)
		if err != nil {
			return nil, err
		}
		path += "/" + escapePath(c.Class)
	}
	st, body, err := d.call(ctx, http.MethodGet, path, url.Values{"output": {"verbose"}}, nil)
	if err != nil {
		return nil, err
	}
	if st != http.StatusOK {
		return nil, d.statusError(st, body, "the nodes ("+path+")")
	}
	var doc struct {
		Nodes []struct {
			Name    string  `json:"name"`
			Status  *string `json:"status"`
			Version string  `json:"version"`
			Shards  []struct {
				Name                 string `json:"name"`
				Class                string `json:"class"`
				ObjectCount          int64  `json:"objectCount"`
				Loaded               bool   `json:"loaded"`
				VectorIndexingStatus string `json:"vectorIndexingStatus"`
			} `json:"shards"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, driver.Wrap(driver.KindQueryFailed, err, "the nodes of %s cannot be read", d.hostTxt)
	}
	out := make([]driver.Node, 0, len(doc.Nodes))
	for _, n := range doc.Nodes {
		node := driver.Node{Name: n.Name, Version: n.Version}
		if n.Status != nil {
			node.Status = *n.Status
		}
		byTable := map[string]*driver.NodeTables{}
		for _, s := range n.Shards {
			t := byTable[s.Class]
			if t == nil {
				t = &driver.NodeTables{Table: s.Class}
				byTable[s.Class] = t
			}
			t.Shards++
			t.Objects += s.ObjectCount
			if table != "" {
				t.ShardList = append(t.ShardList, driver.NodeShard{Name: s.Name, Objects: s.ObjectCount, Loaded: s.Loaded, VectorIndexing: s.VectorIndexingStatus})
			}
			if s.Loaded {
				t.Loaded++
			}
			node.Shards++
			node.Objects += s.ObjectCount
		}
		for _, t := range byTable {
			sort.Slice(t.ShardList, func(i, j int) bool { return t.ShardList[i].Name < t.ShardList[j].Name })
			if len(t.ShardList) > driver.MaxShardList {
				t.ShardsLeftOut = len(t.ShardList) - driver.MaxShardList
				t.ShardList = t.ShardList[:driver.MaxShardList]
			}
			node.Tables = append(node.Tables, *t)
		}
		sort.Slice(node.Tables, func(i, j int) bool { return node.Tables[i].Table < node.Tables[j].Table })
		out = append(out, node)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
