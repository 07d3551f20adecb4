package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"app/backend/mcp"
)

// fixtures holds what the fixtures share: the test media and the requestState signer.
type fixtures struct {
	png    []byte
	wav    []byte
	signer *stateSigner
}

func newFixtures() (*fixtures, error) {
	signer, err := newStateSigner()
	if err != nil {
		return nil, err
	}
	p, err := redPixelPNG()
	if err != nil {
		return nil, err
	}
	return &fixtures{png: p, wav: silentWAV(), signer: signer}, nil
}

// redPixelPNG encodes a 1x1 red PNG.
func redPixelPNG() ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// silentWAV is a RIFF/WAVE file of 8 silent 8-bit mono samples at 8 kHz.
func silentWAV() []byte {
	const samples, rate = 8, 8000
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	w(uint32(36 + samples))
	b.WriteString("WAVEfmt ")
	w(uint32(16))   // fmt chunk size
	w(uint16(1))    // PCM
	w(uint16(1))    // mono
	w(uint32(rate)) // sample rate
	w(uint32(rate)) // byte rate
	w(uint16(1))    // block align
	w(uint16(8))    // bits per sample
	b.WriteString("data")
	w(uint32(samples))
	b.Write(bytes.Repeat([]byte{128}, samples))
	return b.Bytes()
}

// mustSchema reads a JSON Schema written as JSON text.
func mustSchema(text string) *jsonschema.Schema {
	s := &jsonschema.Schema{}
	if err := json.Unmarshal([]byte(text), s); err != nil {
		panic(fmt.Sprintf("fixture schema: %v", err))
	}
	return s
}

const noArgs = `{"type":"object","properties":{}}`

// text is a one-block text result.
func text(s string) *mcp.ToolResult {
	return &mcp.ToolResult{Content: []mcp.Content{mcp.TextContent(s)}}
}

// constant is a tool without arguments that always returns res.
func constant(name, description string, res *mcp.ToolResult) mcp.Tool {
	return mcp.Tool{Name: name, Description: description, InputSchema: mustSchema(noArgs),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
		Handler:     func(context.Context, json.RawMessage) (*mcp.ToolResult, error) { return res, nil }}
}

// sleep waits d unless the call ends first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *fixtures) tools() []mcp.Tool {
	mixedJSON := mcp.ResourceContents{URI: "test://mixed-content-resource", MIMEType: "application/json", Text: `{"test":"data","value":123}`}
	tools := []mcp.Tool{
		constant("test_simple_text", "Returns one text block.", text("This is a simple text response for testing.")),
		constant("test_image_content", "Returns a 1x1 red PNG image block.",
			&mcp.ToolResult{Content: []mcp.Content{mcp.ImageContent(f.png, "image/png")}}),
		constant("test_audio_content", "Returns a short silent WAV audio block.",
			&mcp.ToolResult{Content: []mcp.Content{mcp.AudioContent(f.wav, "audio/wav")}}),
		constant("test_embedded_resource", "Returns an embedded text resource.",
			&mcp.ToolResult{Content: []mcp.Content{mcp.EmbeddedResource(mcp.ResourceContents{
				URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content."})}}),
		constant("test_multiple_content_types", "Returns text, an image and an embedded resource.",
			&mcp.ToolResult{Content: []mcp.Content{
				mcp.TextContent("Multiple content types test:"),
				mcp.ImageContent(f.png, "image/png"),
				mcp.EmbeddedResource(mixedJSON),
			}}),
		constant("test_resource_link", "Returns a link to test://static-text.",
			&mcp.ToolResult{Content: []mcp.Content{mcp.ResourceLink("test://static-text", "static-text", "text/plain")}}),
		{Name: "test_error_handling", Description: "Always fails with a tool error.", InputSchema: mustSchema(noArgs),
			Handler: func(context.Context, json.RawMessage) (*mcp.ToolResult, error) {
				return nil, mcp.NewToolError(mcp.ToolErrInternalFailure, "This tool intentionally returns an error for testing")
			}},
		{Name: "test_tool_with_logging", Description: "Sends three info log messages, 50 ms apart.", InputSchema: mustSchema(noArgs),
			Handler: f.logging},
		{Name: "test_logging_tool", Description: "Sends log messages, which go out only when the request asked for them.",
			InputSchema: mustSchema(noArgs), Handler: f.logging},
		{Name: "test_tool_with_progress", Description: "Reports progress 0, 50 and 100 of 100, 50 ms apart.", InputSchema: mustSchema(noArgs),
			Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
				c := mcp.CallFrom(ctx)
				for i, p := range []float64{0, 50, 100} {
					if i > 0 {
						if err := sleep(ctx, 50*time.Millisecond); err != nil {
							return nil, err
						}
					}
					c.Progress(p, 100, fmt.Sprintf("step %d of 3", i+1))
				}
				return text("Progress test completed."), nil
			}},
		{Name: "test_missing_capability", Description: "Needs the client's sampling capability (-32021 without it).",
			InputSchema: mustSchema(noArgs),
			Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
				if err := mcp.RequireCapabilities(ctx, "sampling"); err != nil {
					return nil, err
				}
				return text("the client declared sampling"), nil
			}},
		{Name: "json_schema_2020_12_tool", Description: "Tool with JSON Schema 2020-12 features",
			InputSchema: mustSchema(jsonSchema202012), Handler: func(_ context.Context, args json.RawMessage) (*mcp.ToolResult, error) {
				return text("arguments accepted: " + string(args)), nil
			}},
		{Name: "test_custom_headers", Description: "Its region argument is mirrored in the Mcp-Param-Region header (SEP-2243).",
			InputSchema: mustSchema(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},` +
				`"query":{"type":"string"}},"required":["region"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (*mcp.ToolResult, error) {
				return text("arguments accepted: " + string(args)), nil
			}},
		{Name: "test_sampling", Description: "Asks the client to sample an LLM with the prompt.",
			InputSchema: mustSchema(`{"type":"object","properties":{"prompt":{"type":"string"}},"required":["prompt"]}`),
			Handler:     f.sampling},
		{Name: "test_elicitation", Description: "Asks the user for a username and an email.",
			InputSchema: mustSchema(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`),
			Handler: func(ctx context.Context, args json.RawMessage) (*mcp.ToolResult, error) {
				var a struct{ Message string }
				_ = json.Unmarshal(args, &a)
				return f.elicitation(ctx, "test_elicitation", a.Message, userSchema, "User response: ")
			}},
		{Name: "test_elicitation_sep1034_defaults", Description: "Elicitation whose every primitive field has a default.",
			InputSchema: mustSchema(noArgs), Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
				return f.elicitation(ctx, "test_elicitation_sep1034_defaults", "Please review your details", sep1034Schema, "Elicitation completed: ")
			}},
		{Name: "test_elicitation_sep1330_enums", Description: "Elicitation with every enum variant.",
			InputSchema: mustSchema(noArgs), Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
				return f.elicitation(ctx, "test_elicitation_sep1330_enums", "Please choose", sep1330Schema, "Elicitation completed: ")
			}},
		{Name: "test_streaming_elicitation", Description: "Asks the user a question (input_required in the modern era).",
			InputSchema: mustSchema(noArgs), Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
				return f.elicitation(ctx, "test_streaming_elicitation", "What is your name?", objectSchema("name", "string"), "Hello: ")
			}},
	}
	return append(tools, f.inputRequiredTools()...)
}

// logging sends three info messages 50 ms apart (Call.Log drops them when the client did
// not ask for them).
func (f *fixtures) logging(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
	c := mcp.CallFrom(ctx)
	for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return nil, err
			}
		}
		if err := c.Log("info", "conformance", msg); err != nil {
			return nil, err
		}
	}
	return text("Logging test completed: three info messages sent."), nil
}

// sampling asks the client to sample: a request on the call's stream for a legacy client,
// an input_required round for a modern one.
func (f *fixtures) sampling(ctx context.Context, args json.RawMessage) (*mcp.ToolResult, error) {
	var a struct{ Prompt string }
	_ = json.Unmarshal(args, &a)
	if mcp.CallFrom(ctx).Era != mcp.EraModern {
		raw, err := mcp.CallFrom(ctx).Request(ctx, "sampling/createMessage", samplingParams(a.Prompt, 100))
		if err != nil {
			return nil, clientFailure(err)
		}
		return text("LLM response: " + samplingText(raw)), nil
	}
	res, err := f.signer.runRounds(ctx, "test_sampling", []round{{"sample": sample(a.Prompt, 100)}},
		func(answers map[string]json.RawMessage, _ bool) (any, error) {
			return text("LLM response: " + samplingText(answers["sample"])), nil
		})
	return asToolResult(res, err)
}

// elicitation asks the user to fill schema: a request on the call's stream for a legacy
// client, an input_required round for a modern one.
func (f *fixtures) elicitation(ctx context.Context, fixture, message string, schema map[string]any, prefix string) (*mcp.ToolResult, error) {
	params := map[string]any{"message": message, "requestedSchema": schema}
	if mcp.CallFrom(ctx).Era != mcp.EraModern {
		raw, err := mcp.CallFrom(ctx).Request(ctx, "elicitation/create", params)
		if err != nil {
			return nil, clientFailure(err)
		}
		return text(prefix + describeElicitation(raw)), nil
	}
	res, err := f.signer.runRounds(ctx, fixture, []round{{"answer": elicit(message, schema)}},
		func(answers map[string]json.RawMessage, _ bool) (any, error) {
			return text(prefix + describeElicitation(answers["answer"])), nil
		})
	return asToolResult(res, err)
}

// clientFailure keeps protocol errors (-32021 for an undeclared capability) and turns a
// failed request to the client into a tool error.
func clientFailure(err error) error {
	var pe *mcp.Error
	if errors.As(err, &pe) {
		return err
	}
	var ce *mcp.ClientError
	if errors.As(err, &ce) {
		return mcp.NewToolError(mcp.ToolErrQueryFailed, "the client refused: %s", ce.Message)
	}
	return err
}

func asToolResult(res any, err error) (*mcp.ToolResult, error) {
	if err != nil {
		return nil, err
	}
	return res.(*mcp.ToolResult), nil
}

// samplingText is the text of a sampling result's content block.
func samplingText(raw json.RawMessage) string {
	var r struct {
		Content struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	_ = json.Unmarshal(raw, &r)
	return r.Content.Text
}

// describeElicitation renders an elicitation result as "action=..., content=...".
func describeElicitation(raw json.RawMessage) string {
	var r struct {
		Action  string          `json:"action"`
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(raw, &r)
	if r.Content == nil {
		r.Content = json.RawMessage("{}")
	}
	return fmt.Sprintf("action=%s, content=%s", r.Action, r.Content)
}

var userSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"username": map[string]any{"type": "string", "description": "User's response"},
		"email":    map[string]any{"type": "string", "description": "User's email address"},
	},
	"required": []string{"username", "email"},
}

var sep1034Schema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"name":     map[string]any{"type": "string", "description": "Your name", "default": "John Doe"},
		"age":      map[string]any{"type": "integer", "description": "Your age", "default": 30},
		"score":    map[string]any{"type": "number", "description": "Your score", "default": 95.5},
		"status":   map[string]any{"type": "string", "description": "Your status", "enum": []string{"active", "inactive", "pending"}, "default": "active"},
		"verified": map[string]any{"type": "boolean", "description": "Verified?", "default": true},
	},
}

var sep1330Schema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"untitledSingle": map[string]any{"type": "string", "description": "Pick one", "enum": []string{"option1", "option2", "option3"}},
		"titledSingle": map[string]any{"type": "string", "description": "Pick one", "oneOf": []any{
			map[string]any{"const": "value1", "title": "First Option"},
			map[string]any{"const": "value2", "title": "Second Option"},
			map[string]any{"const": "value3", "title": "Third Option"},
		}},
		"legacyEnum": map[string]any{"type": "string", "description": "Pick one", "enum": []string{"opt1", "opt2", "opt3"},
			"enumNames": []string{"Option One", "Option Two", "Option Three"}},
		"untitledMulti": map[string]any{"type": "array", "description": "Pick some",
			"items": map[string]any{"type": "string", "enum": []string{"option1", "option2", "option3"}}},
		"titledMulti": map[string]any{"type": "array", "description": "Pick some", "items": map[string]any{"anyOf": []any{
			map[string]any{"const": "value1", "title": "First Choice"},
			map[string]any{"const": "value2", "title": "Second Choice"},
			map[string]any{"const": "value3", "title": "Third Choice"},
		}}},
	},
}

// jsonSchema202012 is an input schema with the 2020-12 keywords the suite looks for:
// $schema, $defs with an $anchor, $ref, allOf/anyOf, if/then/else, additionalProperties.
const jsonSchema202012 = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "$defs": {"address": {"$anchor": "addressDef", "type": "object",
    "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
  "properties": {
    "name": {"type": "string"},
    "address": {"$ref": "#/$defs/address"},
    "contactMethod": {"type": "string", "enum": ["phone", "email"]},
    "phone": {"type": "string"},
    "email": {"type": "string"}
  },
  "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
  "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
  "then": {"required": ["phone"]},
  "else": {"required": ["email"]},
  "additionalProperties": false
}`

// inputRequiredTools are the SEP-2322 fixtures of the modern era.
func (f *fixtures) inputRequiredTools() []mcp.Tool {
	name := elicit("What is your name?", objectSchema("name", "string"))
	multi := func(fixture string, rounds ...round) mcp.Tool {
		return mcp.Tool{Name: fixture, Description: "input_required fixture " + fixture, InputSchema: mustSchema(noArgs),
			Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
				return asToolResult(f.signer.runRounds(ctx, fixture, rounds, completeWith))
			}}
	}
	return []mcp.Tool{
		multi("test_input_required_result_elicitation", round{"user_name": name}),
		multi("test_input_required_result_sampling", round{"capital_question": sample("What is the capital of France?", 100)}),
		multi("test_input_required_result_list_roots", round{"client_roots": listRoots()}),
		multi("test_input_required_result_request_state",
			round{"confirm": elicit("Please confirm", objectSchema("ok", "boolean"))}),
		multi("test_input_required_result_tampered_state",
			round{"confirm": elicit("Please confirm", objectSchema("ok", "boolean"))}),
		multi("test_input_required_result_multiple_inputs", round{
			"user_name": name, "greeting": sample("Generate a greeting", 50), "client_roots": listRoots()}),
		multi("test_input_required_result_multi_round",
			round{"step1": elicit("Step 1: What is your name?", objectSchema("name", "string"))},
			round{"step2": elicit("Step 2: What is your favorite color?", objectSchema("color", "string"))}),
		{Name: "test_input_required_result_capabilities", Description: "Asks only for what the client declared it can answer.",
			InputSchema: mustSchema(noArgs), Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
				c := mcp.CallFrom(ctx)
				r := round{}
				if c.HasCapability("elicitation") {
					r["user_name"] = name
				}
				if c.HasCapability("sampling") {
					r["greeting"] = sample("Generate a greeting", 50)
				}
				if c.HasCapability("roots") {
					r["client_roots"] = listRoots()
				}
				if len(r) == 0 {
					return text("the client declared none of elicitation, sampling, roots: nothing to ask"), nil
				}
				return asToolResult(f.signer.runRounds(ctx, "test_input_required_result_capabilities", []round{r}, completeWith))
			}},
	}
}

// completeWith is the final result of an input_required fixture: the answers, and
// "state-ok" when the requestState it came back with passed the integrity check.
func completeWith(answers map[string]json.RawMessage, verified bool) (any, error) {
	s := "Completed with " + describeAnswers(answers)
	if verified {
		s = "state-ok: " + s
	}
	if n := elicitedName(answers["user_name"]); n != "" {
		s = "Hello, " + n + "! " + s
	}
	return text(s), nil
}

func elicitedName(raw json.RawMessage) string {
	var r struct {
		Content struct {
			Name string `json:"name"`
		} `json:"content"`
	}
	_ = json.Unmarshal(raw, &r)
	return r.Content.Name
}
