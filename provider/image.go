package provider

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
)

// Image is a picture the user attached to a prompt. Data is the encoded
// image itself and never written with a message (json "-"): the session
// store keeps it apart, once, under SHA256, and puts it back on load.
type Image struct {
	MediaType string `json:"media_type"` // one of ImageMediaTypes
	SHA256    string `json:"sha256"`     // hex of Data's SHA-256
	// Name is where the image came from (a file's name), for a text
	// stand-in once the image itself is gone from the history.
	Name string `json:"name,omitempty"`
	// Width and Height are the image's size in pixels, 0 when unknown.
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	Data   []byte `json:"-"`
}

// ImageMediaTypes are the image types both dialects' real services take.
var ImageMediaTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// MaxImageBytes bounds one image: the Messages API refuses images over
// 5 MB, and a request must stay well under its size limits.
const MaxImageBytes = 5 << 20

// NewImage checks data as an image of mediaType (empty: sniffed) and
// returns it with its hash. The type must be one both dialects take, and
// the bytes must be that type (the Messages API refuses an image whose
// bytes do not match its media type).
func NewImage(name, mediaType string, data []byte) (Image, error) {
	if len(data) == 0 {
		return Image{}, fmt.Errorf("image %s is empty", name)
	}
	if len(data) > MaxImageBytes {
		return Image{}, fmt.Errorf("image %s is %d bytes; at most %d MiB", name, len(data), MaxImageBytes>>20)
	}
	sniffed := http.DetectContentType(data)
	if mediaType == "" {
		mediaType = sniffed
	}
	if !slices.Contains(ImageMediaTypes, mediaType) {
		return Image{}, fmt.Errorf("image %s is %s; png, jpeg, gif and webp are accepted", name, mediaType)
	}
	if sniffed != mediaType {
		return Image{}, fmt.Errorf("image %s says %s but its bytes are %s", name, mediaType, sniffed)
	}
	sum := sha256.Sum256(data)
	img := Image{MediaType: mediaType, SHA256: hex.EncodeToString(sum[:]), Name: name, Data: data}
	img.Width, img.Height = imageSize(data)
	return img, nil
}

// Base64 is the image's data in standard base64, as both dialects send it.
func (i Image) Base64() string { return base64.StdEncoding.EncodeToString(i.Data) }

// DataURL is the image as a data: URL (Chat Completions' image_url).
func (i Image) DataURL() string { return "data:" + i.MediaType + ";base64," + i.Base64() }

// StandIn is the text that stands for the image where the image itself
// is not sent (a compacted history, a model without vision).
func (i Image) StandIn() string {
	s := "[image"
	if i.Name != "" {
		s += " " + i.Name
	}
	s += ", " + i.MediaType
	if i.Width > 0 && i.Height > 0 {
		s += fmt.Sprintf(", %d×%d", i.Width, i.Height)
	}
	return s + "]"
}

// Tokens estimates what the image costs a model: the Messages API's rule
// (width × height / 750, after scaling the long side to at most 1568
// pixels), which is close to Chat Completions' tiles too; an image of
// unknown size counts as the largest.
func (i Image) Tokens() int {
	w, h := i.Width, i.Height
	if w <= 0 || h <= 0 {
		return 1600
	}
	if long := max(w, h); long > 1568 {
		w, h = w*1568/long, h*1568/long
	}
	return max(w*h/750, 1)
}
