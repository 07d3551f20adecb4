package core

import (
	"context"
	"testing"
	"time"

	"app/backend/config"
)

// ARCHITECTURE.md 3: a CLI change made while the app runs is picked up
// within a second: the watcher applies the changed MCP settings.
func TestSettingsWatcherAppliesChanges(t *testing.T) {
	ctx := context.Background()
	c := openCore(t, -1)
	if err := c.Settings().Update(ctx, func(s *config.Settings) error { s.MCP.Port = 0; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if c.MCP().Server() == nil {
		t.Fatal("not started")
	}
	if err := config.SetSetting(ctx, c.Settings(), "mcp.enabled", "false"); err != nil {
		t.Fatal(err)
	}
	// Wait for the condition, bounded: the watcher polls once a second.
	deadline := time.Now().Add(5 * time.Second)
	for c.MCP().Server() != nil {
		if time.Now().After(deadline) {
			t.Fatal("mcp.enabled=false was not applied within 5 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Run("Stop waits for the watcher to end", func(t *testing.T) {
		if err := c.Stop(ctx); err != nil {
			t.Fatal(err)
		}
		c.watcher.Stop() // a second stop is harmless
	})
}
