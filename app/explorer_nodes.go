package app

import (
	"app/app/dto"
	"app/backend/driver"
)

// Nodes reads the nodes of an open connection's cluster (issue 23: the connection's page shows
// them, so a multi-node cluster is seen at a glance). It never returns null.
func (a *ExplorerAPI) Nodes(id string) ([]dto.ClusterNodeDTO, error) {
	return a.nodes(id, "")
}

// TableNodes reads where one table lives: its shards on each node, with their objects (issue
// 23, item 2: the collection's details). It never returns null.
func (a *ExplorerAPI) TableNodes(id, table string) ([]dto.ClusterNodeDTO, error) {
	if table == "" {
		return nil, invalidArgument("a table name is required")
	}
	return a.nodes(id, table)
}

func (a *ExplorerAPI) nodes(id, table string) ([]dto.ClusterNodeDTO, error) {
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
	return dto.FromNodes(nodes), nil
}
