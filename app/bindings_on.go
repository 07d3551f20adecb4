//go:build bindings

package app

// GeneratingBindings is true in the binary that `wails build` / `wails generate module`
// compile with the `bindings` tag and run only to write frontend/wailsjs. main.go must then
// call Run(nil, assets) straight away: no display check, no config dir, no backend.
const GeneratingBindings = true
