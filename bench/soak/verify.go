package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"strconv"
	"strings"

	"app/internal/testkit/weaviatenode"
)

// serverMarkers reads every object of the table back through Weaviate's REST API (in
// pages, by the after cursor) and counts each body that is one of this run's markers.
func serverMarkers(ctx context.Context, node *weaviatenode.Node, runID string) (map[string]int, error) {
	found := map[string]int{}
	after := ""
	for {
		q := url.Values{"class": {table}, "limit": {"1000"}}
		if after != "" {
			q.Set("after", after)
		}
		var page struct {
			Objects []struct {
				ID         string `json:"id"`
				Properties struct {
					Body string `json:"body"`
				} `json:"properties"`
			} `json:"objects"`
		}
		if err := node.DoJSON(ctx, http.MethodGet, "/v1/objects?"+q.Encode(), nil, &page); err != nil {
			return nil, fmt.Errorf("read back %s: %w", table, err)
		}
		if len(page.Objects) == 0 {
			return found, nil
		}
		for _, o := range page.Objects {
			if strings.HasPrefix(o.Properties.Body, "soak-"+runID+"-") {
				found[o.Properties.Body]++
			}
		}
		after = page.Objects[len(page.Objects)-1].ID
	}
}

// writes is what the read-back found of the markers the clients kept.
type writes struct {
	approved, approvedLost, duplicated  int
	declined, declinedFound             int
	uncertain, uncertainFound           int
	lostExamples, declinedFoundExamples []string
	onServer, unknownOnServer           int
}

func checkWrites(t *tally, found map[string]int) writes {
	var w writes
	known := map[string]bool{}
	for _, m := range t.approved {
		known[m] = true
		w.approved++
		switch n := found[m]; {
		case n == 0:
			w.approvedLost++
			if len(w.lostExamples) < 5 {
				w.lostExamples = append(w.lostExamples, m)
			}
		case n > 1:
			w.duplicated++
		}
	}
	for _, m := range t.declined {
		known[m] = true
		w.declined++
		if found[m] > 0 {
			w.declinedFound++
			if len(w.declinedFoundExamples) < 5 {
				w.declinedFoundExamples = append(w.declinedFoundExamples, m)
			}
		}
	}
	for _, m := range t.uncertain {
		known[m] = true
		w.uncertain++
		switch n := found[m]; {
		case n == 1:
			w.uncertainFound++
		case n > 1:
			w.uncertainFound++
			w.duplicated++
		}
	}
	for m, n := range found {
		w.onServer += n
		if !known[m] {
			w.unknownOnServer += n
		}
	}
	return w
}

// verification is `app activity verify --json`.
type verification struct {
	Intact  bool `json:"intact"`
	Entries int  `json:"entries"`
	Broken  *struct {
		ID     int64  `json:"id"`
		Reason string `json:"reason"`
	} `json:"broken"`
}

// verifyActivity runs `app activity verify --json`. A broken chain exits 1 and still prints
// what it found, which is returned with the error.
func verifyActivity(ctx context.Context, a appCLI) (verification, error) {
	out, err := a.run(ctx, nil, "--json", "activity", "verify")
	var v verification
	if jerr := json.Unmarshal(out, &v); jerr != nil {
		if err == nil {
			err = fmt.Errorf("activity verify --json printed %q: %v", out, jerr)
		}
		return v, err
	}
	return v, err
}

// matchActivity reads the whole activity log (`app activity list --json --limit 0`, decoded
// as it streams) and matches its entries to the requests sent by their traceparent: it
// returns the requests with no entry, by operation, and the number of entries of this run
// for no request sent. Notifications carry no traceparent into the log (they are answered
// before _meta is read), so they are matched by count.
func matchActivity(ctx context.Context, a appCLI, traceID string, sent []sentRequest) (map[string]int, int, error) {
	cmd := exec.CommandContext(ctx, a.bin, "--config-dir", a.configDir, "--json", "activity", "list", "--limit", "0")
	cmd.Env = a.env
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, 0, err
	}
	if err := cmd.Start(); err != nil {
		return nil, 0, fmt.Errorf("app activity list: %w", err)
	}
	logged, notifications, err := loggedSpans(out, traceID)
	if werr := cmd.Wait(); err == nil && werr != nil {
		err = fmt.Errorf("app activity list: %w", werr)
	}
	if err != nil {
		return nil, 0, err
	}
	missing := map[string]int{}
	for _, r := range sent {
		switch {
		case r.notification && notifications > 0:
			notifications--
		case r.notification:
			missing[r.op+": notifications/cancelled"]++
		case logged[r.id] > 0:
			logged[r.id]--
		default:
			missing[r.op]++
		}
	}
	extra := notifications
	for _, n := range logged {
		extra += n
	}
	return missing, extra, nil
}

// loggedSpans decodes the entries one at a time and counts them by the span id of their
// traceparent (this run's trace only), and the notifications/cancelled entries.
func loggedSpans(r io.Reader, traceID string) (map[int64]int, int, error) {
	dec := json.NewDecoder(r)
	if _, err := dec.Token(); err != nil { // [
		return nil, 0, fmt.Errorf("activity list --json: %w", err)
	}
	spans, notifications := map[int64]int{}, 0
	prefix := "00-" + traceID + "-"
	for dec.More() {
		var e struct {
			Method string `json:"method"`
			Trace  string `json:"trace"`
		}
		if err := dec.Decode(&e); err != nil {
			return nil, 0, fmt.Errorf("activity list --json: %w", err)
		}
		if e.Method == "notifications/cancelled" {
			notifications++
			continue
		}
		if span, ok := strings.CutPrefix(e.Trace, prefix); ok && len(span) >= 16 {
			if id, err := strconv.ParseInt(span[:16], 16, 64); err == nil {
				spans[id]++
			}
		}
	}
	return spans, notifications, nil
}
