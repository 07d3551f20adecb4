// Command transferbench measures issue 21's export and import on a real weaviate-server, side
// by side with their bare peers, on the path users run (the driver in its plugin process):
//
//   - export: every object of TransferBench (100,000 x 768-dim vectors by default) to Parquet
//     with its vector (transfer.Export through the plugin), against a bare gRPC cursor walk of
//     the same objects and vectors (Weaviate's own stubs, nothing kept). Targets: at most 1.25x
//     the bare walk's time, and at least 10,000 objects a second.
//   - import: that Parquet file into a new collection (transfer.Import through the plugin),
//     against a bare batch writer sending the same objects from memory with POST
//     /v1/batch/objects, 200 a request. Target: at most 1.25x.
//
// The data directory is kept in $APP_CACHE_DIR/bench (-fresh loads it again), so the objects
// load once. Usage: go run ./bench/transfer [-n 100000] [-dims 768] [-fresh]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/sirupsen/logrus"
	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"app/backend/driver"
	"app/backend/plugins/host"
	"app/backend/transfer"
	"app/internal/testkit/proccpu"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

const class = "TransferBench"

func main() {
	n := flag.Int("n", 100000, "objects")
	dims := flag.Int("dims", 768, "vector dimensions")
	fresh := flag.Bool("fresh", false, "load the objects again")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of this process (the app's side)")
	exportOnly := flag.Bool("export-only", false, "measure the export and stop (no import)")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	if err := run(*n, *dims, *fresh, *exportOnly); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "transferbench:", err)
		os.Exit(1)
	}
}

func run(n, dims int, fresh, exportOnly bool) error {
	ctx := context.Background()
	cache := os.Getenv("APP_CACHE_DIR")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "app")
	}
	dataDir := filepath.Join(cache, "bench", fmt.Sprintf("transferbench-%s-%dx%d", weaviatenode.Version(), n, dims))
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
	if err := ensureLoaded(ctx, node, n, dims); err != nil {
		return err
	}

	// The driver as the app runs it: cmd/weaviate-driver in its own process.
	bin := filepath.Join(os.TempDir(), "transferbench-weaviate-driver")
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

	fmt.Printf("\nexport: %d objects x %d dims, Parquet with vectors, through the driver plugin vs a bare gRPC cursor walk\n", n, dims)
	dir, err := os.MkdirTemp("", "transferbench-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "bench.parquet")
	var tBare, tScan, tApp time.Duration
	var pBare, pScan, pApp time.Duration // the sums before this round
	cBare, cScan, cApp := proccpu.Spent{}, proccpu.Spent{}, proccpu.Spent{}
	const rounds = 3
	for round := 0; round < rounds; round++ { // interleaved, so machine load hits all alike
		t0, c0 := time.Now(), proccpu.Times()
		got, err := bareWalk(ctx, node)
		if err != nil {
			return err
		}
		if got != n {
			return fmt.Errorf("the bare walk read %d objects", got)
		}
		tBare += time.Since(t0)
		cBare.Add(c0, proccpu.Times())
		t0, c0 = time.Now(), proccpu.Times()
		if got, err = pluginWalk(ctx, drv); err != nil || got != n {
			return fmt.Errorf("the walk through the plugin read %d objects: %v", got, err)
		}
		tScan += time.Since(t0)
		cScan.Add(c0, proccpu.Times())
		t0, c0 = time.Now(), proccpu.Times()
		sum, err := transfer.Export(ctx, drv, transfer.ExportRequest{Table: class, Vectors: true, Path: file}, nil)
		if err != nil {
			return err
		}
		if sum.Rows != int64(n) {
			return fmt.Errorf("the export wrote %d rows", sum.Rows)
		}
		tApp += time.Since(t0)
		cApp.Add(c0, proccpu.Times())
		fmt.Printf("  round %d: bare walk %.2f s, plugin walk %.2f s, export %.2f s\n", round+1, (tBare - pBare).Seconds(), (tScan - pScan).Seconds(), (tApp - pApp).Seconds())
		pBare, pScan, pApp = tBare, tScan, tApp
	}
	st, _ := os.Stat(file)
	rate := float64(rounds*n) / tApp.Seconds()
	ratio := tApp.Seconds() / tBare.Seconds()
	fmt.Printf("  bare walk %6.2f s   export %6.2f s   export / bare %.2fx (target <= 1.25)   %.0f objects/s (target >= 10,000)   file %.1f MB\n",
		tBare.Seconds()/rounds, tApp.Seconds()/rounds, ratio, rate, float64(st.Size())/1e6)
	fmt.Printf("  (the same walk through the plugin, no file: %.2f s, %.2fx the bare walk)\n", tScan.Seconds()/rounds, tScan.Seconds()/tBare.Seconds())
	fmt.Printf("  CPU a round: bare walk: %s\n               plugin walk: %s\n               export: %s\n", cBare.String(rounds), cScan.String(rounds), cApp.String(rounds))

	if exportOnly {
		return nil
	}
	fmt.Printf("\nimport: that file into a new collection through the driver plugin vs a bare batch writer (POST /v1/batch/objects, 200 a request, from memory)\n")
	objs := objects(n, dims, "")
	var iBare, iApp time.Duration
	for round := 0; round < 1; round++ {
		if err := createClass(ctx, node, class+"Bare"); err != nil {
			return err
		}
		t0 := time.Now()
		if err := bareWrite(ctx, node, class+"Bare", objs); err != nil {
			return err
		}
		iBare += time.Since(t0)
		_ = node.DoJSON(ctx, http.MethodDelete, "/v1/schema/"+class+"Bare", nil, nil)

		if err := createClass(ctx, node, class+"App"); err != nil {
			return err
		}
		t0 = time.Now()
		sum, err := transfer.Import(ctx, drv, transfer.ImportRequest{Table: class + "App", Path: file}, nil)
		if err != nil {
			return err
		}
		if sum.Written != int64(n) {
			return fmt.Errorf("the import wrote %d rows: %+v", sum.Written, sum)
		}
		iApp += time.Since(t0)
		_ = node.DoJSON(ctx, http.MethodDelete, "/v1/schema/"+class+"App", nil, nil)
	}
	fmt.Printf("  bare writer %6.2f s   import %6.2f s   import / bare %.2fx (target <= 1.25)   %.0f objects/s\n",
		iBare.Seconds(), iApp.Seconds(), iApp.Seconds()/iBare.Seconds(), float64(n)/iApp.Seconds())
	return nil
}

// createClass makes a collection shaped as TransferBench: a title, a number, a flat vector
// index (an HNSW graph of 100,000 vectors would measure the server's indexing, not the app).
func createClass(ctx context.Context, node *weaviatenode.Node, name string) error {
	return node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": name, "vectorizer": "none", "vectorIndexType": "flat",
		"properties": []any{map[string]any{"name": "title", "dataType": []string{"text"}}, map[string]any{"name": "n", "dataType": []string{"int"}}}}, nil)
}

// objects are TransferBench's objects (seeded: the same on every run).
func objects(n, dims int, into string) []map[string]any {
	if into == "" {
		into = class
	}
	r := rand.New(rand.NewPCG(21, 768))
	out := make([]map[string]any, n)
	for i := range out {
		v := make([]float32, dims)
		for j := range v {
			v[j] = r.Float32()*2 - 1
		}
		out[i] = map[string]any{"class": into, "id": fmt.Sprintf("00000021-0000-4000-8000-%012d", i),
			"properties": map[string]any{"title": "object " + strconv.Itoa(i), "n": i}, "vector": v}
	}
	return out
}

func ensureLoaded(ctx context.Context, node *weaviatenode.Node, n, dims int) error {
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
	fmt.Printf("loading %d objects x %d dims into %s (kept for later runs)\n", n, dims, class)
	_ = node.DoJSON(ctx, http.MethodDelete, "/v1/schema/"+class, nil, nil)
	if err := createClass(ctx, node, class); err != nil {
		return err
	}
	return bareWrite(ctx, node, class, objects(n, dims, class))
}

// bareWrite is the bare batch writer: the objects, 200 a request, JSON encoded and posted.
func bareWrite(ctx context.Context, node *weaviatenode.Node, into string, objs []map[string]any) error {
	client := &http.Client{}
	for start := 0; start < len(objs); start += 200 {
		batch := objs[start:min(start+200, len(objs))]
		for _, o := range batch {
			o["class"] = into
		}
		body, err := json.Marshal(map[string]any{"objects": batch})
		if err != nil {
			return err
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, node.URL+"/v1/batch/objects", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		var res []struct {
			Result struct {
				Errors any `json:"errors"`
			} `json:"result"`
		}
		err = json.NewDecoder(resp.Body).Decode(&res)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			return fmt.Errorf("batch: %d %v", resp.StatusCode, err)
		}
		for _, r := range res {
			if r.Result.Errors != nil {
				return fmt.Errorf("batch: %v", r.Result.Errors)
			}
		}
	}
	return nil
}

// pluginWalk is the export's read alone: every object and its vector through the driver
// plugin's Scan, nothing written. Export minus this is what the file costs.
func pluginWalk(ctx context.Context, drv driver.Driver) (int, error) {
	sc, ok := drv.(driver.Scanner)
	if !ok {
		return 0, fmt.Errorf("the driver cannot scan")
	}
	after, total := "", 0
	for {
		p, err := sc.Scan(ctx, class, driver.ScanRequest{After: after, Vectors: true})
		if err != nil {
			return total, err
		}
		total += len(p.Rows)
		if p.Next == "" {
			return total, nil
		}
		after = p.Next
	}
}

// bareWalk reads every object with its properties and vector over gRPC, 1,000 a request with
// the cursor, keeping nothing: the floor of any export.
func bareWalk(ctx context.Context, node *weaviatenode.Node) (int, error) {
	conn, err := grpc.NewClient(net.JoinHostPort(node.Host, strconv.Itoa(node.GRPCPort)), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(256<<20)))
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	client := pb.NewWeaviateClient(conn)
	after, total := "", 0
	for {
		reply, err := client.Search(ctx, &pb.SearchRequest{Collection: class, Limit: 1000, After: after, Uses_127Api: true,
			Metadata:   &pb.MetadataRequest{Uuid: true, Vector: true},
			Properties: &pb.PropertiesRequest{NonRefProperties: []string{"title", "n"}}})
		if err != nil {
			return total, err
		}
		res := reply.GetResults()
		total += len(res)
		if len(res) < 1000 {
			return total, nil
		}
		after = res[len(res)-1].GetMetadata().GetId()
	}
}
