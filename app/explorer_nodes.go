package app

import "app/backend/driver"

// Nodes reads the nodes of an open connection's cluster (issue 23: the connection's page shows
// them, so a multi-node cluster is seen at a glance). It never returns null.
func (a *ExplorerAPI) Nodes(id string) ([]NodeDTO, error) {
	return a.nodes(id, "")
}

// TableNodes reads where one table lives: its shards on each node, with their objects (issue
// 23, item 2: the collection's details). It never returns null.
func (a *ExplorerAPI) TableNodes(id, table string) ([]NodeDTO, error) {
	if table == "" {
		return nil, invalidArgument("a table name is required")
	}
	return a.nodes(id, table)
}

func (a *ExplorerAPI) nodes(id, table string) ([]NodeDTO, error) {
	d, err := a.driver(id)
	if err != nil {
		return nil, err
	}
	cl, ok := d.(driver.Cluster)
	if !ok {
		return nil, apiError(driver.Errorf(driver.KindUnsupported, "this connection's driver cannot list the database's nodes"))
	}
	ctx, cancel := a.callContext()
	defer cancel()
	nodes, err := cl.Nodes(ctx, table)
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]NodeDTO, len(nodes))
	for i, n := range nodes {
		out[i] = NodeDTO{Name: n.Name, Status: n.Status, Version: n.Version, Objects: n.Objects, Shards: n.Shards, Tables: []NodeTablesDTO{}}
		for _, t := range n.Tables {
			nt := NodeTablesDTO{Table: t.Table, Shards: t.Shards, Loaded: t.Loaded, Objects: t.Objects, ShardList: []NodeShardDTO{}, ShardsLeftOut: t.ShardsLeftOut}
			for _, s := range t.ShardList {
				nt.ShardList = append(nt.ShardList, NodeShardDTO(s))
			}
			out[i].Tables = append(out[i].Tables, nt)
		}
	}
	return out, nil
}
