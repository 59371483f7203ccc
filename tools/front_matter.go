package tools

import (
	"errors"
	"fmt"
	"io"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// ReadFrontMatter splits a Markdown file with YAML front matter (between
// "---" lines, the layout of SKILL.md, of the peers' commands and agents)
// into its decoded front matter and its body. A file without front matter
// is all body (front untouched); fields front does not name are ignored.
// go.yaml.in/yaml/v3 is the YAML project's maintained decoder.
func ReadFrontMatter(data []byte, front any) (body string, err error) {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	text = strings.TrimPrefix(text, "\ufeff")
	if !strings.HasPrefix(text, "---\n") {
		return text, nil
	}
	head, body, ok := "", strings.TrimPrefix(text[4:], "---"), strings.HasPrefix(text[4:], "---") // empty
	if !ok {
		head, body, ok = strings.Cut(text[4:], "\n---")
	}
	if !ok {
		return "", errors.New(`the front matter has no closing "---" line`)
	}
	if i := strings.IndexByte(body, '\n'); i >= 0 {
		body = body[i+1:] // the rest of the closing line
	} else {
		body = ""
	}
	if err := yaml.NewDecoder(strings.NewReader(head)).Decode(front); err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("front matter: %w", err)
	}
	return body, nil
}
