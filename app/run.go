package app

import (
	"context"
	_ "embed"
	"errors"
	"io/fs"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"app/app/nativedialog"
	"app/backend/core"
)

// appIcon is the window icon on Linux (a copy of build/appicon.png).
//
//go:embed appicon.png
var appIcon []byte

// Window geometry: roomy enough for the sidebar, a grid and an editor side by side.
const (
	windowWidth     = 1280
	windowHeight    = 800
	windowMinWidth  = 760
	windowMinHeight = 480
)

// watchInterval is how often the window checks for connections saved by the CLI.
const watchInterval = time.Second

// shutdownTimeout bounds Core.Close when the window closes.
const shutdownTimeout = 10 * time.Second

// Run opens the window and blocks until it closes. It owns the Core's lifecycle from here:
// it Starts it (the MCP server) once the window is up and Closes it when the window shuts
// down. assets holds the built frontend (main.go embeds frontend/dist; Wails finds the
// directory with index.html in it).
//
// A Core that fails to Start does not stop the window: the error is logged and the
// connections remain usable; the Settings screen will show the MCP server's state.
//
// Run needs the Wails build tags (`wails build` / `wails dev`, with `webkit2_41` on Linux);
// a plain `go build` binary returns Wails' error explaining that.
//
// When GeneratingBindings is true, c may be nil: Wails only reflects on the bound types
// and exits.
func Run(c *core.Core, assets fs.FS) error {
	areas := facades()
	if GeneratingBindings {
		return wails.Run(&options.App{Title: "App", Bind: bind(areas)})
	}
	if c == nil {
		return errors.New("app.Run: no backend core")
	}
	log := c.Log().WithField("component", "window")
	savedName := func(id string) string {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		if saved, err := c.Connections().Get(ctx, id); err == nil {
			return saved.Name
		}
		return ""
	}
	// Every area has the dialogs before the window runs: OnStartup runs in its own goroutine
	// while the page may already call them.
	dialogs := nativedialog.New()
	e := env{confirm: dialogs, files: dialogs.Files(), log: log, name: savedName}
	for _, f := range areas {
		f.wire(c)
		f.start(e)
	}
	var stopWindow context.CancelFunc = func() {}
	var quits quitGate

	return wails.Run(&options.App{
		Title:            "App",
		Width:            windowWidth,
		Height:           windowHeight,
		MinWidth:         windowMinWidth,
		MinHeight:        windowMinHeight,
		BackgroundColour: &options.RGBA{R: 21, G: 22, B: 26, A: 255},
		AssetServer:      &assetserver.Options{Assets: assets},
		Logger:           wailsLog{log},
		LogLevel:         wailsLevel(c.Log().GetLevel()),
		OnStartup: func(ctx context.Context) {
			dialogs.Start(ctx)
			// A CLI change that raises what AI clients may do asks here while the window runs.
			c.SetWindowConfirm(dialogs.Confirm)
			// A second launch on this config dir hands over to this window (issue 20).
			c.SetRaise(func() {
				runtime.WindowUnminimise(ctx)
				runtime.WindowShow(ctx)
				log.Info("the window was brought to the front for a second launch")
			})
			// The areas' context is the window's, ended when the window shuts down.
			var wctx context.Context
			wctx, stopWindow = context.WithCancel(ctx)
			e.ctx, e.emit = wctx, wailsEmitter{ctx}
			for _, f := range areas {
				f.start(e)
			}
			go quitOnSignals(wctx, func() { runtime.Quit(ctx) })
			if err := c.Start(ctx); err != nil {
				log.WithError(err).Error("backend did not start; the window stays open without it")
			}
			e.emit.Emit(EventMCPStarted, nil)
		},
		OnBeforeClose: quits.stayOpen(areas),
		OnShutdown: func(context.Context) {
			stopWindow()
			ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
			defer cancel()
			if err := c.Stop(ctx); err != nil {
				log.WithError(err).Error("backend shutdown")
			}
		},
		Bind: bind(areas),
		Linux: &linux.Options{
			Icon:             appIcon,
			ProgramName:      "app",
			WebviewGpuPolicy: linux.WebviewGpuPolicyOnDemand,
		},
	})
}

// facades are the UI areas, one line each: the structs whose exported methods the frontend
// calls. Run wires and starts them; binding generation reflects on the same zero values.
func facades() []facade {
	return []facade{
		&ConnectionsAPI{},
		&ExplorerAPI{},
		&PluginsAPI{},
		&TokensAPI{},
		&SettingsAPI{},
		&ClientsAPI{},
		&ActivityAPI{},
		&PairingAPI{},
		&ApprovalsAPI{},
		&EditorAPI{},
		&LayoutAPI{},
	}
}

// bind is the facades as Wails' Bind takes them.
func bind(areas []facade) []any {
	out := make([]any, len(areas))
	for i, f := range areas {
		out[i] = f
	}
	return out
}

// closer is an area that may hold unsaved work: beforeClose asks whether to quit and says
// whether the window stays open.
type closer interface {
	beforeClose(ctx context.Context) bool
}

// The explorer holds the grid's pending changes: the quit question must stay reachable.
var _ closer = (*ExplorerAPI)(nil)

// stayOpen is the window's OnBeforeClose: an area holding unsaved work (a closer) may ask
// whether to quit; the window stays open when one says so.
func stayOpen(ctx context.Context, areas []facade) bool {
	for _, f := range areas {
		if c, ok := f.(closer); ok && c.beforeClose(ctx) {
			return true
		}
	}
	return false
}

// quitGate lets one quit through to the window. Wails quits on Linux by calling gtk_main_quit
// from a goroutine once OnBeforeClose has said the window may close, and one SIGTERM reaches
// both Wails' own handler and quitOnSignals: with nothing holding the window open both quits
// passed, and the second gtk_main_quit ran while the main thread was destroying the window
// after gtk_main had returned (SIGSEGV in gtk_main_quit, exit 2: tests/desktop's SIGTERM check
// under load, 2026-12-07). Once a quit has been let through, every later one is held back.
type quitGate struct{ decided atomic.Bool }

// stayOpen is the window's OnBeforeClose: true (the window stays open) when an area holding
// unsaved work keeps it open, or when another quit was let through already.
func (g *quitGate) stayOpen(areas []facade) func(context.Context) bool {
	return func(ctx context.Context) bool {
		if g.decided.Load() || stayOpen(ctx, areas) {
			return true
		}
		return !g.decided.CompareAndSwap(false, true)
	}
}

// quitOnSignals quits the window on every SIGTERM or interrupt until ctx ends. Wails handles
// only the first signal: when its quit was cancelled (pending changes, No), later signals
// would be swallowed and the app could no longer be ended that way. Each quit goes through
// OnBeforeClose, which asks once however many quits arrive together.
func quitOnSignals(ctx context.Context, quit func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	defer signal.Stop(sig)
	for {
		select {
		case <-ctx.Done():
			return
		case <-sig:
			quit()
		}
	}
}
