package grpcdriver

import (
	"context"
	"runtime/debug"
	"time"

	"google.golang.org/protobuf/proto"

	"app/backend/driver"
	pb "app/backend/plugins/internal/proto/driverv2"
)

// A walk (an export, a map's read) asks for its pages one after another, each naming the last
// key of the page before, so the next request is known the moment a page is answered. The
// plugin reads that page while the app takes in the one it just got, and answers the request
// from it when it comes: the database's time for a page and the crossing of the boundary
// overlap instead of adding up (bench/transfer). A walk is not a snapshot, so reading a page
// a moment early changes nothing it promises.
const (
	// aheadTimeout bounds a read nobody has asked for yet.
	aheadTimeout = time.Minute
	// maxAhead is how many walks read ahead at once; the oldest is dropped past it.
	maxAhead = 4
)

// readAhead is one page read before it was asked for.
type readAhead struct {
	conn   string
	key    string // the request it answers (scanKey)
	cancel context.CancelFunc
	done   chan struct{}
	page   *pb.ScanPage
	err    error
}

// scanKey identifies a Scan request: the same key, the same page.
func scanKey(req *pb.ScanRequest) string {
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(req)
	return string(b)
}

// claimAhead takes the read-ahead that answers req, if one was started. Others are left to
// their walks (two exports on one connection each read ahead); a walk the app gave up on is
// dropped when maxAhead newer ones start or its connection closes.
func (s *Server) claimAhead(req *pb.ScanRequest) *readAhead {
	key := scanKey(req)
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, ra := range s.ahead {
		if ra.key == key {
			s.ahead = append(s.ahead[:i], s.ahead[i+1:]...)
			return ra
		}
	}
	return nil
}

// startAhead reads the page after p for the walk req belongs to.
func (s *Server) startAhead(sc driver.Scanner, req *pb.ScanRequest, p *pb.ScanPage) {
	if p.GetNext() == "" {
		return
	}
	next := proto.Clone(req).(*pb.ScanRequest)
	next.After = p.GetNext()
	ctx, cancel := context.WithTimeout(context.Background(), aheadTimeout)
	ra := &readAhead{conn: req.GetConnId(), key: scanKey(next), cancel: cancel, done: make(chan struct{})}
	s.mu.Lock()
	if len(s.ahead) >= maxAhead {
		s.ahead[0].cancel()
		s.ahead = s.ahead[1:]
	}
	s.ahead = append(s.ahead, ra)
	s.mu.Unlock()
	go func() {
		defer close(ra.done)
		defer func() {
			// Outside an RPC, recoverUnary does not catch a driver's panic.
			if r := recover(); r != nil {
				s.log.Errorf("driver panic reading ahead: %v\n%s", r, debug.Stack())
				ra.err = driver.Errorf(driver.KindQueryFailed, "the driver failed unexpectedly (see the app log)")
			}
		}()
		ra.page, ra.err = scanPage(ctx, sc, next)
	}()
}

// dropAhead stops the read-aheads of a closed connection.
func (s *Server) dropAhead(conn string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := s.ahead[:0]
	for _, ra := range s.ahead {
		if ra.conn == conn {
			ra.cancel()
			continue
		}
		kept = append(kept, ra)
	}
	s.ahead = kept
}

// scanPage is one Scan step in the wire's terms.
func scanPage(ctx context.Context, sc driver.Scanner, req *pb.ScanRequest) (*pb.ScanPage, error) {
	p, err := sc.Scan(ctx, req.GetTable(), driver.ScanRequest{After: req.GetAfter(), Limit: int(req.GetLimit()),
		Filters: fromFilters(req.GetFilters()), Vectors: req.GetVectors(), VectorNames: req.GetVectorNames()})
	if err != nil {
		return nil, err
	}
	out, err := toScanPage(p)
	if err != nil {
		return nil, driver.Wrap(driver.KindQueryFailed, err, "the rows cannot be sent to the app")
	}
	return out, nil
}
