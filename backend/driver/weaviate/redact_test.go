package weaviate

import (
	"net/http"
	"strings"
	"testing"

	"app/backend/driver"
)

// A non-JSON error page (a proxy's, say) is shortened to 300 bytes for the message; an
// API key it echoes is redacted first, so no part of the key survives the cut. No real
// Weaviate echoes the key, so the page is written here.
func TestAnErrorPageNeverCarriesTheKeyEvenWhereItIsCut(t *testing.T) {
	const key = "wv-key-0123456789abcdefghijklmnopqrstuvwxyz"
	d := &Driver{s: driver.Settings{AuthMethod: driver.AuthAPIKey, APIKey: key}, hostTxt: "127.0.0.1:1"}
	const header = "Authorization: Bearer "
	// at: the byte the key starts at; from 259 on, the 300-byte cut falls inside it.
	for _, at := range []int{len(header), 270, 285, 294} {
		page := strings.Repeat("x", at-len(header)) + header + key + " " + strings.Repeat("y", 400)
		msg := d.statusError(http.StatusBadGateway, []byte(page), "the update").Error()
		for n := 6; n <= len(key); n++ {
			if strings.Contains(msg, key[:n]) {
				t.Fatalf("key at byte %d: the message holds %q of the key: %s", at, key[:n], msg)
			}
		}
	}
}
