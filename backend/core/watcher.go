package core

import (
	"context"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/config"
)

// settingsWatcher polls the settings file's version (config.Stamp) and hands changed MCP settings
// to apply; polling once a second is cheap and works the same on every platform and file
// system.
type settingsWatcher struct {
	file  *config.JSONFile[config.Settings]
	log   *logrus.Logger
	apply func(context.Context, config.MCPSettings) error
	every time.Duration

	mu   sync.Mutex
	stop context.CancelFunc
	done chan struct{}
}

func newSettingsWatcher(f *config.JSONFile[config.Settings], log *logrus.Logger, apply func(context.Context, config.MCPSettings) error) *settingsWatcher {
	return &settingsWatcher{file: f, log: log, apply: apply, every: time.Second}
}

// Start begins watching from the file's current state; a second Start does nothing.
func (w *settingsWatcher) Start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stop != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	w.stop, w.done = cancel, make(chan struct{})
	go w.run(ctx, w.file.Stamp(), w.done)
}

// Stop ends the watch and waits for it; safe when not started.
func (w *settingsWatcher) Stop() {
	w.mu.Lock()
	stop, done := w.stop, w.done
	w.stop, w.done = nil, nil
	w.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}

func (w *settingsWatcher) run(ctx context.Context, last config.Stamp, done chan struct{}) {
	defer close(done)
	tick := time.NewTicker(w.every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		cur := w.file.Stamp()
		if cur.Same(last) {
			continue
		}
		last = cur
		s, err := w.file.Load(ctx)
		if err == nil {
			err = s.Validate()
		}
		if err != nil {
			w.log.WithError(err).Warn("settings changed but cannot be applied; keeping the running ones")
			continue
		}
		if err := w.apply(ctx, s.MCP); err != nil {
			w.log.WithError(err).Error("applying changed MCP settings")
		}
	}
}
