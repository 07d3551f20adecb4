// Command mapread measures issue 42's target 2 on a real weaviate-server: the Map tab's read
// of N objects x 768-dim vectors (vectormap.Read through the driver plugin in its own process,
// as the app runs it, then explore.Points, what OpenMap does before it answers) against a bare
// gRPC read of the same objects with Weaviate's own stubs (the cursor, 1,000 a request, the
// same properties and the same one vector, nothing kept), side by side and interleaved, so the
// machine's load hits both alike. Target: at most 1.3x. It also prints the bare read keeping
// the vectors in one matrix, as a map must (what the map's read cannot go below).
//
// The collection, MapRead, has two named vectors of 768 numbers (a, b) and the map reads a,
// so it also prints the walk as it was before the map asked for its vector alone (every vector
// asked, one kept), and the bytes a row takes across the plugin boundary either way.
//
// The data directory is kept in $APP_CACHE_DIR/bench (-fresh loads it again), so the objects
// load once (over gRPC's batch API). Usage: go run ./bench/mapread [-n 100000] [-rounds 3]
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sirupsen/logrus"
	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/structpb"

	"app/backend/driver"
	"app/backend/explore"
	"app/backend/plugins/grpcdriver"
	"app/backend/plugins/host"
	"app/backend/vectormap"
	"app/internal/testkit/proccpu"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

const (
	class = "MapRead"
	dims  = 768
)

var vectorNames = []string{"a", "b"}

func main() {
	n := flag.Int("n", 100000, "objects")
	rounds := flag.Int("rounds", 3, "interleaved rounds")
	fresh := flag.Bool("fresh", false, "load the objects again")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of this process (the app's side)")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	if err := run(*n, *rounds, *fresh); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "mapread:", err)
		os.Exit(1)
	}
}

func run(n, rounds int, fresh bool) error {
	ctx := context.Background()
	cache := os.Getenv("APP_CACHE_DIR")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "app")
	}
	dataDir := filepath.Join(cache, "bench", fmt.Sprintf("mapread-%s-%dx%d", weaviatenode.Version(), n, dims))
	if fresh {
		_ = os.RemoveAll(dataDir)
	}
	opts := weaviatetest.Options(weaviatenode.Anonymous)
	opts.DataDir = dataDir
	opts.ReadyTimeout = 3 * time.Minute
	sctx, cancel := context.WithTimeout(ctx, 4*time.Minute)
	node, err := weaviatenode.Start(sctx, opts)
	cancel()
	if err != nil {
		return err
	}
	defer node.Stop()
	conn, err := grpc.NewClient(net.JoinHostPort(node.Host, strconv.Itoa(node.GRPCPort)), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(256<<20), grpc.MaxCallSendMsgSize(256<<20)))
	if err != nil {
		return err
	}
	defer conn.Close()
	client := pb.NewWeaviateClient(conn)
	if err := ensureLoaded(ctx, node, client, n); err != nil {
		return err
	}

	// The driver as the app runs it: cmd/weaviate-driver in its own process.
	bin := filepath.Join(os.TempDir(), "mapread-weaviate-driver")
	if out, err := exec.Command("go", "build", "-o", bin, "app/cmd/weaviate-driver").CombinedOutput(); err != nil {
		return fmt.Errorf("go build cmd/weaviate-driver: %v\n%s", err, out)
	}
	log := logrus.New()
	log.SetLevel(logrus.WarnLevel)
	plugins := host.New(host.Options{Log: log, IdleTimeout: -1, Resolve: func(name string) (host.Binary, error) {
		return host.Binary{Name: name, Version: "bench", Path: bin, Dir: filepath.Dir(bin)}, nil
	}})
	defer plugins.Close()
	s := driver.DefaultSettings()
	s.Host, s.Port, s.GRPCPort = node.Host, node.Port, node.GRPCPort
	drv, err := plugins.Open(ctx, "weaviate", s, "bench")
	if err != nil {
		return err
	}
	defer drv.Close()
	if err := drv.Connect(ctx); err != nil {
		return err
	}
	sc, ok := drv.(driver.Scanner)
	if !ok {
		return fmt.Errorf("the driver cannot scan")
	}

	out, _ := exec.Command("uptime").Output()
	fmt.Printf("\nthe map's read: %d objects x 2 named vectors of %d dims (vector a mapped), through the driver plugin vs a bare gRPC read; %s", n, dims, out)
	var tBare, tKeep, tMap, tCount, tOld time.Duration
	cBare, cKeep, cMap, cCount, cOld := proccpu.Spent{}, proccpu.Spent{}, proccpu.Spent{}, proccpu.Spent{}, proccpu.Spent{}
	for round := 0; round < rounds; round++ { // interleaved, so machine load hits all alike
		runtime.GC()
		t0, c0 := time.Now(), proccpu.Times()
		got, err := bareRead(ctx, client, false)
		if err != nil || got != n {
			return fmt.Errorf("the bare read read %d objects: %v", got, err)
		}
		dBare := time.Since(t0)
		cBare.Add(c0, proccpu.Times())

		runtime.GC()
		t0, c0 = time.Now(), proccpu.Times()
		if got, err = bareRead(ctx, client, true); err != nil || got != n {
			return fmt.Errorf("the bare read (kept) read %d objects: %v", got, err)
		}
		dKeep := time.Since(t0)
		cKeep.Add(c0, proccpu.Times())

		runtime.GC()
		t0, c0 = time.Now(), proccpu.Times()
		pts, err := vectormap.Read(ctx, sc, vectormap.ReadRequest{Table: class, Vector: "a"}, nil)
		if err != nil {
			return err
		}
		mp := explore.Points(pts)
		dMap := time.Since(t0)
		cMap.Add(c0, proccpu.Times())
		if pts.Vectors.N != n || pts.Vectors.Dim != dims || len(mp.Keys) != n {
			return fmt.Errorf("the map read %d x %d", pts.Vectors.N, pts.Vectors.Dim)
		}
		pts, mp = nil, explore.MapPoints{}

		// The same with the count the app takes before it (ReadRequest.Rows).
		runtime.GC()
		t0, c0 = time.Now(), proccpu.Times()
		pts, err = vectormap.Read(ctx, sc, vectormap.ReadRequest{Table: class, Vector: "a", Rows: n}, nil)
		if err != nil {
			return err
		}
		mp = explore.Points(pts)
		dCount := time.Since(t0)
		cCount.Add(c0, proccpu.Times())
		if pts.Vectors.N != n || len(mp.Keys) != n {
			return fmt.Errorf("the map given the count read %d", pts.Vectors.N)
		}
		pts, mp = nil, explore.MapPoints{}

		runtime.GC()
		t0, c0 = time.Now(), proccpu.Times()
		if got, err = walkAsBefore(ctx, sc); err != nil || got != n {
			return fmt.Errorf("the walk as before read %d objects: %v", got, err)
		}
		dOld := time.Since(t0)
		cOld.Add(c0, proccpu.Times())
		fmt.Printf("  round %d: bare %.2f s   bare keeping the vectors %.2f s   map's read %.2f s (%.2fx)   given the count %.2f s (%.2fx)   as before (every vector asked) %.2f s (%.2fx)\n", round+1,
			dBare.Seconds(), dKeep.Seconds(), dMap.Seconds(), dMap.Seconds()/dBare.Seconds(), dCount.Seconds(), dCount.Seconds()/dBare.Seconds(), dOld.Seconds(), dOld.Seconds()/dBare.Seconds())
		tBare, tKeep, tMap, tCount, tOld = tBare+dBare, tKeep+dKeep, tMap+dMap, tCount+dCount, tOld+dOld
	}
	r := float64(rounds)
	verdict := "met"
	if tMap.Seconds()/tBare.Seconds() > 1.3 {
		verdict = "MISSED"
	}
	fmt.Printf("  bare read %.2f s (%.0f rows/s)   map's read %.2f s (%.0f rows/s)   map / bare %.2fx (target <= 1.3x: %s)\n",
		tBare.Seconds()/r, float64(n)*r/tBare.Seconds(), tMap.Seconds()/r, float64(n)*r/tMap.Seconds(), tMap.Seconds()/tBare.Seconds(), verdict)
	fmt.Printf("  the bare read keeping vector a in one matrix (the floor of any map): %.2f s; the map's read is %.2fx it\n", tKeep.Seconds()/r, tMap.Seconds()/tKeep.Seconds())
	fmt.Printf("  the map's read given the count (ReadRequest.Rows): %.2f s, %.2fx the bare read\n", tCount.Seconds()/r, tCount.Seconds()/tBare.Seconds())
	fmt.Printf("  the walk as before (every vector asked, one kept): %.2f s, %.2fx the bare read\n", tOld.Seconds()/r, tOld.Seconds()/tBare.Seconds())
	fmt.Printf("  CPU a round: bare read: %s\n               bare, kept: %s\n               map's read: %s\n               given the count: %s\n               as before: %s\n", cBare.String(rounds), cKeep.String(rounds), cMap.String(rounds), cCount.String(rounds), cOld.String(rounds))

	// The bytes a row takes across the plugin boundary, one page of 1,000 each way.
	for _, c := range []struct {
		what  string
		names []string
	}{{"vector a alone", []string{"a"}}, {"every vector (as before)", nil}} {
		p, err := sc.Scan(ctx, class, driver.ScanRequest{Vectors: true, VectorNames: c.names})
		if err != nil {
			return err
		}
		size, err := grpcdriver.ScanPageWireSize(p)
		if err != nil {
			return err
		}
		fmt.Printf("  across the plugin boundary, %s: %.0f bytes a row (%s)\n", c.what, float64(size)/float64(len(p.Rows)), strings.Join(p.VectorNames, ", "))
	}
	return nil
}

// bareRead reads every object with its properties and vector a over gRPC, 1,000 a request with
// the cursor, keeping nothing: the floor of the map's read (the peer issue 42 names). With
// keep, it keeps every vector a in one matrix as vectormap.Read does, the floor of any map.
func bareRead(ctx context.Context, client pb.WeaviateClient, keep bool) (int, error) {
	after, total := "", 0
	var kept [][]float32
	for {
		reply, err := client.Search(ctx, &pb.SearchRequest{Collection: class, Limit: 1000, After: after, Uses_127Api: true,
			Metadata:   &pb.MetadataRequest{Uuid: true, Vectors: []string{"a"}},
			Properties: &pb.PropertiesRequest{NonRefProperties: []string{"n", "title", "cluster"}}})
		if err != nil {
			return total, err
		}
		res := reply.GetResults()
		total += len(res)
		if keep {
			for _, r := range res {
				for _, v := range r.GetMetadata().GetVectors() {
					if v.GetName() == "a" {
						kept = append(kept, driver.PackedFloats(v.GetVectorBytes()))
					}
				}
			}
		}
		if len(res) < 1000 {
			break
		}
		after = res[len(res)-1].GetMetadata().GetId()
	}
	if keep {
		data := slices.Grow([]float32(nil), len(kept)*dims)
		for _, v := range kept {
			data = append(data, v...)
		}
		if len(data) != total*dims {
			return total, fmt.Errorf("the bare read kept %d numbers for %d objects", len(data), total)
		}
	}
	return total, nil
}

// walkAsBefore is the map's walk as it was before ScanRequest.VectorNames: every vector of a
// row asked for, the chosen one kept (copied into one matrix, as vectormap.Read does).
func walkAsBefore(ctx context.Context, sc driver.Scanner) (int, error) {
	var kept [][]float32
	after := ""
	for {
		p, err := sc.Scan(ctx, class, driver.ScanRequest{After: after, Vectors: true})
		if err != nil {
			return len(kept), err
		}
		k := -1
		for i, name := range p.VectorNames {
			if name == "a" {
				k = i
			}
		}
		if k < 0 {
			return len(kept), fmt.Errorf("the page has no vector a: %v", p.VectorNames)
		}
		for _, vs := range p.Vectors {
			kept = append(kept, vs[k])
		}
		if p.Next == "" {
			break
		}
		after = p.Next
	}
	m := vectormap.NewMatrix(len(kept), dims)
	for i, v := range kept {
		copy(m.Row(i), v)
	}
	return m.N, nil
}

// createClass makes MapRead: n, a title, a cluster, and two named vectors with flat indexes
// (an HNSW graph would measure the server's indexing, and the map does not search).
func createClass(ctx context.Context, node *weaviatenode.Node) error {
	config := map[string]any{}
	for _, v := range vectorNames {
		config[v] = map[string]any{"vectorizer": map[string]any{"none": map[string]any{}}, "vectorIndexType": "flat"}
	}
	return node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": class, "vectorConfig": config,
		"properties": []any{map[string]any{"name": "n", "dataType": []string{"int"}}, map[string]any{"name": "title", "dataType": []string{"text"}},
			map[string]any{"name": "cluster", "dataType": []string{"text"}}}}, nil)
}

func ensureLoaded(ctx context.Context, node *weaviatenode.Node, client pb.WeaviateClient, n int) error {
	var agg struct {
		Aggregate map[string][]struct {
			Meta struct {
				Count int `json:"count"`
			} `json:"meta"`
		} `json:"Aggregate"`
	}
	if err := node.GraphQL(ctx, `{ Aggregate { `+class+` { meta { count } } } }`, &agg); err == nil && len(agg.Aggregate[class]) == 1 && agg.Aggregate[class][0].Meta.Count == n {
		return nil
	}
	start := time.Now()
	fmt.Printf("loading %d objects x 2 vectors of %d dims into %s over gRPC (kept for later runs)\n", n, dims, class)
	_ = node.DoJSON(ctx, http.MethodDelete, "/v1/schema/"+class, nil, nil)
	if err := createClass(ctx, node); err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(42, 768))
	const batch = 500
	for at := 0; at < n; at += batch {
		objs := make([]*pb.BatchObject, 0, batch)
		for i := at; i < min(at+batch, n); i++ {
			props, err := structpb.NewStruct(map[string]any{"n": i, "title": "object " + strconv.Itoa(i), "cluster": "cluster " + strconv.Itoa(i%16)})
			if err != nil {
				return err
			}
			o := &pb.BatchObject{Uuid: fmt.Sprintf("00000042-0000-4000-8000-%012d", i), Collection: class,
				Properties: &pb.BatchObject_Properties{NonRefProperties: props}}
			for _, name := range vectorNames {
				v := make([]float32, dims)
				for j := range v {
					v[j] = r.Float32()*2 - 1
				}
				o.Vectors = append(o.Vectors, &pb.Vectors{Name: name, VectorBytes: driver.PackFloats(v)})
			}
			objs = append(objs, o)
		}
		reply, err := client.BatchObjects(ctx, &pb.BatchObjectsRequest{Objects: objs})
		if err != nil {
			return err
		}
		if errs := reply.GetErrors(); len(errs) > 0 {
			return fmt.Errorf("batch at %d: %s", at, errs[0].GetError())
		}
	}
	fmt.Printf("  loaded in %.0f s\n", time.Since(start).Seconds())
	return nil
}
