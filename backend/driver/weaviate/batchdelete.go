package weaviate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"app/backend/driver"
)

// A delete by filter (DELETE /v1/batch/objects) removes at most QUERY_MAXIMUM_RESULTS objects
// a request and answers 200 either way: on a collection with more matches the rest stay,
// silently (every release up to 1.39; 1.39.7 adds the limit to the gRPC reply). The person
// approved "delete what matches", so the driver sends the same request again until a round
// matches fewer than its limit, and says how many went in how many requests.

// maxDeleteRounds bounds the rounds of one delete by filter: at the default limit of 10,000
// a round, a million rounds is more objects than a node holds.
const maxDeleteRounds = 1_000_000

// maxDeleteObjects bounds the per-object results kept across rounds (output "verbose").
const maxDeleteObjects = MaxResults

// batchDeleteReply is the part of Weaviate's BatchDeleteResponse the rounds add up.
type batchDeleteReply struct {
	DryRun  bool `json:"dryRun"`
	Results struct {
		Matches    int64             `json:"matches"`
		Limit      int64             `json:"limit"`
		Successful int64             `json:"successful"`
		Failed     int64             `json:"failed"`
		Objects    []json.RawMessage `json:"objects"`
	} `json:"results"`
}

// isDeleteByFilter reports whether r is a delete by filter.
func isDeleteByFilter(r restLine) bool {
	return r.Method == http.MethodDelete && strings.TrimSuffix(r.Path, "/") == "/v1/batch/objects"
}

// execDeleteByFilter sends a delete by filter until every match is gone. The answer is the
// server's own shape with the rounds added up: successful is every object removed, failed and
// matches count the objects that failed in the last round (a failed object matches again in
// the next, so counting it each round would count it twice).
func (d *Driver) execDeleteByFilter(ctx context.Context, r restLine) (*driver.Result, error) {
	var (
		raw        map[string]json.RawMessage
		total      batchDeleteReply
		rounds     int
		objectsCut bool
	)
	for {
		rounds++
		reply, body, err := d.deleteRound(ctx, r)
		if err != nil {
			if rounds > 1 {
				return nil, fmt.Errorf("%w (after %d objects deleted in %d requests)", err, total.Results.Successful, rounds-1)
			}
			return nil, err
		}
		if rounds == 1 {
			if json.Unmarshal(body, &raw) != nil || raw == nil {
				// Not the shape this function adds up: show the server's answer as it is.
				return &driver.Result{Kind: driver.ResultJSON, Status: http.StatusOK, JSON: formatJSON(body, http.StatusOK)}, nil
			}
		}
		res := reply.Results
		total.DryRun = reply.DryRun
		total.Results.Matches = res.Matches
		total.Results.Limit = res.Limit
		total.Results.Successful += res.Successful
		total.Results.Failed = res.Failed
		for _, o := range res.Objects {
			if len(total.Results.Objects) >= maxDeleteObjects {
				objectsCut = true
				break
			}
			total.Results.Objects = append(total.Results.Objects, o)
		}
		more := !reply.DryRun && res.Limit > 0 && res.Matches >= res.Limit && res.Successful > 0
		if !more {
			break
		}
		if rounds >= maxDeleteRounds {
			return nil, driver.Errorf(driver.KindQueryFailed, "the delete by filter still matched objects after %d requests (%d deleted); stopped", rounds, total.Results.Successful)
		}
		if err := ctx.Err(); err != nil {
			return nil, driver.Errorf(driver.KindCancelled, "delete by filter cancelled after %d objects deleted in %d requests (%v)", total.Results.Successful, rounds, err)
		}
	}
	if !total.DryRun {
		total.Results.Matches = total.Results.Successful + total.Results.Failed
	}
	results, err := json.Marshal(total.Results)
	if err != nil {
		return nil, fmt.Errorf("delete by filter: %w", err)
	}
	raw["results"] = results
	raw["requests"] = json.RawMessage(fmt.Sprint(rounds))
	body, err := json.Marshal(raw)
	if err != nil {
		return nil, fmt.Errorf("delete by filter: %w", err)
	}
	out := &driver.Result{Kind: driver.ResultJSON, Status: http.StatusOK, JSON: formatJSON(body, http.StatusOK)}
	switch {
	case total.DryRun && total.Results.Limit > 0 && total.Results.Matches >= total.Results.Limit:
		out.Tag = fmt.Sprintf("DRY RUN %d", total.Results.Matches)
		out.Notice = fmt.Sprintf("dry run: at least %d objects match (the server counts at most %d a request); nothing deleted", total.Results.Matches, total.Results.Limit)
	case total.DryRun:
		out.Tag = fmt.Sprintf("DRY RUN %d", total.Results.Matches)
		out.Notice = fmt.Sprintf("dry run: %d objects match; nothing deleted", total.Results.Matches)
	default:
		out.Tag = fmt.Sprintf("DELETE %d", total.Results.Successful)
		out.Notice = fmt.Sprintf("deleted %d objects in %d request%s", total.Results.Successful, rounds, plural(rounds))
	}
	if total.Results.Failed > 0 {
		out.Notice += fmt.Sprintf("; %d failed", total.Results.Failed)
	}
	if objectsCut {
		out.Notice += fmt.Sprintf("; the first %d per-object results are listed", maxDeleteObjects)
	}
	return out, nil
}

// deleteRound sends the delete once and reads its answer.
func (d *Driver) deleteRound(ctx context.Context, r restLine) (batchDeleteReply, []byte, error) {
	var reply batchDeleteReply
	resp, err := d.sendRaw(ctx, r.Method, r.Path, r.Query, r.Body)
	if err != nil {
		return reply, nil, err
	}
	defer resp.Body.Close()
	body, err := readLimitedAll(resp.Body)
	d.invalidateSchema()
	if err != nil {
		return reply, nil, d.transportError(ctx, err)
	}
	if resp.StatusCode >= 300 {
		return reply, nil, d.statusError(resp.StatusCode, body, r.Method+" "+r.Target())
	}
	_ = json.Unmarshal(bytes.TrimSpace(body), &reply)
	return reply, body, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
