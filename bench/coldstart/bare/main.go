// Command bare is the peer of issue 42's cold-start bench (bench/coldstart): the least a Wails
// v2 window can be that paints the saved connections as one list answering the keyboard. It
// reads the same connections.json the app keeps (in $APP_CONFIG_DIR, else the user config
// dir/App), hands the entries to the page over a Wails binding, as the app does, and the page
// (plain HTML and JS, no build step) paints them as a list whose highlight moves with
// Up/Down/Home/End. The bench builds it with the tags `wails build` gives the app
// (desktop,production,webkit2_41) and the same -w -s.
package main

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
)

//go:embed frontend
var frontend embed.FS

// Entry is one saved connection as the list shows it.
type Entry struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Host string `json:"host"`
	Port int    `json:"port"`
}

// Bare is the one bound object: the page asks it for the entries.
type Bare struct{ dir string }

// Entries reads connections.json.
func (b *Bare) Entries() ([]Entry, error) {
	raw, err := os.ReadFile(filepath.Join(b.dir, "connections.json"))
	if err != nil {
		return nil, err
	}
	var saved []struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		Settings struct {
			Host string `json:"host"`
			Port int    `json:"port"`
		} `json:"settings"`
	}
	if err := json.Unmarshal(raw, &saved); err != nil {
		return nil, err
	}
	out := make([]Entry, len(saved))
	for i, s := range saved {
		out[i] = Entry{Name: s.Name, Type: s.Type, Host: s.Settings.Host, Port: s.Settings.Port}
	}
	return out, nil
}

func configDir() (string, error) {
	if d := os.Getenv("APP_CONFIG_DIR"); d != "" {
		return d, nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "App"), nil
}

func main() {
	dir, err := configDir()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
	assets, err := fs.Sub(frontend, "frontend")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
	// The app's window options, less what a bare window has no use for (minimum size, icon).
	err = wails.Run(&options.App{
		Title:            "Bare",
		Width:            1280,
		Height:           800,
		BackgroundColour: &options.RGBA{R: 21, G: 22, B: 26, A: 255},
		AssetServer:      &assetserver.Options{Assets: assets},
		Bind:             []any{&Bare{dir: dir}},
		Linux:            &linux.Options{ProgramName: "bare", WebviewGpuPolicy: linux.WebviewGpuPolicyOnDemand},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
}
