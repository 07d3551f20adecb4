package plugins

import (
	"context"
	"sync"
)

// flight is one install in progress that several callers wait for.
type flight struct {
	done    chan struct{}
	res     Result
	err     error
	cancel  context.CancelFunc
	waiters int

	mu        sync.Mutex
	listeners []func(Progress)
	last      *Progress
}

func (f *flight) report(p Progress) {
	f.mu.Lock()
	f.last = &p
	ls := append([]func(Progress){}, f.listeners...)
	f.mu.Unlock()
	for _, l := range ls {
		l(p)
	}
}

func (f *flight) listen(l func(Progress)) {
	if l == nil {
		return
	}
	f.mu.Lock()
	f.listeners = append(f.listeners, l)
	last := f.last
	f.mu.Unlock()
	if last != nil {
		l(*last)
	}
}

// join runs fn once for every caller that asks for the same key while it runs: the callers
// share its result, and each one's progress function sees the download. The work goes on
// while at least one caller still waits; when the last one gives up (its context ends), it
// is cancelled.
func (m *Manager) join(ctx context.Context, key string, progress func(Progress), fn func(context.Context, func(Progress)) (Result, error)) (Result, error) {
	m.mu.Lock()
	f, ok := m.flights[key]
	if !ok {
		fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		f = &flight{done: make(chan struct{}), cancel: cancel}
		m.flights[key] = f
		go func() {
			f.res, f.err = fn(fctx, f.report)
			m.mu.Lock()
			delete(m.flights, key)
			m.mu.Unlock()
			cancel()
			close(f.done)
		}()
	}
	f.waiters++
	m.mu.Unlock()
	f.listen(progress)

	select {
	case <-f.done:
		m.mu.Lock()
		f.waiters--
		m.mu.Unlock()
		return f.res, f.err
	case <-ctx.Done():
		m.mu.Lock()
		f.waiters--
		last := f.waiters == 0
		m.mu.Unlock()
		if last {
			f.cancel()
			<-f.done // the install has cleaned up its temporary files
		}
		return Result{}, cancelled(ctx)
	}
}
