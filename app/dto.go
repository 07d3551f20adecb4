package app

import (
	"time"

	"app/backend/connections"
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

func toConnectionDTO(c connections.Connection) ConnectionDTO {
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
