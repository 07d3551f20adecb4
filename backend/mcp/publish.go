package mcp

import (
	"sort"
	"sync"
)

// The publisher side of subscriptions/listen. A feature that learns of a change calls
// ResourceUpdated or ResourceListChanged; each live listen stream that agreed to that kind of
// notification sends it, with its subscription id in _meta. The feature learns which URIs are
// worth watching from SubscribedResources (and takes its baseline in Options.OnSubscribe);
// backend/mcp itself never looks at what a URI holds.

// Notification methods sent on a subscriptions/listen stream.
const (
	NotificationResourceUpdated     = "notifications/resources/updated"
	NotificationResourceListChanged = "notifications/resources/list_changed"
)

// listener is one live subscriptions/listen stream. Publishers only mark what is pending and
// wake it; the stream's own goroutine sends, so a slow client never blocks a publisher, and
// repeated changes of one URI before the stream catches up are sent once.
type listener struct {
	wake chan struct{}

	mu          sync.Mutex
	listChanged bool            // agreed resourcesListChanged
	uris        map[string]bool // agreed resourceSubscriptions
	pendingList bool
	pending     []string
	pendingSet  map[string]bool
}

func newListener(listChanged bool, uris []string) *listener {
	l := &listener{wake: make(chan struct{}, 1), listChanged: listChanged, pendingSet: map[string]bool{}}
	l.setURIs(uris)
	return l
}

// setURIs replaces the subscribed URIs and drops what is pending for the others.
func (l *listener) setURIs(uris []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.uris = make(map[string]bool, len(uris))
	for _, u := range uris {
		l.uris[u] = true
	}
	kept := l.pending[:0]
	for _, u := range l.pending {
		if l.uris[u] {
			kept = append(kept, u)
		} else {
			delete(l.pendingSet, u)
		}
	}
	l.pending = kept
}

func (l *listener) signal() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

func (l *listener) updated(uri string) {
	l.mu.Lock()
	hit := l.uris[uri] && !l.pendingSet[uri]
	if hit {
		l.pendingSet[uri] = true
		l.pending = append(l.pending, uri)
	}
	l.mu.Unlock()
	if hit {
		l.signal()
	}
}

func (l *listener) listChange() {
	l.mu.Lock()
	hit := l.listChanged
	l.pendingList = l.pendingList || hit
	l.mu.Unlock()
	if hit {
		l.signal()
	}
}

// take returns and clears what is pending.
func (l *listener) take() (list bool, uris []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	list, uris = l.pendingList, l.pending
	l.pendingList, l.pending, l.pendingSet = false, nil, map[string]bool{}
	return list, uris
}

// listenerSet is the server's live listen streams. Its zero value is ready.
type listenerSet struct {
	mu  sync.Mutex
	all map[*listener]struct{}
}

func (s *listenerSet) add(l *listener) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.all == nil {
		s.all = map[*listener]struct{}{}
	}
	s.all[l] = struct{}{}
}

func (s *listenerSet) remove(l *listener) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.all, l)
}

func (s *listenerSet) each(fn func(*listener)) {
	s.mu.Lock()
	ls := make([]*listener, 0, len(s.all))
	for l := range s.all {
		ls = append(ls, l)
	}
	s.mu.Unlock()
	for _, l := range ls {
		fn(l)
	}
}

// ResourceUpdated tells every live subscriptions/listen stream subscribed to uri that the
// resource changed: each sends notifications/resources/updated {uri, _meta: subscription id}.
// It never blocks on a client.
func (s *Server) ResourceUpdated(uri string) {
	s.listeners.each(func(l *listener) { l.updated(uri) })
}

// ResourceListChanged tells every live subscriptions/listen stream that agreed to
// resourcesListChanged that the resource list changed: each sends
// notifications/resources/list_changed {_meta: subscription id}. It never blocks on a client.
func (s *Server) ResourceListChanged() {
	s.listeners.each(func(l *listener) { l.listChange() })
}

// SubscribedResources lists, sorted and once each, the resource URIs some live listen stream
// is subscribed to now: what a change poller needs to watch (nothing when nobody listens).
func (s *Server) SubscribedResources() []string {
	seen := map[string]bool{}
	s.listeners.each(func(l *listener) {
		l.mu.Lock()
		for u := range l.uris {
			seen[u] = true
		}
		l.mu.Unlock()
	})
	out := make([]string, 0, len(seen))
	for u := range seen {
		out = append(out, u)
	}
	sort.Strings(out)
	return out
}
