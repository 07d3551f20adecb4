package dto

import "app/backend/plugins"

// PluginDTO is one plugin of Settings, Plugins (plugins.Listing).
type PluginDTO struct {
	Name        string `json:"name"`
	DisplayName string `json:"displayName"`
	Description string `json:"description"`
	Publisher   string `json:"publisher"`
	// Installed is the version that runs ("" when none); Available the version this app
	// would install here ("" when none).
	Installed string `json:"installed"`
	Available string `json:"available"`
	// Size is the download size of Available, in bytes.
	Size         int64  `json:"size"`
	ReleaseNotes string `json:"releaseNotes"`
	// Status is "installed", "update available", "not installed", "not available for this
	// platform" or "installed, not in the registry"; Reason says why nothing is available.
	Status string `json:"status"`
	Reason string `json:"reason"`
	// FromMirror: the package's bundled mirror answered, not the registry.
	FromMirror bool `json:"fromMirror"`
}

// PluginListDTO is Settings, Plugins: the plugins, and why the registry could not be read
// ("" when it could; the installed plugins are listed all the same).
type PluginListDTO struct {
	Plugins       []PluginDTO `json:"plugins"`
	RegistryError string      `json:"registryError"`
}

// PluginOfferDTO is what the connection-type chooser shows before the form opens.
type PluginOfferDTO struct {
	Plugin      string `json:"plugin"`
	DisplayName string `json:"displayName"`
	Description string `json:"description"`
	Publisher   string `json:"publisher"`
	// Installed: the type's plugin is there, the form opens at once.
	Installed bool `json:"installed"`
	// Version is the installed version, or the one offered.
	Version      string `json:"version"`
	Size         int64  `json:"size"`
	ReleaseNotes string `json:"releaseNotes"`
	// Unavailable says why the registry has nothing for this platform ("" when it has).
	Unavailable string `json:"unavailable"`
	// FromMirror: the package's bundled mirror offers it (the registry could not be reached,
	// or none is named).
	FromMirror bool `json:"fromMirror"`
}

// PluginResultDTO says what an install or update did.
type PluginResultDTO struct {
	Plugin    string `json:"plugin"`
	Version   string `json:"version"`
	Previous  string `json:"previous"`
	Changed   bool   `json:"changed"`
	Available string `json:"available"`
}

// PluginProgressEvent is the payload of EventPluginProgress.
type PluginProgressEvent struct {
	Plugin  string `json:"plugin"`
	Version string `json:"version"`
	Done    int64  `json:"done"`
	Total   int64  `json:"total"`
	// ConnectionID is the saved connection waiting for the plugin ("" when none).
	ConnectionID string `json:"connectionId"`
	// FromMirror: the package's bundled mirror serves the download (the registry could not be
	// reached, or none is named).
	FromMirror bool `json:"fromMirror"`
}

// FromPlugin is Settings, Plugins' line of a plugin.
func FromPlugin(l plugins.Listing) PluginDTO {
	return PluginDTO{
		Name: l.Name, DisplayName: l.DisplayName, Description: l.Description, Publisher: l.Publisher,
		Installed: l.Installed, Available: l.Available, Size: l.Size, ReleaseNotes: l.ReleaseNotes,
		Status: string(l.Status), Reason: l.Reason, FromMirror: l.FromMirror,
	}
}

// FromPluginResult says what an install or update did.
func FromPluginResult(r plugins.Result) PluginResultDTO {
	return PluginResultDTO{Plugin: r.Plugin, Version: r.Version, Previous: r.Previous, Changed: r.Changed, Available: r.Available}
}

// FromProgress is the payload of a download's progress; connectionID names the saved
// connection waiting for it ("" when none).
func FromProgress(p plugins.Progress, connectionID string) PluginProgressEvent {
	return PluginProgressEvent{Plugin: p.Plugin, Version: p.Version, Done: p.Done, Total: p.Total, ConnectionID: connectionID, FromMirror: p.FromMirror}
}
