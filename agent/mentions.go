package agent

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// maxAttachment bounds one attached file (or range) in a prompt.
const maxAttachment = 64 << 10

// mentionPattern finds @path and @path#L10-20 (or #L10, #L10-L20) at the
// start of the prompt or after white space: "a@b.c" is not a mention.
var mentionPattern = regexp.MustCompile(`(^|\s)@([^\s#@]+)(?:#L(\d+)(?:-L?(\d+))?)?`)

// Mention statuses.
const (
	MentionAttached = "attached"
	MentionMissing  = "missing" // no such file
	MentionRefused  = "refused" // outside the workspace (the sandbox said no)
	MentionFailed   = "failed"  // unreadable, a directory, a range past the end
)

// MentionReport says what became of one mention (or context file).
type MentionReport struct {
	Path      string `json:"path"`
	StartLine int    `json:"startLine,omitempty"`
	EndLine   int    `json:"endLine,omitempty"`
	Status    string `json:"status"`
	Message   string `json:"message,omitempty"`
	// Image is the attached image of a mention of an image file (its
	// text is not attached): it goes with the prompt as an image.
	Image *provider.Image `json:"-"`
}

// mention is one file (or line range) the prompt names.
type mention struct {
	path       string // as written (workspace-relative) or an absolute path
	start, end int    // 1-based, inclusive; 0: the whole file
}

// parseMentions returns the prompt's mentions in order, each once.
func parseMentions(prompt string) []mention {
	var out []mention
	seen := map[mention]bool{}
	for _, m := range mentionPattern.FindAllStringSubmatch(prompt, -1) {
		path := m[2]
		if m[3] == "" {
			// A mention ending a sentence: "look at @a.go." or "(@a.go)".
			path = strings.TrimRight(path, ".,;:!?)]}'\"")
		}
		if path == "" {
			continue
		}
		mt := mention{path: path}
		if m[3] != "" {
			mt.start, _ = strconv.Atoi(m[3])
			mt.end = mt.start
			if m[4] != "" {
				mt.end, _ = strconv.Atoi(m[4])
			}
		}
		if !seen[mt] {
			seen[mt] = true
			out = append(out, mt)
		}
	}
	return out
}

// HasMentions reports whether prompt mentions a file (@path).
func HasMentions(prompt string) bool { return len(parseMentions(prompt)) > 0 }

// attachOne reads one mention and returns the text to attach, cut to
// maxTokens (0: only maxAttachment bounds it).
func attachOne(ctx context.Context, ws *tools.Workspace, docs tools.Documents, m mention, maxTokens int) (string, MentionReport) {
	rep := MentionReport{Path: m.path, StartLine: m.start, EndLine: m.end}
	abs, err := ws.Resolve(m.path)
	if err != nil {
		rep.Status, rep.Message = MentionRefused, err.Error()
		return "", rep
	}
	rel := ws.Rel(abs)
	rep.Path = rel
	doc, err := docs.Read(ctx, abs)
	switch {
	case err != nil:
		rep.Status, rep.Message = MentionFailed, err.Error()
		return "", rep
	case !doc.Exists:
		rep.Status, rep.Message = MentionMissing, rel+" does not exist"
		return "", rep
	}
	if isImagePath(rel) {
		return "", attachImage(rel, doc.Text, rep)
	}
	text := doc.Text
	where := ""
	if m.start > 0 {
		lines := strings.SplitAfter(text, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		start, end := m.start, max(m.end, m.start)
		if start > len(lines) {
			rep.Status, rep.Message = MentionFailed, fmt.Sprintf("%s has %d lines; line %d is past the end", rel, len(lines), start)
			return "", rep
		}
		end = min(end, len(lines))
		rep.StartLine, rep.EndLine = start, end
		text = strings.Join(lines[start-1:end], "")
		where = fmt.Sprintf(" (lines %d-%d)", start, end)
	}
	rep.Status = MentionAttached
	text = tools.Truncate(text, maxAttachment)
	if maxTokens > 0 {
		if tokens := EstimateTokens(text); tokens > maxTokens {
			// Cut as a read_file result is (its middle, with a note), to
			// the bytes the share holds at this text's bytes per token.
			whole := len(doc.Text)
			text = tools.Truncate(text, max(len(text)*maxTokens/tokens, 1))
			rep.Message = fmt.Sprintf("cut to fit the model's context window: about %d of %d tokens kept (%d of %d bytes of %s)",
				maxTokens, tokens, len(text), whole, rel)
		}
	}
	return fmt.Sprintf("\n\nAttached %s%s:\n```\n%s\n```", rel, where, strings.TrimSuffix(text, "\n")), rep
}

// AttachMentions reads every file the prompt mentions (@path, @path#L3-5)
// and every one of files (absolute paths or workspace-relative), through
// docs (an editor's buffer when open, else the disk) and the workspace
// sandbox, and returns the prompt with their text attached and what became
// of each mention, in order. A mention that cannot be attached (missing,
// outside the workspace, unreadable) is reported, not attached; the front
// end shows the reports, so nothing is dropped in silence.
func AttachMentions(ctx context.Context, ws *tools.Workspace, docs tools.Documents, prompt string, files []string) (string, []MentionReport) {
	return AttachMentionsWithin(ctx, ws, docs, prompt, files, 0)
}

// AttachMentionsWithin is AttachMentions with the attachments held to
// maxTokens together (0: no bound but maxAttachment a file), each file to
// an equal share: a file past its share is cut in the middle like a
// read_file result, its text says what was cut, and its report says so
// (Message), so a mention larger than the model's window is answered
// instead of failing the prompt.
func AttachMentionsWithin(ctx context.Context, ws *tools.Workspace, docs tools.Documents, prompt string, files []string, maxTokens int) (string, []MentionReport) {
	mentions := parseMentions(prompt)
	for _, f := range files {
		mentions = append(mentions, mention{path: f})
	}
	if len(mentions) == 0 {
		return prompt, nil
	}
	var b strings.Builder
	b.WriteString(prompt)
	reports := make([]MentionReport, 0, len(mentions))
	share := 0
	if maxTokens > 0 {
		share = max(maxTokens/len(mentions), 1)
	}
	for _, m := range mentions {
		text, rep := attachOne(ctx, ws, docs, m, share)
		if rep.Status == MentionAttached {
			b.WriteString(text)
		}
		reports = append(reports, rep)
	}
	return b.String(), reports
}
