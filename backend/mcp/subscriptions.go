package mcp

import (
	"context"
	"time"
)

// keepAlivePeriod is how often an idle subscriptions/listen stream gets an
// SSE comment.
var keepAlivePeriod = 15 * time.Second

// metaSubscriptionID is the _meta key that names the listen request a
// notification belongs to.
const metaSubscriptionID = "io.modelcontextprotocol/subscriptionId"

// handleSubscriptionsListen serves subscriptions/listen (modern only, no
// handler deadline): a long-lived SSE stream whose first message is
// notifications/subscriptions/acknowledged with the agreed subset of the
// requested notifications (agreedNotifications, then Options.OnSubscribe for
// the resource URIs). Then, until the client leaves or the server stops, it
// sends what the publishers report (ResourceUpdated for a subscribed URI,
// ResourceListChanged when resourcesListChanged was agreed), with keep-alive
// comments in between. Every notification carries _meta
// io.modelcontextprotocol/subscriptionId = the request id. A stream that
// agreed to nothing ends after the acknowledgement.
func (s *Server) handleSubscriptionsListen(ctx context.Context, req *Request[ListenParams]) (any, error) {
	agreed := s.agreedNotifications(req.Params)
	subMeta := map[string]any{metaSubscriptionID: req.ID}

	var l *listener
	uris, _ := agreed["resourceSubscriptions"].([]string)
	listChanged, _ := agreed["resourcesListChanged"].(bool)
	if len(uris) > 0 || listChanged {
		// Registered before OnSubscribe takes its baseline, so a poller that prunes what
		// nobody listens to keeps these URIs; nothing is sent before the acknowledgement.
		l = newListener(listChanged, uris)
		s.listeners.add(l)
		defer s.listeners.remove(l)
		if len(uris) > 0 && s.opts.OnSubscribe != nil {
			uris = s.opts.OnSubscribe(ctx, uris)
			l.setURIs(uris)
			if len(uris) > 0 {
				agreed["resourceSubscriptions"] = uris
			} else {
				delete(agreed, "resourceSubscriptions")
			}
		}
	}

	if err := req.Notify("notifications/subscriptions/acknowledged", map[string]any{
		"notifications": agreed,
		"_meta":         subMeta,
	}); err != nil {
		return nil, err
	}
	if len(agreed) > 0 {
		s.listen(ctx, req.Call, l, subMeta)
	}
	return map[string]any{"_meta": subMeta}, nil
}

// listen sends l's notifications and the keep-alives until ctx ends or the
// stream fails.
func (s *Server) listen(ctx context.Context, call *Call, l *listener, subMeta map[string]any) {
	t := time.NewTicker(keepAlivePeriod)
	defer t.Stop()
	var wake <-chan struct{}
	if l != nil {
		wake = l.wake
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if call.stream.comment() != nil {
				return
			}
		case <-wake:
			list, uris := l.take()
			if list {
				if call.Notify(NotificationResourceListChanged, map[string]any{"_meta": subMeta}) != nil {
					return
				}
			}
			for _, u := range uris {
				if call.Notify(NotificationResourceUpdated, map[string]any{"uri": u, "_meta": subMeta}) != nil {
					return
				}
			}
		}
	}
}
