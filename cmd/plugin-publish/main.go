// Command plugin-publish builds the driver plugins (pluginpub.Shipped: Weaviate, PostgreSQL, SQLite) for
// each platform asked for and publishes them into a registry directory (package
// internal/pluginpub): the artifacts under
// <plugin>/<version>/, then index.json (older versions kept) signed with ed25519 into
// index.json.sig. `make plugins` runs it for the six desktop platforms; `make run` runs it
// for this machine into a local dev registry.
//
//	plugin-publish --out DIR [--version V] [--platforms desktop|host|os/arch,...] [--key-file F] [--plugin NAME,...]
//	plugin-publish --gen-key F   write a new signing key to F (0600) unless F exists
//
// The signing key is the text of a key file (registry.FormatPrivateKey): from --key-file, else
// from $APP_PLUGIN_SIGNING_KEY. The public key the app must trust (--registry-key) is printed
// on the last line of standard output: "registry key ed25519:...".
package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"app/backend/plugins/registry"
	"app/internal/pluginpub"
)

// EnvSigningKey holds the signing key's text when no --key-file is given.
const EnvSigningKey = "APP_PLUGIN_SIGNING_KEY"

func main() {
	if err := run(context.Background(), os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "plugin-publish:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	fl := flag.NewFlagSet("plugin-publish", flag.ContinueOnError)
	out := fl.String("out", "", "registry directory to publish into (created if missing)")
	version := fl.String("version", "1.0.0", "the plugin version to publish")
	platforms := fl.String("platforms", "desktop", `comma-separated os/arch list, "desktop" (the six desktop platforms) or "host"`)
	keyFile := fl.String("key-file", "", "signing key file (default: the text in $"+EnvSigningKey+")")
	genKey := fl.String("gen-key", "", "write a new signing key to this file (kept when it exists) and exit")
	notes := fl.String("notes", "", "release notes of the version")
	only := fl.String("plugin", "", "publish only these plugins (comma-separated names; default: every shipped plugin)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *genKey != "" {
		return generateKey(*genKey)
	}
	if *out == "" {
		return errors.New("--out DIR is required")
	}
	key, err := signingKey(*keyFile)
	if err != nil {
		return err
	}
	plats, err := pluginpub.ParsePlatforms(*platforms)
	if err != nil {
		return err
	}
	published := 0
	for _, p := range pluginpub.Shipped {
		if *only != "" && !contains(strings.Split(*only, ","), p.Plugin.Name) {
			continue
		}
		err = pluginpub.Publish(ctx, pluginpub.Release{
			Dir: *out, Version: *version, Platforms: plats, Key: key, Notes: *notes, Plugin: p.Plugin, Package: p.Package,
			Log: func(f string, a ...any) { fmt.Printf(p.Plugin.Name+" "+f+"\n", a...) },
		})
		if err != nil {
			return err
		}
		fmt.Printf("published %s %s into %s\n", p.Plugin.Name, *version, *out)
		published++
	}
	if published == 0 {
		return fmt.Errorf("--plugin %q names no shipped plugin", *only)
	}
	fmt.Printf("registry key %s\n", registry.PublicKey{Key: key.Public().(ed25519.PublicKey)})
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.TrimSpace(x) == s {
			return true
		}
	}
	return false
}

func signingKey(file string) (ed25519.PrivateKey, error) {
	text, where := os.Getenv(EnvSigningKey), "$"+EnvSigningKey
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		text, where = string(b), file
	}
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("no signing key: set $%s to the text of a key file or pass --key-file (make one with --gen-key FILE)", EnvSigningKey)
	}
	k, err := registry.ParsePrivateKey(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	return k, nil
}

func generateKey(path string) error {
	if _, err := os.Stat(path); err == nil {
		fmt.Printf("kept the signing key in %s\n", path)
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	_, text, err := registry.GenerateKey()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Printf("wrote a new signing key to %s\n", path)
	return nil
}
