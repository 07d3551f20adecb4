package app

import (
	"context"
	_ "embed"
	"errors"
	"io/fs"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"

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
	if GeneratingBindings {
		return wails.Run(&options.App{Title: "App", Bind: boundStructs(nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil)})
	}
	if c == nil {
		return errors.New("app.Run: no backend core")
	}
	log := c.Log().WithField("component", "window")
	conns := NewConnectionsAPI(c.Connections())
	conns.tester = c
	explorer := NewExplorerAPI(c.OpenConnections())
	c.OnConnectionDropped(explorer.connectionDropped)
	c.OnConnectionRestored(explorer.connectionRestored)
	pm, regErr := c.Plugins()
	plugs := NewPluginsAPI(pm, regErr, core.PluginFor)
	c.OnPluginProgress(plugs.connectionProgress)
	tokenStore := LiveTokens(c.Auth())
	tokens := NewTokensAPI(tokenStore)
	settings := NewSettingsAPI(c.Settings(), c.MCP())
	clients := NewClientsAPI(c.Activity().Clients(), tokenStore)
	activityLog := NewActivityAPI(c.Activity().Log)
	pair := NewPairingAPI(tokenStore, c.MCP().Port, c.Dir())
	approvals := NewApprovalsAPI(c.Approvals(), log)
	editor := NewEditorAPI(c.OpenConnections(), c.Dir())
	savedName := func(id string) string {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		if saved, err := c.Connections().Get(ctx, id); err == nil {
			return saved.Name
		}
		return ""
	}
	editor.name, explorer.name = savedName, savedName
	layout := NewLayoutAPI(c.Dir(), log)
	var stopWatch context.CancelFunc = func() {}
	// The dialogs are given to the APIs before the window runs: OnStartup runs in its own
	// goroutine while the page may already call them.
	dialogs := newNativeConfirmer()
	conns.confirm = dialogs
	clients.confirm = dialogs
	pair.confirm = dialogs
	tokens.confirm = dialogs
	plugs.confirm = dialogs
	activityLog.save = nativeSave(dialogs)
	explorer.files = nativeFiles(dialogs)

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
			dialogs.start(ctx)
			conns.startup(ctx)
			tokens.startup(ctx)
			settings.startup(ctx)
			clients.startup(ctx)
			activityLog.startup(ctx)
			pair.startup(ctx)
			approvals.startup(dialogs, wailsEmitter{ctx}, desktopNotify)
			// A CLI change that raises what AI clients may do asks here while the window runs.
			c.SetWindowConfirm(dialogs.Confirm)
			// A second launch on this config dir hands over to this window (issue 20).
			c.SetRaise(func() {
				runtime.WindowUnminimise(ctx)
				runtime.WindowShow(ctx)
				log.Info("the window was brought to the front for a second launch")
			})
			explorer.startup(ctx, wailsEmitter{ctx}, dialogs)
			editor.startup(ctx, dialogs)
			plugs.startup(ctx, wailsEmitter{ctx})
			var wctx context.Context
			wctx, stopWatch = context.WithCancel(ctx)
			go conns.watch(wctx, watchInterval, wailsEmitter{ctx})
			go quitOnSignals(wctx, func() { runtime.Quit(ctx) })
			if err := c.Start(ctx); err != nil {
				log.WithError(err).Error("backend did not start; the window stays open without it")
			}
			wailsEmitter{ctx}.Emit(EventMCPStarted, nil)
		},
		OnBeforeClose: explorer.beforeClose,
		OnShutdown: func(context.Context) {
			stopWatch()
			ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
			defer cancel()
			if err := c.Stop(ctx); err != nil {
				log.WithError(err).Error("backend shutdown")
			}
		},
		Bind: boundStructs(conns, explorer, plugs, tokens, settings, clients, activityLog, pair, approvals, editor, layout),
		Linux: &linux.Options{
			Icon:             appIcon,
			ProgramName:      "app",
			WebviewGpuPolicy: linux.WebviewGpuPolicyOnDemand,
		},
	})
}

// boundStructs lists every struct whose methods the frontend can call. With nil (binding
// generation) it returns zero values of the same types.
func boundStructs(conns *ConnectionsAPI, explorer *ExplorerAPI, plugs *PluginsAPI, tokens *TokensAPI, settings *SettingsAPI, clients *ClientsAPI, activityLog *ActivityAPI, pair *PairingAPI, approvals *ApprovalsAPI, editor *EditorAPI, layout *LayoutAPI) []any {
	if conns == nil {
		conns = &ConnectionsAPI{}
	}
	if explorer == nil {
		explorer = &ExplorerAPI{}
	}
	if plugs == nil {
		plugs = &PluginsAPI{}
	}
	if tokens == nil {
		tokens = &TokensAPI{}
	}
	if settings == nil {
		settings = &SettingsAPI{}
	}
	if clients == nil {
		clients = &ClientsAPI{}
	}
	if activityLog == nil {
		activityLog = &ActivityAPI{}
	}
	if pair == nil {
		pair = &PairingAPI{}
	}
	if approvals == nil {
		approvals = &ApprovalsAPI{}
	}
	if editor == nil {
		editor = &EditorAPI{}
	}
	if layout == nil {
		layout = &LayoutAPI{}
	}
	return []any{conns, explorer, plugs, tokens, settings, clients, activityLog, pair, approvals, editor, layout}
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
