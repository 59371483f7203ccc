package completion

import (
	"strings"
	"unicode/utf8"

	"github.com/agent-lsp/agent-lsp/provider/fim"
)

// charsPerToken is the token estimate: a budget of n tokens is 4n bytes.
// Exact counts would need the model's tokenizer, which a FIM endpoint
// does not name; the windows only need to be roughly the right size.
const charsPerToken = 4

// prefixWindow is the text before the cursor within budget tokens, cut at
// the start of a line so the model never sees half a line at the top.
// A cursor line longer than the budget is cut at a character boundary.
func prefixWindow(text string, cursor, budget int) string {
	max := budget * charsPerToken
	if cursor <= max {
		return text[:cursor]
	}
	start := cursor - max
	if i := strings.IndexByte(text[start:cursor], '\n'); i >= 0 {
		start += i + 1
	} else {
		for start < cursor && !utf8.RuneStart(text[start]) {
			start++
		}
	}
	return text[start:cursor]
}

// suffixWindow is the text after the cursor within budget tokens, cut
// after a line break when it does not reach the end.
func suffixWindow(text string, cursor, budget int) string {
	max := budget * charsPerToken
	if len(text)-cursor <= max {
		return text[cursor:]
	}
	end := cursor + max
	if i := strings.LastIndexByte(text[cursor:end], '\n'); i >= 0 {
		end = cursor + i + 1
	} else {
		for end > cursor && !utf8.RuneStart(text[end]) {
			end--
		}
	}
	return text[cursor:end]
}

// Buffer is another open document offered as context.
type Buffer struct {
	Path, Language, Text string
}

// maxContextBuffers bounds how many other buffers go with a request: the
// nearest few help, more only dilute the prompt and cost latency.
const maxContextBuffers = 2

// extra is the context from other open buffers of the same language:
// the start of each (imports, declarations: the names the project uses),
// cut at line boundaries, within budget tokens in all. The dialect puts
// them where it can (llama.cpp's input_extra, else path comments before
// the prefix).
func extra(language string, others []Buffer, budget int) []fim.File {
	var files []fim.File
	left := budget * charsPerToken
	for _, o := range others {
		if len(files) == maxContextBuffers || left <= 0 {
			break
		}
		if o.Language != language || o.Text == "" {
			continue
		}
		left -= len(o.Path) + 1 // the path comment the dialect may add
		end := 0
		for line := range strings.Lines(o.Text) {
			if end+len(line) > left {
				break
			}
			end += len(line)
		}
		if end == 0 {
			break
		}
		left -= end
		files = append(files, fim.File{Path: o.Path, Text: o.Text[:end]})
	}
	return files
}
