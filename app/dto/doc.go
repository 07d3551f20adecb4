// Package dto holds the shapes the desktop window and the Go facade (package app) exchange:
// the structs bound methods take and return and the payloads of the window's events, with
// their JSON names, and their conversion from and to the backend's types.
//
// The frontend's types are generated from these (cmd/gen-frontend-types writes
// frontend/src/api/gen: an interface per struct, named without the suffix DTO or Event, and a
// union of values per string type with constants); run `go generate ./app/dto` after changing
// one, and `wails generate module` for the bindings (frontend/wailsjs), whose classes only the
// bound calls' arguments use. The JSON is the contract: a field's name, its omitempty and
// whether it is a pointer are what the window reads.
//
// Nothing here calls Wails or the backend's services: a DTO is data, and a conversion is a
// function of its input (errors that need the facade's `code: message` mapping are converted
// in app).
package dto

//go:generate go run ../../cmd/gen-frontend-types
