package dto

import (
	"strings"
	"time"

	"app/backend/connections"
	"app/backend/driver"
)

// ConnectionDTO is a saved connection as the sidebar shows it. It never carries the API
// key. The frontend mirrors it as `Connection` (frontend/src/api/types.ts).
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
	}
}

// ConnectionFormDTO is the connection form (SPEC A "Connection settings"): every field but
// the API key, which goes one way only (Save, Test) and is never sent back.
type ConnectionFormDTO struct {
	// ID is "" for a new connection.
	ID            string `json:"id"`
	Name          string `json:"name"`
	Type          string `json:"type"`
	Host          string `json:"host"`
	Port          int    `json:"port"`
	AuthMethod    string `json:"authMethod"`
	SSLMode       string `json:"sslMode"`
	SkipTLSVerify bool   `json:"skipTLSVerify"`
	CAFile        string `json:"caFile"`
	// GRPCHost and GRPCPort reach the node's gRPC API ("" and 0: the driver's defaults).
	GRPCHost string `json:"grpcHost"`
	GRPCPort int    `json:"grpcPort"`
	// ExternalAccess ("blocked", "readOnly", "readWrite") and AIPolicy ("alwaysAsk",
	// "askForWrites", "neverForWrites") decide what AI clients may do with it.
	ExternalAccess string `json:"externalAccess"`
	AIPolicy       string `json:"aiPolicy"`
	// HasAPIKey tells that a key is saved in the keyring (read-only).
	HasAPIKey bool `json:"hasAPIKey"`
}

// Connection is the connection the form describes (its API key aside).
func (f ConnectionFormDTO) Connection() connections.Connection {
	return connections.Connection{
		ID: f.ID, Name: f.Name, Type: f.Type, ExternalAccess: f.ExternalAccess, AIPolicy: f.AIPolicy,
		Settings: driver.Settings{
			Host: strings.TrimSpace(f.Host), Port: f.Port, AuthMethod: driver.AuthMethod(f.AuthMethod),
			SSLMode: driver.SSLMode(f.SSLMode), SkipTLSVerify: f.SkipTLSVerify, CAFile: strings.TrimSpace(f.CAFile),
			GRPCHost: strings.TrimSpace(f.GRPCHost), GRPCPort: f.GRPCPort,
		},
	}
}

// FormFromConnection fills the form from a saved connection.
func FormFromConnection(c connections.Connection) ConnectionFormDTO {
	s := c.Settings.Normalized()
	return ConnectionFormDTO{
		ID: c.ID, Name: c.Name, Type: c.Type, Host: s.Host, Port: s.Port, AuthMethod: string(s.AuthMethod),
		SSLMode: string(s.SSLMode), SkipTLSVerify: s.SkipTLSVerify, CAFile: s.CAFile, GRPCHost: s.GRPCHost, GRPCPort: s.GRPCPort,
		ExternalAccess: c.ExternalAccess, AIPolicy: c.AIPolicy, HasAPIKey: s.AuthMethod == driver.AuthAPIKey,
	}
}

// TestResultDTO is a successful Test: the server's version.
type TestResultDTO struct {
	ServerVersion string `json:"serverVersion"`
	// Paths are each way to the database, tested separately (Weaviate: REST, GraphQL,
	// gRPC); empty when the driver reports the connection as a whole.
	Paths []PathDTO `json:"paths"`
}

// PathDTO is one way to the database and how it answered a Test.
type PathDTO struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// FromTest is a successful Test: the server's version and each path's answer (never null).
func FromTest(version string, paths []driver.PathStatus) TestResultDTO {
	out := TestResultDTO{ServerVersion: version, Paths: []PathDTO{}}
	for _, p := range paths {
		out.Paths = append(out.Paths, PathDTO(p))
	}
	return out
}
