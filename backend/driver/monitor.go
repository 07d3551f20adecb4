package driver

import (
	"context"
	"time"
)

// DefaultHealthInterval is how often Monitor checks health by default.
const DefaultHealthInterval = 30 * time.Second

// Monitor checks p's health every interval until ctx is done or a check
// fails. On the first failed check it calls onDrop with the check's error
// (which says why: "Authentication failed: ..." for a revoked or rotated key,
// "Connection failed: ..." for TLS or network) and returns that error. It
// returns nil when ctx ends first; a check interrupted by ctx is not a drop.
// Each check gets at most timeout (interval when timeout <= 0).
//
// The connections layer runs it in a goroutine per open connection:
//
//	go driver.Monitor(ctx, d, driver.DefaultHealthInterval, 10*time.Second, func(err error) { drop(id, err) })
func Monitor(ctx context.Context, p Pinger, interval, timeout time.Duration, onDrop func(error)) error {
	if interval <= 0 {
		interval = DefaultHealthInterval
	}
	if timeout <= 0 {
		timeout = interval
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		cctx, cancel := context.WithTimeout(ctx, timeout)
		err := p.Ping(cctx)
		cancel()
		if err == nil {
			continue
		}
		if ctx.Err() != nil {
			return nil
		}
		if onDrop != nil {
			onDrop(err)
		}
		return err
	}
}
