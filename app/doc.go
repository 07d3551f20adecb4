// Package app is the Wails-bound facade between the React frontend and the backend: one
// small struct per UI area (ConnectionsAPI for the connection sidebar, ExplorerAPI for an
// open connection's tables and rows, ...), whose exported methods are the ones bound. Each
// calls the backend, converts its types through the DTOs of app/dto (their JSON shapes,
// and frontend/wailsjs/go/models.ts generated from them, namespace dto) and turns backend
// errors into the `code: message` text the frontend's API wrapper parses
// (frontend/src/api/errors.ts). The logic lives in backend packages the CLI can use too
// (backend/explore, backend/queries, backend/windowlayout, ...).
//
// Every area embeds base and starts from one env (the window's context, its Emitter, the
// native Confirmer and file dialogs, the log, connection names); run.go lists the areas once
// (facades), and that list feeds Wails' Bind, binding generation and startup. A new UI area
// is one line there, plus its wire method taking what it needs from the backend core.
//
// Wails runtime calls (events, dialogs) sit behind Emitter and Confirmer so the structs here
// test without a window; the dialogs themselves are app/nativedialog's, and only run.go,
// events.go and logger.go talk to Wails here.
package app
