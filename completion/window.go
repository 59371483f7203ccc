package completion

import (
	"strings"
	"unicode/utf8"
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

// maxContextBuffers bounds how many other buffers the header quotes: the
// nearest few help, more only dilute the prompt and cost latency.
const maxContextBuffers = 2

// header is a comment block naming the file and quoting the start of
// other open buffers of the same language (their imports and
// declarations), within budget tokens. Models trained on repositories
// read a leading path comment as the file's name; quoted buffers show
// the names the project uses. Languages without a line comment get none.
func header(path, language string, others []Buffer, budget int) string {
	c := lineComment(language)
	if c == "" {
		return ""
	}
	var b strings.Builder
	left := budget * charsPerToken
	quoted := 0
	for _, o := range others {
		if quoted == maxContextBuffers || left <= 0 {
			break
		}
		if o.Language != language || o.Text == "" {
			continue
		}
		title := c + " Compare this snippet from " + o.Path + ":\n"
		left -= len(title)
		if left <= 0 {
			break
		}
		var body strings.Builder
		for line := range strings.Lines(o.Text) {
			l := c + " " + strings.TrimRight(line, "\r\n") + "\n"
			if len(l) > left {
				break
			}
			left -= len(l)
			body.WriteString(l)
		}
		if body.Len() == 0 {
			break
		}
		b.WriteString(title)
		b.WriteString(body.String())
		quoted++
	}
	if path != "" {
		b.WriteString(c + " Path: " + path + "\n")
	}
	return b.String()
}
