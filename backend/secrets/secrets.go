// Package secrets keeps API keys, token hashes and signing keys in the keyring, behind one
// small interface, so that no secret is ever written to a config file. Desktops use the OS
// keychain; headless machines and CI choose the encrypted-file backend with
// APP_KEYRING_BACKEND=file and APP_KEYRING_PASSWORD.
package secrets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/99designs/keyring"

	"app/backend/osplaces"
)

// ServiceName names the app's entries in the OS keychain.
const ServiceName = "App"

// Environment variables that choose the backend.
const (
	EnvBackend  = "APP_KEYRING_BACKEND"
	EnvPassword = "APP_KEYRING_PASSWORD"
)

// ErrNotFound is returned by Get for a key that has no secret.
var ErrNotFound = errors.New("secret not found")

// Keyring stores secrets by key.
type Keyring interface {
	Get(key string) (string, error)
	Set(key, value string) error
	Delete(key string) error
}

// checkKey is written on first use of a file keyring and read on every open, so that a
// wrong password is reported at once instead of on the first secret the user needs.
const checkKey = "app.keyring-check"

// Options choose and configure the backend. Zero values come from the environment.
type Options struct {
	// Backend is "file", "keyctl", "secret-service", "keychain", "wincred" or "" for the
	// platform's OS keychain.
	Backend string
	// Password opens the file backend.
	Password string
	// Dir holds the file backend's files (normally <config dir>/keyring).
	Dir string
}

// OptionsFromEnv reads the backend choice from APP_KEYRING_BACKEND and APP_KEYRING_PASSWORD.
func OptionsFromEnv(configDir string) Options {
	return Options{
		Backend:  strings.TrimSpace(os.Getenv(EnvBackend)),
		Password: os.Getenv(EnvPassword),
		Dir:      filepath.Join(configDir, "keyring"),
	}
}

// Open opens the keyring the options name.
func Open(opts Options) (Keyring, error) {
	cfg := keyring.Config{
		ServiceName:             ServiceName,
		LibSecretCollectionName: "login",
		KeyCtlScope:             "user",
		KWalletAppID:            ServiceName,
		KWalletFolder:           ServiceName,
		KeychainName:            "login",
		WinCredPrefix:           ServiceName,
	}
	switch opts.Backend {
	case "":
		// The OS's own keychain (backend/osplaces: the Keychain on macOS, the Credential
		// Manager on Windows, the Secret Service, KWallet or keyctl on Linux).
		for _, k := range osplaces.Current().Keychains {
			cfg.AllowedBackends = append(cfg.AllowedBackends, keyring.BackendType(k))
		}
	case "file":
		if opts.Password == "" {
			return nil, fmt.Errorf("keyring: %s=file needs %s: set the password that encrypts %s", EnvBackend, EnvPassword, opts.Dir)
		}
		if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
			return nil, fmt.Errorf("keyring: cannot create %s: %w", opts.Dir, err)
		}
		cfg.AllowedBackends = []keyring.BackendType{keyring.FileBackend}
		cfg.FileDir = opts.Dir
		cfg.FilePasswordFunc = keyring.FixedStringPrompt(opts.Password)
	case "keyctl":
		cfg.AllowedBackends = []keyring.BackendType{keyring.KeyCtlBackend}
	case "secret-service":
		cfg.AllowedBackends = []keyring.BackendType{keyring.SecretServiceBackend}
	case "keychain":
		cfg.AllowedBackends = []keyring.BackendType{keyring.KeychainBackend}
	case "wincred":
		cfg.AllowedBackends = []keyring.BackendType{keyring.WinCredBackend}
	default:
		return nil, fmt.Errorf("keyring: %s=%q is not a backend: use file, keyctl, secret-service, keychain or wincred", EnvBackend, opts.Backend)
	}
	ring, err := keyring.Open(cfg)
	if err != nil {
		return nil, fmt.Errorf("keyring: no OS keychain is available here (%v): on a headless machine set %s=file and %s", err, EnvBackend, EnvPassword)
	}
	k := &store{ring: ring}
	if opts.Backend == "file" {
		if err := k.verifyPassword(opts.Dir); err != nil {
			return nil, err
		}
	}
	return k, nil
}

type store struct{ ring keyring.Keyring }

func (s *store) verifyPassword(dir string) error {
	_, err := s.ring.Get(checkKey)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, keyring.ErrKeyNotFound):
		if err := s.ring.Set(keyring.Item{Key: checkKey, Data: []byte("ok")}); err != nil {
			return fmt.Errorf("keyring: cannot write to %s: %w", dir, err)
		}
		return nil
	default:
		return fmt.Errorf("keyring: the password in %s does not open %s: set the password it was created with, or move that folder away to start a new keyring", EnvPassword, dir)
	}
}

func (s *store) Get(key string) (string, error) {
	item, err := s.ring.Get(key)
	if errors.Is(err, keyring.ErrKeyNotFound) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("keyring: read %s: %w", key, err)
	}
	return string(item.Data), nil
}

func (s *store) Set(key, value string) error {
	if err := s.ring.Set(keyring.Item{Key: key, Data: []byte(value), Label: ServiceName + " " + key}); err != nil {
		return fmt.Errorf("keyring: write %s: %w", key, err)
	}
	return nil
}

func (s *store) Delete(key string) error {
	err := s.ring.Remove(key)
	if err != nil && !errors.Is(err, keyring.ErrKeyNotFound) && !os.IsNotExist(err) {
		return fmt.Errorf("keyring: delete %s: %w", key, err)
	}
	return nil
}

// Lazy opens the keyring on first use. The headless server and most CLI commands never
// touch a secret, and opening an OS keychain can prompt the user, so opening waits until a
// secret is needed; an open error is returned from every call until one succeeds.
func Lazy(open func() (Keyring, error)) Keyring { return &lazy{open: open} }

type lazy struct {
	mu   sync.Mutex
	open func() (Keyring, error)
	ring Keyring
}

func (l *lazy) get() (Keyring, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ring != nil {
		return l.ring, nil
	}
	r, err := l.open()
	if err != nil {
		return nil, err
	}
	l.ring = r
	return r, nil
}

func (l *lazy) Get(key string) (string, error) {
	r, err := l.get()
	if err != nil {
		return "", err
	}
	return r.Get(key)
}

func (l *lazy) Set(key, value string) error {
	r, err := l.get()
	if err != nil {
		return err
	}
	return r.Set(key, value)
}

func (l *lazy) Delete(key string) error {
	r, err := l.get()
	if err != nil {
		return err
	}
	return r.Delete(key)
}
