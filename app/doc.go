// Package app is the Wails-bound facade between the React frontend and the backend: one
// small struct per UI area (ConnectionsAPI for the connection sidebar, ExplorerAPI for an
// open connection's tables and rows), each converting backend types to DTOs and backend
// errors to the `code: message` text the frontend's API wrapper parses
// (frontend/src/api/errors.ts). No business logic lives here.
//
// Wails runtime calls (events, later dialogs) sit behind the small Emitter interface so the
// structs here test without a window; only run.go talks to Wails itself.
package app
