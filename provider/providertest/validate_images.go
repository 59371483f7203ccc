package providertest

import (
	"encoding/base64"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// Images as the real services check them: Chat Completions takes
// image_url parts in user messages only, as a data URL of an image type
// (or an http(s) URL); the Messages API takes image blocks in user
// messages only, base64 of one of four types whose bytes must be that
// type. A server without vision (WithoutVision; DeepSeek's API is one)
// refuses any image.

// WithoutVision makes the server a model without vision: a request with
// an image is refused as DeepSeek's API refuses it.
func WithoutVision() Option { return func(s *Server) { s.mem.noVision = true } }

// imageTypes are the media types both services take.
var imageTypes = []string{"image/jpeg", "image/png", "image/gif", "image/webp"}

// ImagesReceived counts the images of a request body (either dialect):
// what a test checks reached the model.
func ImagesReceived(body []byte) int {
	return strings.Count(string(body), `"type":"image_url"`) + strings.Count(string(body), `"type":"image"`)
}

// checkChatImages checks msg's image_url parts (the content array's other
// parts are checkChatContent's).
func checkChatImages(msg object, i int, role string, mem *memory) *rejection {
	if msg.kind("content") != kindArray {
		return nil
	}
	parts, _ := decodeArray(msg["content"])
	for j, raw := range parts {
		part, _ := decodeObject(raw)
		if typ, _ := part.str("type"); typ != "image_url" {
			continue
		}
		if mem.noVision {
			return badRequest("Failed to deserialize the JSON body into the target type: messages[%d]: unknown variant `image_url`, expected `text`", i)
		}
		if role != "user" {
			return badRequest("Invalid 'messages[%d]'. Image URLs are only allowed for messages with role 'user', but this message with role '%s' contains an image URL.", i, role)
		}
		img, ok := decodeObject(part["image_url"])
		url, okURL := img.str("url")
		if !ok || !okURL {
			return badRequest("Missing required parameter: 'messages[%d].content[%d].image_url.url'.", i, j)
		}
		if strings.HasPrefix(url, "https://") || strings.HasPrefix(url, "http://") {
			continue
		}
		if !validDataURL(url) {
			return badRequest("Invalid 'messages[%d].content[%d].image_url.url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got an invalid value.", i, j)
		}
	}
	return nil
}

// validDataURL reports a data: URL of an image type whose base64 decodes
// to an image of that type.
func validDataURL(url string) bool {
	rest, ok := strings.CutPrefix(url, "data:")
	if !ok {
		return false
	}
	mediaType, data, ok := strings.Cut(rest, ";base64,")
	if !ok || !slices.Contains(imageTypes, mediaType) {
		return false
	}
	b, err := base64.StdEncoding.DecodeString(data)
	return err == nil && http.DetectContentType(b) == mediaType
}

// checkMessagesImages checks the image blocks of a message's content.
func checkMessagesImages(blocks []object, i int, role string, mem *memory) *rejection {
	for j, b := range blocks {
		if typ, _ := b.str("type"); typ != "image" {
			continue
		}
		at := "messages." + strconv.Itoa(i) + ".content." + strconv.Itoa(j)
		if mem.noVision {
			return badRequest("%s: this model does not support image input", at)
		}
		if role != "user" {
			return badRequest("%s.type: image blocks are only allowed in user messages", at)
		}
		src, ok := decodeObject(b["source"])
		if !ok {
			return badRequest("%s.image.source: Field required", at)
		}
		switch typ, _ := src.str("type"); typ {
		case "url":
			continue
		case "base64":
		default:
			return badRequest("%s.image.source: Input tag '%s' found using 'type' does not match any of the expected tags: 'base64', 'url'", at, typ)
		}
		mediaType, _ := src.str("media_type")
		if !slices.Contains(imageTypes, mediaType) {
			return badRequest("%s.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'", at)
		}
		data, _ := src.str("data")
		raw, err := base64.StdEncoding.DecodeString(data)
		if err != nil || len(raw) == 0 {
			return badRequest("%s.image.source.base64.data: The image data is not valid base64", at)
		}
		if got := http.DetectContentType(raw); got != mediaType {
			return badRequest("%s.image.source.base64: Image does not match the provided media type %s", at, mediaType)
		}
	}
	return nil
}
