package main

import (
	"context"
	"embed"
	"io/fs"

	"app/app"
	"app/internal/cli"
)

// frontendDist is the built frontend. A tracked placeholder keeps a fresh clone compiling
// before `npm run build` has run.
//
//go:embed all:frontend/dist
var frontendDist embed.FS

// runDesktop opens the window and blocks until it closes.
func runDesktop(ctx context.Context, g cli.Globals, mcpPort int) error {
	assets, err := fs.Sub(frontendDist, "frontend/dist")
	if err != nil {
		return err
	}
	if app.GeneratingBindings {
		// `wails build` runs this binary only to reflect on the bound types.
		return app.Run(nil, assets)
	}
	if !cli.HasDisplay() {
		return cli.ErrNoDisplay
	}
	unlock, err := cli.OneInstance(ctx, g)
	if err != nil {
		return err
	}
	defer unlock()
	c, done, err := cli.OpenCore(ctx, g, false, mcpPort)
	if err != nil {
		return err
	}
	defer done()
	return app.Run(c, assets)
}
