package registry

// Code names why a plugin operation was refused, for the UI and --json output.
type Code string

// The refusals. Each has its own message; none leaves anything on disk.
const (
	// CodeNoRegistry: a developer build was given no registry (no official one is stamped in).
	CodeNoRegistry Code = "no_registry"
	// CodeUnreachable: the registry (or an artifact's server) did not answer.
	CodeUnreachable Code = "unreachable"
	// CodeBadSignature: the index's signature is missing or does not match its bytes.
	CodeBadSignature Code = "bad_signature"
	// CodeUnknownKey: the index is signed with a key the app does not trust.
	CodeUnknownKey Code = "unknown_key"
	// CodeBadIndex: a verified index that is malformed.
	CodeBadIndex Code = "bad_index"
	// CodeNotFound: the registry has no such plugin.
	CodeNotFound Code = "not_found"
	// CodeWrongPlatform: no build for this OS and architecture, or a build that holds a
	// program for another one.
	CodeWrongPlatform Code = "wrong_platform"
	// CodeMobileOnly: the plugin is only built for mobile platforms.
	CodeMobileOnly Code = "mobile_only"
	// CodeIncompatible: every build for this platform needs a newer app or speaks another
	// plugin protocol.
	CodeIncompatible Code = "incompatible"
	// CodeCorrupted: the download's SHA-256 or size is not the signed index's.
	CodeCorrupted Code = "corrupted"
	// CodeTruncated: the download ended before the signed size.
	CodeTruncated Code = "truncated"
	// CodeBadArtifact: the download is no valid plugin archive, or the plugin in it is not
	// the one the index names.
	CodeBadArtifact Code = "bad_artifact"
	// CodeNotInstalled: the plugin is not installed.
	CodeNotInstalled Code = "not_installed"
	// CodeInUse: the plugin cannot be removed while it serves a connection.
	CodeInUse Code = "in_use"
	// CodeCancelled: the caller cancelled the operation (not a refusal; nothing is left).
	CodeCancelled Code = "cancelled"
)

// Error is a refused plugin operation. Msg is a sentence for the user; Err the cause, for
// errors.Is/As and logs.
type Error struct {
	Code Code
	Msg  string
	Err  error
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, &Error{Code: c}) match any Error with code c.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Msg == "" && t.Err == nil && t.Code == e.Code
}

// CodeOf returns err's Code, or "".
func CodeOf(err error) Code {
	for err != nil {
		if e, ok := err.(*Error); ok {
			return e.Code
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return ""
		}
		err = u.Unwrap()
	}
	return ""
}
