package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"app/app/dto"
	"app/backend/core"
	"app/backend/plugins"
	"app/backend/plugins/registry"
)

// PluginManager is the part of plugins.Manager the window needs.
type PluginManager interface {
	List(ctx context.Context) ([]plugins.Listing, error)
	Install(ctx context.Context, name string, progress func(plugins.Progress)) (plugins.Result, error)
	Update(ctx context.Context, name string, progress func(plugins.Progress)) (plugins.Result, error)
	Uninstall(ctx context.Context, name string) ([]string, error)
	CanUninstall(name string) error
	Current(name string) (plugins.InstalledVersion, bool)
}

// installTimeout bounds one download and install started from the window.
const installTimeout = 10 * time.Minute

// PluginsAPI is the window's view of the driver plugins: Settings, Plugins, and the offer of
// the connection-type chooser (SPEC A.3). Its exported methods are bound to the frontend
// (frontend/wailsjs/go/app/PluginsAPI). Downloads report EventPluginProgress.
type PluginsAPI struct {
	base
	m           PluginManager
	registryErr error
	pluginFor   func(ctx context.Context, connType string) (string, error)
}

func (a *PluginsAPI) wire(c *core.Core) {
	a.m, a.registryErr = c.Plugins()
	a.pluginFor = c.PluginFor
	c.OnPluginProgress(a.connectionProgress)
}

// progress emits a download's progress; connectionID names the saved connection waiting for
// it ("" when the download was asked for in the chooser or in Settings).
func (a *PluginsAPI) progress(connectionID string) func(plugins.Progress) {
	return func(p plugins.Progress) {
		a.emit(EventPluginProgress, dto.FromProgress(p, connectionID))
	}
}

// connectionProgress is core's OnPluginProgress: the download of a plugin that a saved
// connection being opened waits for.
func (a *PluginsAPI) connectionProgress(connectionID string, p plugins.Progress) {
	a.progress(connectionID)(p)
}

// List returns the registry's plugins with the installed and available versions. When the
// registry cannot be read, it returns the installed plugins and the reason in RegistryError.
func (a *PluginsAPI) List() (dto.PluginListDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	out := dto.PluginListDTO{Plugins: []dto.PluginDTO{}}
	var list []plugins.Listing
	var err error
	if a.registryErr != nil {
		err = pluginError(a.registryErr)
	} else {
		list, err = a.m.List(ctx)
	}
	for _, l := range list {
		out.Plugins = append(out.Plugins, dto.FromPlugin(l))
	}
	if err != nil {
		out.RegistryError = errorMessage(err)
	}
	return out, nil
}

// Offer describes what choosing a connection type needs: nothing when its plugin is
// installed, else the download the chooser offers (name, version, size, publisher), or why
// there is none for this platform.
func (a *PluginsAPI) Offer(connType string) (dto.PluginOfferDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	name, err := a.pluginFor(ctx, connType)
	if err != nil {
		return dto.PluginOfferDTO{}, apiError(pluginError(err))
	}
	if v, ok := a.m.Current(name); ok {
		return dto.PluginOfferDTO{Plugin: name, Installed: true, Version: v.Version, Publisher: v.Publisher, DisplayName: v.DisplayName}, nil
	}
	if a.registryErr != nil {
		return dto.PluginOfferDTO{}, apiError(pluginError(a.registryErr))
	}
	list, err := a.m.List(ctx)
	if err != nil {
		return dto.PluginOfferDTO{}, apiError(pluginError(err))
	}
	for _, l := range list {
		if l.Name != name {
			continue
		}
		o := dto.PluginOfferDTO{Plugin: name, DisplayName: l.DisplayName, Publisher: l.Publisher, Description: l.Description, Version: l.Available, Size: l.Size, ReleaseNotes: l.ReleaseNotes, FromMirror: l.FromMirror}
		if l.Available == "" {
			o.Unavailable = l.Reason
			if o.Unavailable == "" {
				o.Unavailable = string(plugins.StatusNotForPlatform)
			}
		}
		return o, nil
	}
	return dto.PluginOfferDTO{}, apiError(pluginError(&registry.Error{Code: registry.CodeNotFound, Msg: "The plugin registry does not offer the " + name + " driver."}))
}

// Install downloads, verifies and installs a plugin, reporting EventPluginProgress.
func (a *PluginsAPI) Install(name string) (dto.PluginResultDTO, error) {
	return a.install(name, false)
}

// Update installs a newer version of an installed plugin.
func (a *PluginsAPI) Update(name string) (dto.PluginResultDTO, error) {
	return a.install(name, true)
}

func (a *PluginsAPI) install(name string, update bool) (dto.PluginResultDTO, error) {
	if strings.TrimSpace(name) == "" {
		return dto.PluginResultDTO{}, invalidArgument("a plugin name is required")
	}
	if a.registryErr != nil {
		return dto.PluginResultDTO{}, apiError(pluginError(a.registryErr))
	}
	ctx, cancel := context.WithTimeout(a.parent(), installTimeout)
	defer cancel()
	fn := a.m.Install
	if update {
		fn = a.m.Update
	}
	res, err := fn(ctx, name, a.progress(""))
	if err != nil {
		return dto.PluginResultDTO{}, apiError(pluginError(err))
	}
	return dto.FromPluginResult(res), nil
}

// Uninstall removes a plugin after the person confirms it in a native dialog (issue 25,
// item 11); an uninstall that would be refused (a connection of its type is open) is refused
// first, without a question. It returns the versions removed, none when the person said No.
func (a *PluginsAPI) Uninstall(name string) ([]string, error) {
	if err := a.m.CanUninstall(name); err != nil {
		return nil, apiError(pluginError(err))
	}
	removed := []string{}
	_, err := a.ask("Uninstall the "+name+" plugin",
		"Its connections cannot be opened until it is installed again (it is downloaded again, from the registry, when one is opened).",
		func(ctx context.Context) error {
			r, err := a.m.Uninstall(ctx, name)
			if err != nil {
				return err
			}
			removed = r
			return nil
		})
	if err != nil {
		return nil, apiError(pluginError(err))
	}
	return removed, nil
}

// pluginError gives a refused plugin operation the code CodePlugin; its text is already a
// sentence for the user. A registry that cannot be used (a malformed URL or key in the
// environment or the settings) is such a refusal too; a cancelled or timed-out call keeps
// its own code.
func pluginError(err error) error {
	var re *registry.Error
	if errors.As(err, &re) || errorCode(err) == CodeInternal {
		return &codedError{code: CodePlugin, err: err}
	}
	return err
}

// codedError carries a facade code for errorCode.
type codedError struct {
	code string
	err  error
}

func (e *codedError) Error() string { return e.err.Error() }
func (e *codedError) Unwrap() error { return e.err }
