package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

type highlightsAt struct {
	Captures []string `json:"captures"`
	Syntax   []string `json:"syntax"`
}

// markdownReport is what nvim/markdown.lua writes.
type markdownReport struct {
	Filetype         string                  `json:"filetype"`
	Syntax           string                  `json:"syntax"`
	TreesitterActive bool                    `json:"treesitter_active"`
	ParserLang       string                  `json:"parser_lang"`
	Lines            map[string]highlightsAt `json:"lines"`
}

// The chat transcript highlights the answer's markdown: through treesitter
// where Neovim has the markdown parser (0.10, 0.12: its highlighter runs,
// and a plugin asking for the buffer's parser, as render-markdown.nvim
// does, gets markdown), else through the markdown syntax file (0.7). The
// buffer keeps its own filetype, so markdown ftplugins stay out.
func TestChatHighlightsMarkdown(t *testing.T) {
	const (
		heading = "## Plan"
		item    = "- read the file"
		code    = "int x = 1;"
		tool    = "Then call read_file."
	)
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		model := providertest.NewServer(t, providertest.Script{
			{Text: heading + "\n\n" + item + "\n- change it\n\n```java\n" + code + "\n```\n\n" + tool},
		})
		var rep markdownReport
		scenario{nvim: nvim, script: "markdown.lua", root: workspace(t, map[string]string{"main.go": greetBefore}), model: model,
			config: map[string]any{"prompt": "Plan it", "probe": []string{heading, item, code, tool}}}.run(t, &rep)

		if rep.Filetype != "agent_lsp_chat" {
			t.Errorf("the chat's filetype is %q", rep.Filetype)
		}
		treesitter := !strings.HasPrefix(nvim.Version, "0.7.")
		if treesitter && (!rep.TreesitterActive || rep.ParserLang != "markdown") {
			t.Errorf("treesitter highlighter active %v, the buffer's parser %q: want markdown", rep.TreesitterActive, rep.ParserLang)
		}
		if !treesitter && rep.Syntax != "markdown" {
			t.Errorf("the chat's syntax is %q, want markdown", rep.Syntax)
		}
		// An underscore inside a word (every tool's name) is no error.
		if got, ok := rep.Lines[tool]; !ok {
			t.Errorf("the transcript has no line %q", tool)
		} else if slices.Contains(got.Syntax, "markdownError") || slices.ContainsFunc(got.Captures, func(c string) bool { return strings.Contains(c, "error") }) {
			t.Errorf("%q is highlighted as an error: %q %q", tool, got.Syntax, got.Captures)
		}
		for line, want := range map[string][2]string{
			heading: {"markup.heading", "markdownH2"},
			item:    {"markup.list", "markdownListMarker"},
			code:    {"markup.raw", "markdownCode"},
		} {
			got, ok := rep.Lines[line]
			if !ok {
				t.Errorf("the transcript has no line %q", line)
				continue
			}
			if treesitter && !slices.ContainsFunc(got.Captures, func(c string) bool { return strings.HasPrefix(c, want[0]) }) {
				t.Errorf("%q has captures %q, want %s", line, got.Captures, want[0])
			}
			if !treesitter && !slices.ContainsFunc(got.Syntax, func(s string) bool { return strings.HasPrefix(s, want[1]) }) {
				t.Errorf("%q has syntax groups %q, want %s", line, got.Syntax, want[1])
			}
		}
	})
}
