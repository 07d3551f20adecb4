package main

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"app/backend/mcp"
)

// The input_required fixtures (SEP-2322, modern era): a handler asks for one round of
// input requests after another; the round it is in travels in a requestState signed with
// HMAC-SHA256, so a tampered state is refused (-32602) and each round's state differs.

// round is one set of input requests, by name.
type round map[string]mcp.InputRequest

// stateSigner signs and verifies requestState.
type stateSigner struct{ key []byte }

func newStateSigner() (*stateSigner, error) {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return nil, err
	}
	return &stateSigner{key: k}, nil
}

// roundState is what a requestState holds: the fixture it belongs to, the round the client
// is answering, and the answers of earlier rounds.
type roundState struct {
	Fixture string                     `json:"f"`
	Round   int                        `json:"r"`
	Earlier map[string]json.RawMessage `json:"e,omitempty"`
}

func (s *stateSigner) mac(payload []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write(payload)
	return m.Sum(nil)
}

func (s *stateSigner) sign(st roundState) string {
	payload, _ := json.Marshal(st)
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(s.mac(payload))
}

// verify opens a requestState of fixture; anything that fails the integrity check, or
// belongs to another fixture, is -32602.
func (s *stateSigner) verify(fixture, state string) (roundState, error) {
	var st roundState
	bad := mcp.NewError(mcp.CodeInvalidParams, "invalid params: requestState failed its integrity check", nil)
	p, sig, ok := strings.Cut(state, ".")
	enc := base64.RawURLEncoding
	payload, err1 := enc.DecodeString(p)
	mac, err2 := enc.DecodeString(sig)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(mac, s.mac(payload)) {
		return st, bad
	}
	if json.Unmarshal(payload, &st) != nil || st.Fixture != fixture || st.Round < 0 {
		return st, bad
	}
	return st, nil
}

// runRounds drives a fixture through its rounds. The first call (no requestState) answers
// round 0's requests; a repeat answers the next round, or the same round again when an
// answer is missing or malformed (SEP-2322: re-request, do not fail); after the last round
// it calls done with every answer by request name. A responses object with extra names is
// fine: they are ignored.
func (s *stateSigner) runRounds(ctx context.Context, fixture string, rounds []round,
	done func(answers map[string]json.RawMessage, verified bool) (any, error)) (any, error) {
	fu := mcp.CallFrom(ctx).FollowUp()
	st := roundState{Fixture: fixture}
	verified := false
	if fu.State != "" {
		var err error
		if st, err = s.verify(fixture, fu.State); err != nil {
			return nil, err
		}
		if st.Round >= len(rounds) {
			return nil, mcp.NewError(mcp.CodeInvalidParams, "invalid params: requestState names no round of this call", nil)
		}
		verified = true
	} else if fu.Responses == nil {
		return nil, &mcp.InputRequired{Requests: rounds[0], State: s.sign(st)}
	}
	// A repeat: every request of the current round must be answered, in its method's shape.
	for name, req := range rounds[st.Round] {
		if !answerFits(req.Method, fu.Responses[name]) {
			return nil, &mcp.InputRequired{Requests: rounds[st.Round], State: s.sign(st)}
		}
	}
	answers := map[string]json.RawMessage{}
	for k, v := range st.Earlier {
		answers[k] = v
	}
	for name := range rounds[st.Round] {
		answers[name] = fu.Responses[name]
	}
	if st.Round+1 < len(rounds) {
		next := roundState{Fixture: fixture, Round: st.Round + 1, Earlier: answers}
		return nil, &mcp.InputRequired{Requests: rounds[st.Round+1], State: s.sign(next)}
	}
	return done(answers, verified)
}

// answerFits tells whether an inputResponses entry has the shape of its request's result:
// an elicitation result has an action, a sampling result a content, a roots result roots.
func answerFits(method string, raw json.RawMessage) bool {
	if raw == nil {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	switch method {
	case "elicitation/create":
		var action string
		return json.Unmarshal(m["action"], &action) == nil && (action == "accept" || action == "decline" || action == "cancel")
	case "sampling/createMessage":
		_, ok := m["content"]
		return ok
	case "roots/list":
		var roots []json.RawMessage
		return json.Unmarshal(m["roots"], &roots) == nil
	}
	return true
}

// describeAnswers renders answers for a fixture's final text, in name order.
func describeAnswers(answers map[string]json.RawMessage) string {
	names := make([]string, 0, len(answers))
	for n := range answers {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s=%s", n, answers[n]))
	}
	return strings.Join(parts, ", ")
}

// Input request builders.

func elicit(message string, schema map[string]any) mcp.InputRequest {
	return mcp.InputRequest{Method: "elicitation/create", Params: map[string]any{
		"mode": "form", "message": message, "requestedSchema": schema,
	}}
}

func sample(text string, maxTokens int) mcp.InputRequest {
	return mcp.InputRequest{Method: "sampling/createMessage", Params: samplingParams(text, maxTokens)}
}

func samplingParams(text string, maxTokens int) map[string]any {
	return map[string]any{
		"messages":  []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": text}}},
		"maxTokens": maxTokens,
	}
}

func listRoots() mcp.InputRequest {
	return mcp.InputRequest{Method: "roots/list", Params: map[string]any{}}
}

// objectSchema is {type: object, properties: {name: {type: <typ>}}, required: [name]}.
func objectSchema(name, typ string) map[string]any {
	return map[string]any{
		"type":       "object",
		"properties": map[string]any{name: map[string]any{"type": typ}},
		"required":   []string{name},
	}
}
