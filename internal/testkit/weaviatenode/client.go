package weaviatenode

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

func newHTTPClient(caPEM []byte) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if caPEM != nil {
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(caPEM)
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	return &http.Client{Transport: tr, Timeout: 2 * time.Minute}
}

// HTTPClient returns a client that trusts the node's self-signed certificate (TLS variants).
// It adds no credentials: use Do for that, or set the header yourself.
func (n *Node) HTTPClient() *http.Client { return n.client }

// Do sends req with the node's client, adding "Authorization: Bearer <APIKey>" when the node
// has a key and the request carries no Authorization header yet.
func (n *Node) Do(req *http.Request) (*http.Response, error) {
	if n.APIKey != "" && req.Header.Get("Authorization") == "" {
		req.Header.Set("Authorization", "Bearer "+n.APIKey)
	}
	return n.client.Do(req)
}

// StatusError is returned by DoJSON for a non-2xx answer.
type StatusError struct {
	Method, Path string
	Code         int
	Body         string // at most 2 KB of the response body
}

// StatusCode returns the HTTP status, so callers can test it through a small interface.
func (e *StatusError) StatusCode() int { return e.Code }

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s %s answered HTTP %d: %s", e.Method, e.Path, e.Code, e.Body)
}

// DoJSON sends in (if not nil) as JSON to path (e.g. "/v1/schema") with the node's
// credentials and decodes a 2xx answer into out (if not nil). A non-2xx answer is a
// *StatusError.
func (n *Node) DoJSON(ctx context.Context, method, path string, in, out any) error {
	return n.DoJSONAs(ctx, "", method, path, in, out)
}

// DoJSONAs is DoJSON with key's credentials instead of the node's ("" for the node's): what a
// test reads back as another user sees it (an RBAC role's, a namespace's).
func (n *Node) DoJSONAs(ctx context.Context, key, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("encode %s %s body: %v", method, path, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, n.URL+path, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := n.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 2048))
		return &StatusError{Method: method, Path: path, Code: resp.StatusCode, Body: strings.TrimSpace(string(b))}
	}
	if out == nil {
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("decode %s %s answer: %v", method, path, err)
	}
	return nil
}

// GraphQL posts query to /v1/graphql and decodes its "data" member into out. GraphQL errors
// (which Weaviate sends with HTTP 200) become an error.
func (n *Node) GraphQL(ctx context.Context, query string, out any) error {
	var resp struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/graphql", map[string]string{"query": query}, &resp); err != nil {
		return err
	}
	if len(resp.Errors) > 0 {
		msgs := make([]string, len(resp.Errors))
		for i, e := range resp.Errors {
			msgs[i] = e.Message
		}
		return fmt.Errorf("graphql: %s", strings.Join(msgs, "; "))
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(resp.Data, out)
}

// Count returns the number of objects in class (of tenant, if not ""), through GraphQL
// Aggregate, because REST totalResults is only the page size.
func (n *Node) Count(ctx context.Context, class, tenant string) (int, error) {
	args := ""
	if tenant != "" {
		args = fmt.Sprintf("(tenant:%q)", tenant)
	}
	var data struct {
		Aggregate map[string][]struct {
			Meta struct {
				Count int `json:"count"`
			} `json:"meta"`
		} `json:"Aggregate"`
	}
	q := fmt.Sprintf("{ Aggregate { %s%s { meta { count } } } }", class, args)
	if err := n.GraphQL(ctx, q, &data); err != nil {
		return 0, err
	}
	rows := data.Aggregate[class]
	if len(rows) != 1 {
		return 0, fmt.Errorf("aggregate %s: expected one row, got %d", class, len(rows))
	}
	return rows[0].Meta.Count, nil
}

// ServerVersion is the release the node says it runs (GET /v1/meta, "1.39.0"): what a
// test that names the server's version holds the code under test to, whichever release the
// harness started.
func (n *Node) ServerVersion(ctx context.Context) (string, error) {
	var meta struct {
		Version string `json:"version"`
	}
	if err := n.DoJSON(ctx, http.MethodGet, "/v1/meta", nil, &meta); err != nil {
		return "", err
	}
	if meta.Version == "" {
		return "", fmt.Errorf("GET /v1/meta names no version")
	}
	return meta.Version, nil
}

// ServerAtLeast reports whether the node's release (its /v1/meta) is major.minor.patch or
// later: what a test that holds each release to what it can do branches on.
func (n *Node) ServerAtLeast(ctx context.Context, major, minor, patch int) (bool, error) {
	v, err := n.ServerVersion(ctx)
	if err != nil {
		return false, err
	}
	var got [3]int
	for i, p := range strings.SplitN(v, ".", 3) {
		p, _, _ = strings.Cut(p, "-")
		if got[i], err = strconv.Atoi(p); err != nil {
			return false, fmt.Errorf("the node's version %q: %w", v, err)
		}
	}
	return slices.Compare(got[:], []int{major, minor, patch}) >= 0, nil
}
