package weaviate

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"os"

	"app/backend/driver"
)

// tlsConfig builds the client TLS configuration for s (already normalized).
// It returns nil for SSL Mode Disabled (plain HTTP). The modes:
//
//   - Preferred, Required (skip verify), or Skip TLS Verification in any
//     HTTPS mode: encrypt, accept any certificate (self-signed included).
//   - Required: the system trust store checks the chain and the host name,
//     as any HTTPS client does (the hosted cloud service).
//   - Verify CA: the chain must lead to the CA file's certificates (the
//     system trust store without a CA file); the host name is not checked.
//   - Verify Identity: like Verify CA, and the certificate must name the Host.
func tlsConfig(s driver.Settings) (*tls.Config, error) {
	mode := s.SSLMode
	if !mode.UsesTLS() {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: s.Host}
	if s.SkipTLSVerify || mode.AcceptsSelfSigned() {
		cfg.InsecureSkipVerify = true
		return cfg, nil
	}
	var roots *x509.CertPool // nil: the system trust store
	if mode.UsesCAFile() && s.CAFile != "" {
		pem, err := os.ReadFile(s.CAFile)
		if err != nil {
			return nil, driver.Wrap(driver.KindInvalidArgument, err, "the CA file %s cannot be read", s.CAFile)
		}
		roots = x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pem) {
			return nil, driver.Errorf(driver.KindInvalidArgument, "the CA file %s holds no PEM certificate", s.CAFile)
		}
	}
	switch mode {
	case driver.SSLRequired, driver.SSLVerifyIdentity:
		cfg.RootCAs = roots
	case driver.SSLVerifyCA:
		// Check the chain ourselves, without the host name.
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("no server certificate")
			}
			opts := x509.VerifyOptions{Roots: roots, Intermediates: x509.NewCertPool()}
			for _, c := range cs.PeerCertificates[1:] {
				opts.Intermediates.AddCert(c)
			}
			_, err := cs.PeerCertificates[0].Verify(opts)
			return err
		}
	}
	return cfg, nil
}
