package mcp

import (
	"encoding/base64"
	"encoding/json"
	"errors"
)

// Content kinds of a tool result's content array and of a prompt message (the MCP
// ContentBlock): text, image, audio, an embedded resource and a link to a resource.
const (
	ContentText         = "text"
	ContentImage        = "image"
	ContentAudio        = "audio"
	ContentResource     = "resource"
	ContentResourceLink = "resource_link"
)

// Content is one content block. Build it with TextContent, ImageContent, AudioContent,
// EmbeddedResource or ResourceLink; the zero Content is not valid.
type Content struct {
	// Type is one of the Content* kinds.
	Type string
	// Text is the text of a text block.
	Text string
	// Data is the raw bytes of an image or audio block (base64 on the wire).
	Data []byte
	// MIMEType is the media type of an image, audio or resource link block.
	MIMEType string
	// Resource is the contents of an embedded resource block.
	Resource *ResourceContents
	// URI, Name, Title and Description describe a resource link block.
	URI         string
	Name        string
	Title       string
	Description string
}

// TextContent is a text block.
func TextContent(text string) Content { return Content{Type: ContentText, Text: text} }

// ImageContent is an image block: data is the raw image, mimeType e.g. image/png.
func ImageContent(data []byte, mimeType string) Content {
	return Content{Type: ContentImage, Data: data, MIMEType: mimeType}
}

// AudioContent is an audio block: data is the raw audio, mimeType e.g. audio/wav.
func AudioContent(data []byte, mimeType string) Content {
	return Content{Type: ContentAudio, Data: data, MIMEType: mimeType}
}

// EmbeddedResource is a resource block carrying the resource's contents (text or blob).
func EmbeddedResource(rc ResourceContents) Content {
	return Content{Type: ContentResource, Resource: &rc}
}

// ResourceLink is a resource_link block: a resource the client may read with
// resources/read, named but not embedded.
func ResourceLink(uri, name, mimeType string) Content {
	return Content{Type: ContentResourceLink, URI: uri, Name: name, MIMEType: mimeType}
}

var errBadContent = errors.New("mcp: content block is missing its required fields")

// MarshalJSON writes the block in the MCP wire shape of its kind. A block without the
// fields its kind requires (an image without data or mimeType, an embedded resource
// without a URI, a link without a URI or name, an unknown kind) is an encoding error, so a
// feature's mistake is a -32603 rather than a block the client cannot read.
func (c Content) MarshalJSON() ([]byte, error) {
	switch c.Type {
	case ContentText:
		return json.Marshal(struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}{c.Type, c.Text})
	case ContentImage, ContentAudio:
		if len(c.Data) == 0 || c.MIMEType == "" {
			return nil, errBadContent
		}
		return json.Marshal(struct {
			Type     string `json:"type"`
			Data     string `json:"data"`
			MIMEType string `json:"mimeType"`
		}{c.Type, base64.StdEncoding.EncodeToString(c.Data), c.MIMEType})
	case ContentResource:
		if c.Resource == nil || c.Resource.URI == "" {
			return nil, errBadContent
		}
		return json.Marshal(struct {
			Type     string            `json:"type"`
			Resource *ResourceContents `json:"resource"`
		}{c.Type, c.Resource})
	case ContentResourceLink:
		if c.URI == "" || c.Name == "" {
			return nil, errBadContent
		}
		return json.Marshal(struct {
			Type        string `json:"type"`
			URI         string `json:"uri"`
			Name        string `json:"name"`
			Title       string `json:"title,omitempty"`
			Description string `json:"description,omitempty"`
			MIMEType    string `json:"mimeType,omitempty"`
		}{c.Type, c.URI, c.Name, c.Title, c.Description, c.MIMEType})
	}
	return nil, errBadContent
}
