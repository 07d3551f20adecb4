// Package dto holds the shapes the desktop window and the Go facade (package app) exchange:
// the structs bound methods take and return and the payloads of the window's events, with
// their JSON names, and their conversion from and to the backend's types. Wails generates the
// frontend's TypeScript classes from these types (frontend/wailsjs/go/models.ts, namespace
// dto); frontend/src/api/wails.ts reads them into the frontend's own types.
//
// Nothing here calls Wails or the backend's services: a DTO is data, and a conversion is a
// function of its input (errors that need the facade's `code: message` mapping are converted
// in app).
package dto
