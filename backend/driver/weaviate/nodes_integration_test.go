package weaviate_test

import (
	"context"
	"net/http"
	"reflect"
	"sort"
	"testing"

	"app/backend/driver"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
)

// rawNodes reads /v1/nodes?output=verbose from the server itself and sums each collection's
// shards the way the driver says it does; for one collection's path it lists the shards too.
func rawNodes(t *testing.T, n *weaviatenode.Node, path string) []driver.Node {
	t.Helper()
	var doc struct {
		Nodes []struct {
			Name, Version string
			Status        string
			Shards        []struct {
				Name                 string
				Class                string
				ObjectCount          int64
				Loaded               bool
				VectorIndexingStatus string
			}
		}
	}
	if err := n.DoJSON(context.Background(), http.MethodGet, path+"?output=verbose", nil, &doc); err != nil {
		t.Fatal(err)
	}
	var out []driver.Node
	for _, rn := range doc.Nodes {
		node := driver.Node{Name: rn.Name, Status: rn.Status, Version: rn.Version}
		by := map[string]*driver.NodeTables{}
		for _, s := range rn.Shards {
			if by[s.Class] == nil {
				by[s.Class] = &driver.NodeTables{Table: s.Class}
			}
			if path != "/v1/nodes" {
				by[s.Class].ShardList = append(by[s.Class].ShardList, driver.NodeShard{Name: s.Name, Objects: s.ObjectCount, Loaded: s.Loaded, VectorIndexing: s.VectorIndexingStatus})
			}
			by[s.Class].Shards++
			by[s.Class].Objects += s.ObjectCount
			if s.Loaded {
				by[s.Class].Loaded++
			}
			node.Shards++
			node.Objects += s.ObjectCount
		}
		for _, tb := range by {
			sort.Slice(tb.ShardList, func(i, j int) bool { return tb.ShardList[i].Name < tb.ShardList[j].Name })
			node.Tables = append(node.Tables, *tb)
		}
		sort.Slice(node.Tables, func(i, j int) bool { return node.Tables[i].Table < node.Tables[j].Table })
		out = append(out, node)
	}
	return out
}

// Issue 23, item 6: the cluster's nodes with their version, status and object counts, and
// what each collection keeps on each node, as /v1/nodes reports them. Weaviate's counts there
// are its "async" ones (the objects on disk, not yet those in memory), so the driver's answer
// is held to the server's own, read just before and after it (again when a flush moved them);
// on a server that serves GraphQL and one that does not.
func TestNodesReportTheClusterAsTheServerDoes(t *testing.T) {
	for _, v := range readPaths {
		t.Run(v.String(), func(t *testing.T) { nodesAsTheServer(t, v) })
	}
}

func nodesAsTheServer(t *testing.T, v weaviatenode.Variant) {
	n := sharedNode(t, v)
	d := open(t, n, nil)
	ctx := ctxT(t)
	same := func(t *testing.T, table, path string) []driver.Node {
		t.Helper()
		for try := 0; ; try++ {
			before := rawNodes(t, n, path)
			got, err := d.Nodes(ctx, table)
			if err != nil {
				t.Fatal(err)
			}
			after := rawNodes(t, n, path)
			if reflect.DeepEqual(before, after) {
				if !reflect.DeepEqual(got, before) {
					t.Fatalf("driver %+v\nserver %+v", got, before)
				}
				return got
			}
			if try == 10 {
				t.Fatal("the server's counts kept moving")
			}
		}
	}
	nodes := same(t, "", "/v1/nodes")
	t.Run("one node on a single-node server, healthy, at the server's version", func(t *testing.T) {
		if len(nodes) != 1 || nodes[0].Name == "" || nodes[0].Status != "HEALTHY" || nodes[0].Version != d.ServerVersion() {
			t.Fatalf("nodes %+v, server %s", nodes, d.ServerVersion())
		}
	})
	t.Run("each collection's shards on the node: one, and a multi-tenant one a tenant", func(t *testing.T) {
		by := map[string]driver.NodeTables{}
		for _, tb := range nodes[0].Tables {
			by[tb.Table] = tb
		}
		if big := by[fixtures.Big]; big.Shards != 1 || big.Loaded != 1 {
			t.Fatalf("Big on the node: %+v", big)
		}
		if ten := by[fixtures.Tenanted]; ten.Shards != 2 {
			t.Fatalf("Tenanted on the node: %+v", ten)
		}
	})
	t.Run("one collection's part alone", func(t *testing.T) {
		one := same(t, fixtures.Big, "/v1/nodes/"+fixtures.Big)
		if len(one) != 1 || len(one[0].Tables) != 1 || one[0].Tables[0].Table != fixtures.Big {
			t.Fatalf("%+v", one)
		}
	})
	t.Run("issue 23, item 2: one collection's shards each, a tenant's named after it, with its objects", func(t *testing.T) {
		one := same(t, fixtures.Tenanted, "/v1/nodes/"+fixtures.Tenanted)
		list := one[0].Tables[0].ShardList
		if len(list) != 2 || list[0].Name != "tenantA" || list[1].Name != "tenantB" || list[0].VectorIndexing == "" {
			t.Fatalf("%+v", list)
		}
	})
}
