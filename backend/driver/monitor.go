package driver

import (
	"context"
	"time"
)

// DefaultHealthInterval is how often Monitor checks health by default.
const DefaultHealthInterval = 30 * time.Second

// Monitor checks p's health every interval until ctx is done or the connection is lost. A
// failed check is not yet a loss (issue 25, item 9: a Wi-Fi blip, one slow answer): it is
// retried Retries times, after interval/8, then /4, then /2 (each check bounded by timeout, so
// a node that never answers is dropped after at most 7/8 of the interval plus four timeouts),
// and only when every retry fails too does Monitor call onDrop with the last check's error (which says why:
// "Connection failed: ..." for TLS or network) and return it. A refused credential
// ("Authentication failed: ...", a revoked or rotated key) drops at once: retrying cannot
// make it valid. It returns nil when ctx ends first; a check interrupted by ctx is not a drop.
// Each check gets at most timeout (interval when timeout <= 0).
//
// The connections layer runs it in a goroutine per open connection:
//
//	go driver.Monitor(ctx, d, driver.DefaultHealthInterval, 10*time.Second, func(err error) { drop(id, err) })
func Monitor(ctx context.Context, p Pinger, interval, timeout time.Duration, onDrop func(error)) error {
	if interval <= 0 {
		interval = DefaultHealthInterval
	}
	interval = max(interval, 8*time.Millisecond) // the retries' waits are fractions of it
	if timeout <= 0 {
		timeout = interval
	}
	check := func() error {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return p.Ping(cctx)
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		err := check()
		for i := 0; i < Retries && err != nil && KindOf(err) != KindAuth; i++ {
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(interval >> (Retries - i)): // interval/8, /4, /2
			}
			err = check()
		}
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

// Retries is how many times Monitor checks again after a failed check before it drops.
const Retries = 3
