package driver

import (
	"maps"
	"strconv"
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
	// Values are the settings a plugin describes beyond the fields above (which protocol 2
	// carries in fields of their own), by key. Value and SetValue read and write every key.
	Values map[string]string `json:"values,omitempty"`
	// Secrets are the secret settings beyond APIKey, by key: never serialized, kept in the
	// keyring; SecretKeys names the ones saved there.
	Secrets    map[string]string `json:"-"`
	SecretKeys []string          `json:"secretKeys,omitempty"`
}

// The keys of the settings protocol 2 carries in fields of their own (the Settings message).
// A plugin's description names its fields by key; these keys land in the fields above and
// every other key in Values, so the published protocol-2 plugins read what they always read.
const (
	KeyHost          = "host"
	KeyPort          = "port"
	KeyAuthMethod    = "authMethod"
	KeyAPIKey        = "apiKey"
	KeySSLMode       = "sslMode"
	KeySkipTLSVerify = "skipTLSVerify"
	KeyCAFile        = "caFile"
	KeyGRPCHost      = "grpcHost"
	KeyGRPCPort      = "grpcPort"
)

// FixedKey reports whether key is one of protocol 2's own fields (KeyHost, ...), which live in
// Settings' fields and never in Values.
func FixedKey(key string) bool {
	switch key {
	case KeyHost, KeyPort, KeyAuthMethod, KeyAPIKey, KeySSLMode, KeySkipTLSVerify, KeyCAFile, KeyGRPCHost, KeyGRPCPort:
		return true
	}
	return false
}

// Value is the setting of that key as text ("" when unset; a bool is "true" or "false").
func (s Settings) Value(key string) string {
	switch key {
	case KeyHost:
		return s.Host
	case KeyPort:
		return portText(s.Port)
	case KeyAuthMethod:
		return string(s.AuthMethod)
	case KeySSLMode:
		return string(s.SSLMode)
	case KeySkipTLSVerify:
		return strconv.FormatBool(s.SkipTLSVerify)
	case KeyCAFile:
		return s.CAFile
	case KeyGRPCHost:
		return s.GRPCHost
	case KeyGRPCPort:
		return portText(s.GRPCPort)
	}
	return s.Values[key]
}

func portText(p int) string {
	if p == 0 {
		return ""
	}
	return strconv.Itoa(p)
}

// SetValue sets the setting of that key from text. A port that is not a whole number is an
// InvalidArgument error naming the key.
func (s *Settings) SetValue(key, v string) error {
	switch key {
	case KeyHost:
		s.Host = v
	case KeyPort, KeyGRPCPort:
		n := 0
		if t := strings.TrimSpace(v); t != "" {
			var err error
			if n, err = strconv.Atoi(t); err != nil {
				e := Errorf(KindInvalidArgument, "%s must be a whole number, not %q", key, v)
				e.Field = key
				return e
			}
		}
		if key == KeyPort {
			s.Port = n
		} else {
			s.GRPCPort = n
		}
	case KeyAuthMethod:
		s.AuthMethod = AuthMethod(v)
	case KeySSLMode:
		s.SSLMode = SSLMode(v)
	case KeySkipTLSVerify:
		switch strings.TrimSpace(v) {
		case "true":
			s.SkipTLSVerify = true
		case "false", "":
			s.SkipTLSVerify = false
		default:
			e := Errorf(KindInvalidArgument, "%s must be true or false, not %q", key, v)
			e.Field = key
			return e
		}
	case KeyCAFile:
		s.CAFile = v
	case KeyGRPCHost:
		s.GRPCHost = v
	case KeyAPIKey:
		s.APIKey = v
	default:
		if s.Values == nil {
			s.Values = map[string]string{}
		}
		if v == "" {
			delete(s.Values, key)
		} else {
			s.Values[key] = v
		}
	}
	return nil
}

// Secret is the secret setting of that key ("" when not filled in).
func (s Settings) Secret(key string) string {
	if key == KeyAPIKey {
		return s.APIKey
	}
	return s.Secrets[key]
}

// SetSecret fills in a secret setting.
func (s *Settings) SetSecret(key, v string) {
	if key == KeyAPIKey {
		s.APIKey = v
		return
	}
	if s.Secrets == nil {
		s.Secrets = map[string]string{}
	}
	s.Secrets[key] = v
}

// Clone is a copy that shares no map with s.
func (s Settings) Clone() Settings {
	s.Values = maps.Clone(s.Values)
	s.Secrets = maps.Clone(s.Secrets)
	s.SecretKeys = append([]string(nil), s.SecretKeys...)
	return s
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

// ProtocolTwoFields are the settings of a plugin that does not describe itself (protocol 2,
// published before contract 3): the fields of protocol 2's Settings message, which is all
// such a plugin reads. The labels are the connection form's since the spec.
func ProtocolTwoFields() []SettingField {
	whenKey := &Condition{Key: KeyAuthMethod, In: []string{string(AuthAPIKey)}}
	whenCA := &Condition{Key: KeySSLMode, In: []string{string(SSLVerifyCA), string(SSLVerifyIdentity)}}
	ssl := make([]string, 0, 6)
	for _, m := range SSLModes() {
		ssl = append(ssl, string(m))
	}
	return []SettingField{
		{Key: KeyHost, Label: "Host", Kind: FieldText, Default: "localhost", Required: true, Format: FormatHost},
		{Key: KeyPort, Label: "Port", Kind: FieldInt, Default: strconv.Itoa(DefaultPort), Required: true, Min: 1, Max: 65535},
		{Key: KeyAuthMethod, Label: "Auth Method", Kind: FieldEnum, Default: string(AuthNone), Options: []string{string(AuthNone), string(AuthAPIKey)}},
		{Key: KeyAPIKey, Label: "API Key", Kind: FieldSecret, Required: true, ShowWhen: whenKey,
			Help: "Stored in the system keyring, never in a file, and never shown again"},
		{Key: KeySSLMode, Label: "SSL Mode", Kind: FieldEnum, Default: string(SSLDisabled), Options: ssl},
		{Key: KeySkipTLSVerify, Label: "Skip TLS Verification", Kind: FieldBool, Section: "Advanced",
			Help: "Trust any certificate, even with Verify CA or Verify Identity"},
		{Key: KeyCAFile, Label: "CA file", Kind: FieldPath, Section: "Advanced", ShowWhen: whenCA,
			Help: "PEM file of the CA that signed the server's certificate; empty uses the system's"},
		{Key: KeyGRPCHost, Label: "gRPC host", Kind: FieldText, Section: "Advanced", Format: FormatHost},
		{Key: KeyGRPCPort, Label: "gRPC port", Kind: FieldInt, Section: "Advanced", Min: 1, Max: 65535},
	}
}

// ProtocolTwoDescription describes a connection type served by a plugin that does not
// describe itself: its name as its label, ProtocolTwoFields, addressed by host and port.
func ProtocolTwoDescription(types ...string) Description {
	d := Description{Settings: ProtocolTwoFields(), Address: []string{KeyHost, KeyPort}}
	for _, t := range types {
		label := t
		if t != "" {
			label = strings.ToUpper(t[:1]) + t[1:]
		}
		d.Types = append(d.Types, ConnectionType{Name: t, Label: label})
	}
	return d
}
