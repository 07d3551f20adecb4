package mcp

import (
	"context"
	"time"
)

// keepAlivePeriod is how often an idle subscriptions/listen stream gets an
// SSE comment.
var keepAlivePeriod = 15 * time.Second

// handleSubscriptionsListen serves subscriptions/listen (modern only, no
// handler deadline): a long-lived SSE stream whose first message is
// notifications/subscriptions/acknowledged with the agreed subset of the
// requested notifications (agreedNotifications); every notification
// carries _meta io.modelcontextprotocol/subscriptionId = the request id.
// Nothing publishes changes yet (the capabilities issue adds the
// publishers); the stream stays open with keep-alives until the client
// leaves or the server stops.
func (s *Server) handleSubscriptionsListen(ctx context.Context, req *Request[ListenParams]) (any, error) {
	agreed := s.agreedNotifications(req.Params)
	subMeta := map[string]any{"io.modelcontextprotocol/subscriptionId": req.ID}
	if err := req.Notify("notifications/subscriptions/acknowledged", map[string]any{
		"notifications": agreed,
		"_meta":         subMeta,
	}); err != nil {
		return nil, err
	}
	if len(agreed) > 0 {
		t := time.NewTicker(keepAlivePeriod)
		defer t.Stop()
	loop:
		for {
			select {
			case <-ctx.Done():
				break loop
			case <-t.C:
				if req.stream.comment() != nil {
					break loop
				}
			}
		}
	}
	return map[string]any{"_meta": subMeta}, nil
}
