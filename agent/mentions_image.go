package agent

import (
	"path/filepath"
	"strings"

	"github.com/agent-lsp/agent-lsp/provider"
)

// imageExtensions name the files a mention attaches as an image.
var imageExtensions = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true}

// isImagePath reports whether a mentioned path names an image file.
func isImagePath(path string) bool {
	return imageExtensions[strings.ToLower(filepath.Ext(path))]
}

// attachImage makes a mention of an image file its image: checked (type,
// size, bytes), not attached as text. A line range means nothing there.
func attachImage(rel, data string, rep MentionReport) MentionReport {
	img, err := provider.NewImage(rel, "", []byte(data))
	if err != nil {
		rep.Status, rep.Message = MentionFailed, err.Error()
		return rep
	}
	rep.StartLine, rep.EndLine = 0, 0
	rep.Status, rep.Image = MentionAttached, &img
	return rep
}
