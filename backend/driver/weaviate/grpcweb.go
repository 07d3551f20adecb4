package weaviate

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"

	"app/backend/driver"
)

// gRPC-Web on the REST port (issue 40, item 7). From 1.38.3 a node also serves its gRPC API
// as gRPC-Web under /v1/grpc-web/ on the REST port, for networks that publish only that port
// (a proxy, a docker-compose file without 50051). Where the gRPC port does not answer and
// the server is new enough, the driver's reads go that way: the same messages, framed as the
// gRPC-Web protocol says (a flag byte and a length before each message, the status in a last
// frame of trailers), over the REST connection with its TLS and key.

// grpcWebPath is where the node mounts gRPC-Web.
const grpcWebPath = "/v1/grpc-web"

// grpcWebSince is the first release that serves it.
var grpcWebSince = [3]int{1, 38, 3}

// grpcProbeTimeout bounds the check of the gRPC port at Connect: a closed port refuses at
// once, a filtered one is given this long.
const grpcProbeTimeout = 3 * time.Second

// webConn carries unary calls as gRPC-Web requests. It implements grpc.ClientConnInterface,
// so the generated clients run over it unchanged.
type webConn struct{ d *Driver }

var _ grpc.ClientConnInterface = webConn{}

// Invoke sends one unary call and decodes its reply with the driver's codec.
func (w webConn) Invoke(ctx context.Context, method string, args, reply any, _ ...grpc.CallOption) error {
	codec := newReplyCodec()
	msg, err := codec.Marshal(args)
	if err != nil {
		return status.Errorf(codes.Internal, "encode %s: %v", method, err)
	}
	payload := msg.Materialize()
	msg.Free()
	body := make([]byte, 5+len(payload))
	binary.BigEndian.PutUint32(body[1:5], uint32(len(payload)))
	copy(body[5:], payload)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.d.base+grpcWebPath+method, bytes.NewReader(body))
	if err != nil {
		return status.Errorf(codes.Internal, "build %s: %v", method, err)
	}
	req.Header.Set("Content-Type", "application/grpc-web+proto")
	req.Header.Set("Accept", "application/grpc-web+proto")
	req.Header.Set("X-Grpc-Web", "1")
	if dl, ok := ctx.Deadline(); ok {
		req.Header.Set("Grpc-Timeout", strconv.FormatInt(max(time.Until(dl).Milliseconds(), 1), 10)+"m")
	}
	if w.d.s.AuthMethod == driver.AuthAPIKey && w.d.s.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+w.d.s.APIKey)
	}
	resp, err := w.d.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return status.FromContextError(ctx.Err()).Err()
		}
		return status.Errorf(codes.Unavailable, "gRPC-Web at %s: %v", w.d.hostTxt, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, grpcMaxMessage+4096))
	if err != nil {
		if ctx.Err() != nil {
			return status.FromContextError(ctx.Err()).Err()
		}
		return status.Errorf(codes.Unavailable, "gRPC-Web at %s: %v", w.d.hostTxt, err)
	}
	if resp.StatusCode != http.StatusOK {
		return status.Error(httpToCode(resp.StatusCode), fmt.Sprintf("gRPC-Web answered HTTP %d", resp.StatusCode))
	}
	data, trailer, err := webFrames(raw)
	if err != nil {
		return status.Errorf(codes.Internal, "gRPC-Web reply of %s: %v", method, err)
	}
	// A reply with no message carries its status in the headers ("trailers-only").
	code, message := resp.Header.Get("Grpc-Status"), resp.Header.Get("Grpc-Message")
	if trailer != nil {
		code, message = trailer.Get("Grpc-Status"), trailer.Get("Grpc-Message")
	}
	if code == "" {
		return status.Errorf(codes.Internal, "gRPC-Web reply of %s has no status", method)
	}
	n, err := strconv.Atoi(code)
	if err != nil {
		return status.Errorf(codes.Internal, "gRPC-Web status %q of %s", code, method)
	}
	if n != 0 {
		if m, err := url.PathUnescape(message); err == nil {
			message = m
		}
		return status.Error(codes.Code(n), message)
	}
	if data == nil {
		return status.Errorf(codes.Internal, "gRPC-Web reply of %s has no message", method)
	}
	return codec.Unmarshal(mem.BufferSlice{mem.SliceBuffer(data)}, reply)
}

// NewStream is not carried: the driver's calls are all unary.
func (webConn) NewStream(context.Context, *grpc.StreamDesc, string, ...grpc.CallOption) (grpc.ClientStream, error) {
	return nil, status.Error(codes.Unimplemented, "streaming calls are not carried over gRPC-Web")
}

// webFrames splits a gRPC-Web body into its message and its trailers. A unary reply has at
// most one message frame; the trailer frame (flag 0x80) holds HTTP/1-style header lines.
func webFrames(b []byte) (data []byte, trailer textproto.MIMEHeader, err error) {
	for len(b) > 0 {
		if len(b) < 5 {
			return nil, nil, errors.New("a frame cut short")
		}
		flag, n := b[0], binary.BigEndian.Uint32(b[1:5])
		if uint64(n) > uint64(len(b)-5) {
			return nil, nil, errors.New("a frame longer than the reply")
		}
		frame := b[5 : 5+n]
		b = b[5+n:]
		switch {
		case flag&0x80 != 0:
			trailer = textproto.MIMEHeader{}
			for _, line := range strings.Split(string(frame), "\r\n") {
				if k, v, ok := strings.Cut(line, ":"); ok {
					trailer.Add(textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(k)), strings.TrimSpace(v))
				}
			}
		case flag&0x01 != 0:
			return nil, nil, errors.New("a compressed frame, which was not asked for")
		case data != nil:
			return nil, nil, errors.New("more than one message in a unary reply")
		default:
			data = frame
		}
	}
	return data, trailer, nil
}

// httpToCode maps a gRPC-Web request's HTTP failure to the gRPC code the driver's errors read.
func httpToCode(st int) codes.Code {
	switch st {
	case http.StatusUnauthorized:
		return codes.Unauthenticated
	case http.StatusForbidden:
		return codes.PermissionDenied
	case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusUnsupportedMediaType:
		return codes.Unimplemented
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return codes.Unavailable
	}
	return codes.Unknown
}

// servesGRPCWeb reports whether a server of this version serves gRPC-Web.
func servesGRPCWeb(version string) bool { return atLeast(version, grpcWebSince) }

// atLeast reports whether a server version ("1.39.0", "v1.40.0-rc.1") is since or later; a
// version it cannot read is not.
func atLeast(version string, since [3]int) bool {
	var v [3]int
	parts := strings.SplitN(strings.TrimPrefix(version, "v"), ".", 3)
	if len(parts) < 3 {
		return false
	}
	for i, p := range parts {
		p, _, _ = strings.Cut(p, "-") // 1.39.0-rc.1
		n, err := strconv.Atoi(p)
		if err != nil {
			return false
		}
		v[i] = n
	}
	for i := range v {
		if v[i] != since[i] {
			return v[i] > since[i]
		}
	}
	return true
}

// probeGRPC runs at Connect on a server that could serve gRPC-Web: when the gRPC port does
// not answer and gRPC-Web does, reads go over gRPC-Web from then on.
func (d *Driver) probeGRPC(ctx context.Context) {
	if !servesGRPCWeb(d.ServerVersion()) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, grpcProbeTimeout)
	defer cancel()
	conn, err := d.grpcClientConn()
	if err != nil {
		return
	}
	_, err = healthpb.NewHealthClient(conn).Check(d.rpcContext(ctx), &healthpb.HealthCheckRequest{}, grpc.WaitForReady(false))
	switch status.Code(err) {
	case codes.OK, codes.Unauthenticated, codes.PermissionDenied:
		return // the port answers
	}
	if errors.Is(ctx.Err(), context.Canceled) { // the caller gave up: not the port's answer
		return
	}
	wctx, wcancel := context.WithTimeout(context.WithoutCancel(ctx), grpcProbeTimeout)
	defer wcancel()
	if _, err := healthpb.NewHealthClient(webConn{d}).Check(wctx, &healthpb.HealthCheckRequest{}); err != nil {
		d.log.WithField("grpc", d.grpcTarget).Debugf("gRPC and gRPC-Web both fail: %v", err)
		return
	}
	d.mu.Lock()
	d.viaWeb = true
	d.mu.Unlock()
}

var _ driver.Router = (*Driver)(nil)

// Route says, for the connection's status, that gRPC calls go over gRPC-Web (driver.Router).
func (d *Driver) Route() string {
	if !d.usesGRPCWeb() {
		return ""
	}
	return "gRPC over gRPC-Web on the REST port (" + d.grpcTarget + " does not answer)"
}

// usesGRPCWeb reports whether the reads' gRPC calls go over gRPC-Web.
func (d *Driver) usesGRPCWeb() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.viaWeb
}

// rpcConn is the connection gRPC calls use: gRPC-Web where Connect found the gRPC port
// silent, else the gRPC connection.
func (d *Driver) rpcConn() (grpc.ClientConnInterface, error) {
	if d.usesGRPCWeb() {
		return webConn{d}, nil
	}
	return d.grpcClientConn()
}
