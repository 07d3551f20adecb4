package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"app/backend/mcp"
)

func (f *fixtures) resources() []mcp.Resource {
	static := func(uri, name, description, mimeType string, contents mcp.ResourceContents) mcp.Resource {
		return mcp.Resource{URI: uri, Name: name, Description: description, MIMEType: mimeType,
			Read: func(context.Context, string) ([]mcp.ResourceContents, error) {
				return []mcp.ResourceContents{contents}, nil
			}}
	}
	watched := static("test://watched-resource", "watched-resource", "A resource clients may subscribe to.", "text/plain",
		mcp.ResourceContents{URI: "test://watched-resource", MIMEType: "text/plain", Text: "Watched resource content."})
	watched.Subscribable = true
	return []mcp.Resource{
		static("test://static-text", "static-text", "A static text resource.", "text/plain",
			mcp.ResourceContents{URI: "test://static-text", MIMEType: "text/plain", Text: "This is the content of the static text resource."}),
		static("test://static-binary", "static-binary", "A static binary resource (a 1x1 PNG).", "image/png",
			mcp.ResourceContents{URI: "test://static-binary", MIMEType: "image/png", Blob: f.png}),
		watched,
	}
}

func (f *fixtures) resourceTemplates() []mcp.ResourceTemplate {
	return []mcp.ResourceTemplate{{
		URITemplate: "test://template/{id}/data", Name: "template-data",
		Description: "Data for an id, substituted into the URI.", MIMEType: "application/json",
		Read: func(_ context.Context, uri string, vars map[string]string) ([]mcp.ResourceContents, error) {
			b, err := json.Marshal(map[string]any{"id": vars["id"], "templateTest": true, "data": "Data for ID: " + vars["id"]})
			if err != nil {
				return nil, err
			}
			return []mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}, nil
		},
		Complete: func(_ context.Context, _, _ string, _ map[string]string) ([]string, error) {
			return []string{"1", "2", "3", "123"}, nil
		},
	}}
}

func (f *fixtures) prompts() []mcp.Prompt {
	user := func(s string) mcp.PromptMessage { return mcp.PromptMessage{Role: "user", Text: s} }
	block := func(c mcp.Content) mcp.PromptMessage { return mcp.PromptMessage{Role: "user", Content: &c} }
	one := func(msgs ...mcp.PromptMessage) *mcp.PromptResult { return &mcp.PromptResult{Messages: msgs} }
	return []mcp.Prompt{
		{Name: "test_simple_prompt", Description: "A prompt without arguments.",
			Get: func(context.Context, map[string]string) (*mcp.PromptResult, error) {
				return one(user("This is a simple prompt for testing.")), nil
			}},
		{Name: "test_prompt_with_arguments", Description: "A prompt with two required arguments.",
			Arguments: []mcp.PromptArgument{
				{Name: "arg1", Description: "First test argument", Required: true},
				{Name: "arg2", Description: "Second test argument", Required: true},
			},
			Get: func(_ context.Context, args map[string]string) (*mcp.PromptResult, error) {
				return one(user(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", args["arg1"], args["arg2"]))), nil
			},
			Complete: func(_ context.Context, argument, _ string, _ map[string]string) ([]string, error) {
				return []string{argument + "-value", "paris", "park", "party", "test", "testValue"}, nil
			}},
		{Name: "test_prompt_with_embedded_resource", Description: "A prompt that embeds a resource.",
			Arguments: []mcp.PromptArgument{{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}},
			Get: func(_ context.Context, args map[string]string) (*mcp.PromptResult, error) {
				return one(
					block(mcp.EmbeddedResource(mcp.ResourceContents{URI: args["resourceUri"], MIMEType: "text/plain",
						Text: "Embedded resource content for testing."})),
					user("Please process the embedded resource above."),
				), nil
			}},
		{Name: "test_prompt_with_image", Description: "A prompt with an image.",
			Get: func(context.Context, map[string]string) (*mcp.PromptResult, error) {
				return one(block(mcp.ImageContent(f.png, "image/png")), user("Please analyze the image above.")), nil
			}},
		{Name: "test_input_required_result_prompt", Description: "A prompt that first asks the user for context (input_required).",
			Get: func(ctx context.Context, _ map[string]string) (*mcp.PromptResult, error) {
				res, err := f.signer.runRounds(ctx, "test_input_required_result_prompt",
					[]round{{"user_context": elicit("What context should the prompt use?", objectSchema("context", "string"))}},
					func(answers map[string]json.RawMessage, _ bool) (any, error) {
						var r struct {
							Content struct {
								Context string `json:"context"`
							} `json:"content"`
						}
						_ = json.Unmarshal(answers["user_context"], &r)
						return one(user("Use this context: " + strings.TrimSpace(r.Content.Context))), nil
					})
				if err != nil {
					return nil, err
				}
				return res.(*mcp.PromptResult), nil
			}},
	}
}
