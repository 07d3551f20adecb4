// Package selfsigned makes the certificates of the test harness's TLS servers.
package selfsigned

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Write writes a fresh self-signed certificate (valid for 127.0.0.1, ::1 and localhost)
// and its key into dir, and returns the certificate PEM and both paths. The certificate is
// its own CA, so trusting CACertPEM is what "Verify CA" and "Verify Identity" need; a client
// with only the system pool fails with an x509 "unknown authority" error, as it should.
func Write(dir, org string) (certPEM []byte, certFile, keyFile string, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, "", "", fmt.Errorf("generate TLS key: %v", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, "", "", fmt.Errorf("generate TLS serial: %v", err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "localhost", Organization: []string{org}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(30 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, "", "", fmt.Errorf("create TLS certificate: %v", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, "", "", fmt.Errorf("encode TLS key: %v", err)
	}
	certPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	certFile = filepath.Join(dir, "node-cert.pem")
	keyFile = filepath.Join(dir, "node-key.pem")
	if err := os.WriteFile(certFile, certPEM, 0o644); err != nil {
		return nil, "", "", fmt.Errorf("write TLS certificate: %v", err)
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
	if err := os.WriteFile(keyFile, keyPEM, 0o600); err != nil {
		return nil, "", "", fmt.Errorf("write TLS key: %v", err)
	}
	return certPEM, certFile, keyFile, nil
}
