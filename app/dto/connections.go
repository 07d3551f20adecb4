package dto

import (
	"slices"
	"strings"
	"time"

	"app/backend/connections"
	"app/backend/driver"
)

// ConnectionDTO is a saved connection as the sidebar shows it. It never carries the API
// key.
type ConnectionDTO struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Type is the database type, e.g. "weaviate".
	Type string `json:"type"`
	Host string `json:"host"`
	Port int    `json:"port"`
	// AuthMethod is "None" or "API Key".
	AuthMethod string `json:"authMethod"`
	// SSLMode is one of the six SSL modes of the spec, e.g. "Disabled".
	SSLMode       string `json:"sslMode"`
	SkipTLSVerify bool   `json:"skipTLSVerify"`
	// ExternalAccess is "blocked", "readOnly" or "readWrite" (connections.Access*).
	ExternalAccess string `json:"externalAccess"`
	// CreatedAt is RFC 3339 in UTC.
	CreatedAt string `json:"createdAt"`
	// Address is where it points, as its type's description says (host:port, a file);
	// TypeLabel the type's label ("" where the description is not at hand).
	Address   string `json:"address"`
	TypeLabel string `json:"typeLabel"`
	// Language is what its editor and execute_query take, in its driver's words ("" when
	// not known).
	Language string `json:"language"`
	// Settings are its settings as the connection page lists them: each described field that
	// applies and has a value, by its label, beside the address (never a secret's value).
	Settings []SettingRowDTO `json:"settings"`
}

// SettingRowDTO is one setting of a connection as its page shows it.
type SettingRowDTO struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// settingRows are the settings d describes that apply to s and have a value, by label, left
// out the address's own keys; a bool is On or Off, a secret "saved in the keyring" when kept.
func settingRows(d driver.Description, s driver.Settings, secrets []string) []SettingRowDTO {
	out := []SettingRowDTO{}
	for _, f := range d.Settings {
		if !f.Applies(s) || slices.Contains(d.Address, f.Key) {
			continue
		}
		v := s.Value(f.Key)
		switch f.Kind {
		case driver.FieldSecret:
			if !slices.Contains(secrets, f.Key) {
				continue
			}
			v = "saved in the keyring"
		case driver.FieldBool:
			if v == "true" {
				v = "On"
			} else {
				v = "Off"
			}
		}
		if v != "" {
			out = append(out, SettingRowDTO{Label: f.Label, Value: v})
		}
	}
	return out
}

// Described is the sidebar's view of a connection with its type's description: its address
// and the type's label.
func Described(c connections.Connection, d driver.Description) ConnectionDTO {
	out := FromConnection(c)
	out.Address = d.AddressOf(c.Settings.Normalized())
	if t, ok := d.Type(c.Type); ok {
		out.TypeLabel = t.Label
	}
	if d.Words != nil {
		out.Language = d.Words.Language
	}
	out.Settings = settingRows(d, c.Settings.Normalized(), connections.SavedSecrets(c))
	return out
}

// FromConnection is the sidebar's view of a saved connection.
func FromConnection(c connections.Connection) ConnectionDTO {
	s := c.Settings.Normalized()
	created := ""
	if !c.CreatedAt.IsZero() {
		created = c.CreatedAt.UTC().Format(time.RFC3339)
	}
	return ConnectionDTO{
		ID:             c.ID,
		Name:           c.Name,
		Type:           c.Type,
		Host:           s.Host,
		Port:           s.Port,
		AuthMethod:     string(s.AuthMethod),
		SSLMode:        string(s.SSLMode),
		SkipTLSVerify:  s.SkipTLSVerify,
		ExternalAccess: c.ExternalAccess,
		CreatedAt:      created,
		Address:        driver.ProtocolTwoDescription().AddressOf(s),
		Settings:       fallbackRows(c),
	}
}

// fallbackRows are the rows of a connection whose type's description is not at hand (its
// plugin not installed): protocol 2's fields where it has them (a host), else none.
func fallbackRows(c connections.Connection) []SettingRowDTO {
	if c.Settings.Host == "" {
		return []SettingRowDTO{}
	}
	return settingRows(driver.ProtocolTwoDescription(c.Type), c.Settings.Normalized(), connections.SavedSecrets(c))
}

// ConnectionFormDTO is the connection form (contract 3: the fields its type's plugin
// describes): every value but the secrets, which go one way only (Save, Test) and are never
// sent back.
type ConnectionFormDTO struct {
	// ID is "" for a new connection.
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"type"`
	// Values are the settings by their description's keys, as text ("true"/"false" for a
	// bool); a key left out is empty.
	Values map[string]string `json:"values"`
	// ExternalAccess ("blocked", "readOnly", "readWrite") and AIPolicy ("alwaysAsk",
	// "askForWrites", "neverForWrites") decide what AI clients may do with it.
	ExternalAccess string `json:"externalAccess"`
	AIPolicy       string `json:"aiPolicy"`
	// SavedSecrets are the keys of the secrets saved in the keyring (read-only).
	SavedSecrets []string `json:"savedSecrets"`
}

// Connection is the connection the form describes (its secrets aside). A value that cannot
// be read (a port that is not a number) is an invalid_argument error naming its key.
func (f ConnectionFormDTO) Connection() (connections.Connection, error) {
	c := connections.Connection{ID: f.ID, Name: f.Name, Type: f.Type, ExternalAccess: f.ExternalAccess, AIPolicy: f.AIPolicy}
	for k, v := range f.Values {
		if err := c.Settings.SetValue(k, strings.TrimSpace(v)); err != nil {
			return c, err
		}
	}
	return c, nil
}

// FormFromConnection fills the form from a saved connection.
func FormFromConnection(c connections.Connection) ConnectionFormDTO {
	s := c.Settings.Normalized()
	values := map[string]string{}
	for _, k := range []string{driver.KeyHost, driver.KeyPort, driver.KeyAuthMethod, driver.KeySSLMode, driver.KeySkipTLSVerify, driver.KeyCAFile, driver.KeyGRPCHost, driver.KeyGRPCPort} {
		if v := s.Value(k); v != "" && v != "false" {
			values[k] = v
		}
	}
	for k, v := range s.Values {
		values[k] = v
	}
	saved := append([]string{}, connections.SavedSecrets(c)...)
	return ConnectionFormDTO{
		ID: c.ID, Name: c.Name, Type: c.Type, Values: values,
		ExternalAccess: c.ExternalAccess, AIPolicy: c.AIPolicy, SavedSecrets: saved,
	}
}

// TestResultDTO is a successful Test: the server's version.
type TestResultDTO struct {
	ServerVersion string `json:"serverVersion"`
	// Paths are each way to the database, tested separately (Weaviate: REST, GraphQL,
	// gRPC); empty when the driver reports the connection as a whole.
	Paths []PathStatusDTO `json:"paths"`
	// Changed are the settings the person let the test change (a driver's Fix, asked
	// natively): the form takes them before it saves.
	Changed map[string]string `json:"changed,omitempty"`
}

// PathStatusDTO is one way to the database and how it answered a Test.
type PathStatusDTO struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// FromTest is a successful Test: the server's version and each path's answer (never null).
func FromTest(version string, paths []driver.PathStatus) TestResultDTO {
	out := TestResultDTO{ServerVersion: version, Paths: []PathStatusDTO{}}
	for _, p := range paths {
		out.Paths = append(out.Paths, PathStatusDTO(p))
	}
	return out
}

// URLFieldsDTO is what a connection URL fills: setting values and secrets by key (never null).
type URLFieldsDTO struct {
	Values  map[string]string `json:"values"`
	Secrets map[string]string `json:"secrets"`
}
