package registry

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// Verify checks sigText (an index.json.sig) over the exact index bytes raw against the
// trusted keys and returns the key that signed it. The refusals:
//
//   - CodeBadSignature: the signature file is not a signature, or no trusted key verifies
//     it while the index claims (keyId) to be signed by one of them: the bytes changed.
//   - CodeUnknownKey: the index claims a key the app does not trust.
//
// where names the registry in the messages.
func Verify(raw, sigText []byte, keys []PublicKey, where string) (PublicKey, error) {
	sig, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(sigText)))
	if err != nil || len(sig) != ed25519.SignatureSize {
		return PublicKey{}, &Error{Code: CodeBadSignature, Err: err,
			Msg: fmt.Sprintf("The plugin registry at %s has no valid signature (index.json.sig is not a base64 ed25519 signature), so nothing from it is trusted.", where)}
	}
	for _, k := range keys {
		if ed25519.Verify(k.Key, raw, sig) {
			return k, nil
		}
	}
	claimed := claimedKey(raw)
	for _, k := range keys {
		if claimed == k.ID() {
			return PublicKey{}, &Error{Code: CodeBadSignature,
				Msg: fmt.Sprintf("The plugin registry index at %s fails its signature check: it was changed after it was signed. Nothing from it is installed.", where)}
		}
	}
	if claimed == "" {
		claimed = "that is not named in the index"
	}
	return PublicKey{}, &Error{Code: CodeUnknownKey,
		Msg: fmt.Sprintf("The plugin registry at %s is signed with key %s, which this app does not trust. If you trust this registry, give its public key with --registry-key, $APP_PLUGIN_REGISTRY_KEY or the setting plugins.registryKey.", where, claimed)}
}

// claimedKey reads only the keyId of unverified index bytes, to name the key in a message.
func claimedKey(raw []byte) string {
	var x struct {
		KeyID string `json:"keyId"`
	}
	if json.Unmarshal(raw, &x) != nil || !keyIDRE(x.KeyID) {
		return ""
	}
	return x.KeyID
}

func keyIDRE(s string) bool {
	if len(s) != 16 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
