package driver

import (
	"strings"
)

// AuthMethod is the connection form's Auth Method.
type AuthMethod string

// The two auth methods of the spec.
const (
	// AuthNone sends no credential.
	AuthNone AuthMethod = "None"
	// AuthAPIKey sends "Authorization: Bearer <API key>".
	AuthAPIKey AuthMethod = "API Key"
)

// SSLMode is the connection form's SSL Mode. Every mode except SSLDisabled
// speaks HTTPS. What each one checks:
//
//	mode                     self-signed  CA checked          host name checked  CA file
//	Disabled                 (plain HTTP, no TLS)
//	Preferred                accepted     no                  no                 ignored
//	Required                 refused      yes (system roots)  yes                ignored
//	Required (skip verify)   accepted     no                  no                 ignored
//	Verify CA                refused*     yes                 no                 used when set
//	Verify Identity          refused*     yes                 yes                used when set
//
// (*) unless the CA file holds the signing certificate. Skip TLS Verification
// turns off every check in every HTTPS mode.
type SSLMode string

// The six SSL modes of the spec.
const (
	SSLDisabled       SSLMode = "Disabled"
	SSLPreferred      SSLMode = "Preferred"
	SSLRequired       SSLMode = "Required"
	SSLRequiredSkip   SSLMode = "Required (skip verify)"
	SSLVerifyCA       SSLMode = "Verify CA"
	SSLVerifyIdentity SSLMode = "Verify Identity"
)

// SSLModes lists every SSL mode in the order the connection form shows them.
func SSLModes() []SSLMode {
	return []SSLMode{SSLDisabled, SSLPreferred, SSLRequired, SSLRequiredSkip, SSLVerifyCA, SSLVerifyIdentity}
}

// Valid reports whether m is one of the six spec values.
func (m SSLMode) Valid() bool {
	for _, v := range SSLModes() {
		if m == v {
			return true
		}
	}
	return false
}

// UsesTLS reports whether the mode speaks HTTPS.
func (m SSLMode) UsesTLS() bool { return m != SSLDisabled }

// AcceptsSelfSigned reports whether the mode alone (without Skip TLS
// Verification) accepts a certificate no trusted CA signed.
func (m SSLMode) AcceptsSelfSigned() bool { return m == SSLPreferred || m == SSLRequiredSkip }

// ChecksCA reports whether the mode verifies the certificate chain.
func (m SSLMode) ChecksCA() bool {
	return m == SSLRequired || m == SSLVerifyCA || m == SSLVerifyIdentity
}

// ChecksHostName reports whether the mode verifies the certificate's host name.
func (m SSLMode) ChecksHostName() bool { return m == SSLRequired || m == SSLVerifyIdentity }

// UsesCAFile reports whether the mode reads Settings.CAFile (when set).
func (m SSLMode) UsesCAFile() bool { return m == SSLVerifyCA || m == SSLVerifyIdentity }

// Settings are one connection's settings. APIKey is never serialized: the key
// lives in the keyring and is filled in before connecting.
type Settings struct {
	Host          string     `json:"host"`
	Port          int        `json:"port"`
	AuthMethod    AuthMethod `json:"authMethod"`
	APIKey        string     `json:"-"`
	SSLMode       SSLMode    `json:"sslMode"`
	SkipTLSVerify bool       `json:"skipTlsVerify"`
	CAFile        string     `json:"caFile,omitempty"`
	// GRPCHost and GRPCPort reach the node's gRPC API, which the driver reads over where a
	// server has GraphQL off. Empty and 0 take the official clients' defaults: the same host
	// and 50051 for a self-hosted node; grpc-<host> on 443 for a hosted cloud cluster. The
	// SSL mode, CA file and API key are the REST connection's.
	GRPCHost string `json:"grpcHost,omitempty"`
	GRPCPort int    `json:"grpcPort,omitempty"`
}

// DefaultPort is the port of a local node. The hosted cloud service answers
// on 443.
const DefaultPort = 8080

// DefaultSettings are the settings a new connection starts with: port 8080,
// SSL Mode Disabled (plain HTTP), Auth Method None.
func DefaultSettings() Settings {
	return Settings{Host: "localhost", Port: DefaultPort, AuthMethod: AuthNone, SSLMode: SSLDisabled}
}

// Validate checks the settings and returns a KindInvalidArgument error naming
// the first bad field. Empty AuthMethod / SSLMode count as None / Disabled.
func (s Settings) Validate() error {
	h := strings.TrimSpace(s.Host)
	switch {
	case h == "":
		return Errorf(KindInvalidArgument, "Host is required")
	case strings.Contains(h, "://"):
		return Errorf(KindInvalidArgument, "Host must be a host name without a scheme (choose HTTPS with SSL Mode)")
	case strings.ContainsAny(h, "/?#@ "):
		return Errorf(KindInvalidArgument, "Host must be a host name, without path, user or spaces")
	}
	if s.Port < 1 || s.Port > 65535 {
		return Errorf(KindInvalidArgument, "Port must be between 1 and 65535")
	}
	if g := strings.TrimSpace(s.GRPCHost); g != "" && (strings.Contains(g, "://") || strings.ContainsAny(g, "/?#@ ")) {
		return Errorf(KindInvalidArgument, "gRPC Host must be a host name, without scheme, path, user or spaces")
	}
	if s.GRPCPort < 0 || s.GRPCPort > 65535 {
		return Errorf(KindInvalidArgument, "gRPC Port must be between 1 and 65535 (or empty for the default)")
	}
	switch s.AuthMethod {
	case "", AuthNone:
	case AuthAPIKey:
		if strings.TrimSpace(s.APIKey) == "" {
			return Errorf(KindInvalidArgument, "API Key is required when Auth Method is API Key")
		}
	default:
		return Errorf(KindInvalidArgument, "Auth Method must be %q or %q", AuthNone, AuthAPIKey)
	}
	if s.SSLMode != "" && !s.SSLMode.Valid() {
		return Errorf(KindInvalidArgument, "SSL Mode %q is not one of Disabled, Preferred, Required, Required (skip verify), Verify CA, Verify Identity", string(s.SSLMode))
	}
	return nil
}

// Normalized returns a copy with defaults filled in (None, Disabled) and the
// host trimmed (surrounding brackets of an IPv6 literal removed).
func (s Settings) Normalized() Settings {
	s.Host = strings.TrimSpace(s.Host)
	s.Host = strings.TrimSuffix(strings.TrimPrefix(s.Host, "["), "]")
	s.GRPCHost = strings.TrimSpace(s.GRPCHost)
	s.GRPCHost = strings.TrimSuffix(strings.TrimPrefix(s.GRPCHost, "["), "]")
	if s.AuthMethod == "" {
		s.AuthMethod = AuthNone
	}
	if s.SSLMode == "" {
		s.SSLMode = SSLDisabled
	}
	return s
}
