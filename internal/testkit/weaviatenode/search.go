package weaviatenode

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"strconv"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
)

// The node's own answers to a search, asked without the app's driver: what tests hold the
// app's matches to. GetIDs asks in GraphQL (the node must serve it), SearchIDs over gRPC (any
// node, also one with GraphQL off).

// GetIDs runs a GraphQL Get of one collection that selects `_additional { id }` and returns
// the ids in the node's order.
func (n *Node) GetIDs(ctx context.Context, query string) ([]string, error) {
	var data struct {
		Get map[string][]struct {
			Additional struct {
				ID string `json:"id"`
			} `json:"_additional"`
		} `json:"Get"`
	}
	if err := n.GraphQL(ctx, query, &data); err != nil {
		return nil, err
	}
	if len(data.Get) != 1 {
		return nil, fmt.Errorf("the Get answers %d collections, want one: %s", len(data.Get), query)
	}
	var ids []string
	for _, rows := range data.Get {
		for _, r := range rows {
			ids = append(ids, r.Additional.ID)
		}
	}
	return ids, nil
}

// SearchIDs sends req to the node's gRPC Search (with its API key and its certificate where
// it has them), asking for the uuids only, and returns them in the node's order.
func (n *Node) SearchIDs(ctx context.Context, req *pb.SearchRequest) ([]string, error) {
	creds := insecure.NewCredentials()
	if n.CACertPEM != nil {
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(n.CACertPEM)
		creds = credentials.NewTLS(&tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12})
	}
	conn, err := grpc.NewClient(net.JoinHostPort(n.Host, strconv.Itoa(n.GRPCPort)), grpc.WithTransportCredentials(creds))
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if n.APIKey != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+n.APIKey)
	}
	req.Metadata = &pb.MetadataRequest{Uuid: true}
	req.Uses_127Api = true
	reply, err := pb.NewWeaviateClient(conn).Search(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("gRPC Search of %s: %w", req.GetCollection(), err)
	}
	ids := make([]string, 0, len(reply.GetResults()))
	for _, r := range reply.GetResults() {
		ids = append(ids, r.GetMetadata().GetId())
	}
	return ids, nil
}
