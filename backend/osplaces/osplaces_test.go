package osplaces

import (
	"reflect"
	"testing"
)

// Issue 20, item 5: the code paths that differ per OS, tested for each OS's layout on any
// machine: where the config dir goes (as os.UserConfigDir places it), the names of the app and
// the bridge beside it, and the keychain.
func TestEachOperatingSystemsLayout(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		rule string
		goos string
		home string
		env  map[string]string
		want Layout
	}{
		{"Linux: ~/.config, app and app-mcp, the Secret Service first", "linux", "/home/ada", nil,
			Layout{ConfigBase: "/home/ada/.config", App: "app", Bridge: "app-mcp", Keychains: []string{"secret-service", "kwallet", "keyctl"}}},
		{"Linux: $XDG_CONFIG_HOME when it is absolute", "linux", "/home/ada", map[string]string{"XDG_CONFIG_HOME": "/data/conf"},
			Layout{ConfigBase: "/data/conf", App: "app", Bridge: "app-mcp", Keychains: []string{"secret-service", "kwallet", "keyctl"}}},
		{"Linux: a relative $XDG_CONFIG_HOME is ignored, as the spec says", "linux", "/home/ada", map[string]string{"XDG_CONFIG_HOME": "conf"},
			Layout{ConfigBase: "/home/ada/.config", App: "app", Bridge: "app-mcp", Keychains: []string{"secret-service", "kwallet", "keyctl"}}},
		{"macOS: ~/Library/Application Support, the bundle's MacOS folder holds both programs, the Keychain", "darwin", "/Users/ada", nil,
			Layout{ConfigBase: "/Users/ada/Library/Application Support", App: "app", Bridge: "app-mcp", Keychains: []string{"keychain"}}},
		{"Windows: %AppData%, .exe names, the Credential Manager", "windows", `C:\Users\ada`, map[string]string{"AppData": `C:\Users\ada\AppData\Roaming`},
			Layout{ConfigBase: `C:\Users\ada\AppData\Roaming`, App: "app.exe", Bridge: "app-mcp.exe", Keychains: []string{"wincred"}}},
		{"Windows without %AppData%: the roaming folder under the profile", "windows", `C:\Users\ada`, nil,
			Layout{ConfigBase: `C:\Users\ada\AppData\Roaming`, App: "app.exe", Bridge: "app-mcp.exe", Keychains: []string{"wincred"}}},
		{"no home and no variable: no config base (the app then asks for --config-dir)", "linux", "", nil,
			Layout{ConfigBase: "", App: "app", Bridge: "app-mcp", Keychains: []string{"secret-service", "kwallet", "keyctl"}}},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			if got := For(c.goos, c.home, env(c.env)); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}
