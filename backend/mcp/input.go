package mcp

import (
	"encoding/json"
	"errors"
)

// The input_required round (SPEC.md B "Result envelope", "States and transitions"): a
// handler of tools/call, resources/read or prompts/get that needs something from the
// client (the user's approval, a sampling answer, the roots) ends its first call with an
// *InputRequired; the client repeats the call with the same params plus requestState and
// inputResponses, and the handler reads them with Call.FollowUp. The protocol core only
// carries the round: what the state holds and how it is signed is the feature's business.

// methodsWithInput are the only methods that may answer input_required (SPEC.md B
// "Endpoints" rule 5) and the only ones whose params may carry requestState and
// inputResponses.
var methodsWithInput = map[string]bool{"tools/call": true, "resources/read": true, "prompts/get": true}

// InputRequest is one entry of inputRequests: a request the client runs on the server's
// behalf (elicitation/create, sampling/createMessage, roots/list) and answers in
// inputResponses under the same name.
type InputRequest struct {
	Method string `json:"method"`
	Params any    `json:"params,omitempty"`
}

// InputRequired ends a handler's call with an input_required result. It travels as the
// handler's error because the handler has no result yet; the core turns it into
// {resultType: "input_required", inputRequests, requestState}. A legacy request never gets
// one (its client cannot read it): the core answers -32603 and logs the handler's mistake.
type InputRequired struct {
	Requests map[string]InputRequest
	// State is the opaque requestState the client sends back on its follow-up call.
	State string
}

func (e *InputRequired) Error() string { return "mcp: input required" }

func (e *InputRequired) result() map[string]any {
	return map[string]any{
		fieldResultType: ResultInputRequired,
		"inputRequests": e.Requests,
		"requestState":  e.State,
	}
}

// asInputRequired returns the *InputRequired err carries, if any.
func asInputRequired(err error) (*InputRequired, bool) {
	var ir *InputRequired
	ok := errors.As(err, &ir)
	return ir, ok
}

// FollowUp is what the client sent back on the repeat of an input_required call.
type FollowUp struct {
	// State is params.requestState ("" on a first call).
	State string
	// Responses are params.inputResponses by request name (nil on a first call).
	Responses map[string]json.RawMessage
}

// IsFollowUp tells whether the call carried requestState or inputResponses: such a call is
// never cached (SPEC.md B "States and transitions").
func (f FollowUp) IsFollowUp() bool { return f.State != "" || f.Responses != nil }

// decodeFollowUp reads requestState and inputResponses from the params of a method that may
// carry them. A requestState that is not a string, or inputResponses that is not an object
// of objects, is -32602.
func decodeFollowUp(method string, members map[string]json.RawMessage) (FollowUp, *Error) {
	var f FollowUp
	if !methodsWithInput[method] {
		return f, nil
	}
	if raw, ok := members["requestState"]; ok && string(raw) != "null" {
		if json.Unmarshal(raw, &f.State) != nil || f.State == "" {
			return f, invalidParams("requestState must be a non-empty string")
		}
	}
	if raw, ok := members["inputResponses"]; ok && string(raw) != "null" {
		if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &f.Responses) != nil {
			return f, invalidParams("inputResponses must be an object")
		}
		for name, v := range f.Responses {
			if len(v) == 0 || v[0] != '{' {
				return f, invalidParams("inputResponses." + truncate(name, 100) + " must be an object")
			}
		}
		if f.Responses == nil {
			f.Responses = map[string]json.RawMessage{}
		}
	}
	return f, nil
}
