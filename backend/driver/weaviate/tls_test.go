package weaviate

import (
	"testing"

	"app/backend/driver"
)

// The TLS configuration each SSL mode builds (the integration tests prove the
// behaviour against the TLS node; this pins what Required does with the
// system trust store, which a test cannot extend).
func TestTLSConfigPerSSLMode(t *testing.T) {
	tests := []struct {
		mode       driver.SSLMode
		skip       bool
		nilConfig  bool
		insecure   bool
		customName bool // VerifyConnection without host name
	}{
		{driver.SSLDisabled, false, true, false, false},
		{driver.SSLDisabled, true, true, false, false},
		{driver.SSLPreferred, false, false, true, false},
		{driver.SSLRequired, false, false, false, false},
		{driver.SSLRequired, true, false, true, false},
		{driver.SSLRequiredSkip, false, false, true, false},
		{driver.SSLVerifyCA, false, false, true, true},
		{driver.SSLVerifyIdentity, false, false, false, false},
		{driver.SSLVerifyIdentity, true, false, true, false},
	}
	for _, tt := range tests {
		s := driver.Settings{Host: "db.example", Port: 443, SSLMode: tt.mode, SkipTLSVerify: tt.skip}.Normalized()
		cfg, err := tlsConfig(s)
		if err != nil {
			t.Fatal(err)
		}
		if (cfg == nil) != tt.nilConfig {
			t.Errorf("%s skip=%v: config %v", tt.mode, tt.skip, cfg)
			continue
		}
		if cfg == nil {
			continue
		}
		if cfg.InsecureSkipVerify != tt.insecure || (cfg.VerifyConnection != nil) != tt.customName || cfg.ServerName != "db.example" {
			t.Errorf("%s skip=%v: insecure=%v verifyConn=%v name=%q", tt.mode, tt.skip, cfg.InsecureSkipVerify, cfg.VerifyConnection != nil, cfg.ServerName)
		}
		if tt.mode == driver.SSLRequired && !tt.skip && cfg.RootCAs != nil {
			t.Error("Required must use the system trust store")
		}
	}
	d, err := New(driver.Settings{Host: "h", Port: 1, SSLMode: driver.SSLPreferred})
	if err != nil || d.BaseURL() != "https://h:1" {
		t.Errorf("%v %s", err, d.BaseURL())
	}
	d, _ = New(driver.Settings{Host: "::1", Port: 8080})
	if d.BaseURL() != "http://[::1]:8080" {
		t.Errorf("%s", d.BaseURL())
	}
}
