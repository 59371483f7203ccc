package tools

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

// Okapi BM25 over the deferred tools' names and descriptions, written here
// rather than imported: the Go module proxy serves no small BM25 module,
// and the one full-text engine it does serve (bleve v2, 53 modules, 21 MB
// for a hello-world search) is an index server's machinery for ranking a
// few hundred short texts once per search.

// Parameters of Okapi BM25 (the usual ones).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// nameWeight is how many times a tool's name counts among its words: a
// query naming what the tool is called beats one word of a long description.
const nameWeight = 3

// rankedTool is a tool and its score for a query.
type rankedTool struct {
	tool  Tool
	score float64
}

// rankTools scores ts against query with BM25 and returns those that match
// at all, best first (ties in the order of ts).
func rankTools(ts []Tool, query string) []rankedTool {
	q := searchWords(query)
	if len(q) == 0 {
		return nil
	}
	docs := make([]map[string]int, len(ts))
	lengths := make([]int, len(ts))
	df := map[string]int{}
	total := 0
	for i, t := range ts {
		words := searchWords(t.Description())
		for range nameWeight {
			words = append(words, searchWords(t.Name())...)
		}
		tf := map[string]int{}
		for _, w := range words {
			tf[w]++
		}
		for w := range tf {
			df[w]++
		}
		docs[i], lengths[i] = tf, len(words)
		total += len(words)
	}
	avg := float64(total) / float64(max(len(ts), 1))
	n := float64(len(ts))
	var out []rankedTool
	for i, tf := range docs {
		score := 0.0
		for _, w := range q {
			f := float64(tf[w])
			if f == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[w])+0.5)/(float64(df[w])+0.5))
			score += idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(lengths[i])/avg))
		}
		if exactName(ts[i].Name(), query) {
			score += 1000 // the model named the tool: it is the one
		}
		if score > 0 {
			out = append(out, rankedTool{tool: ts[i], score: score})
		}
	}
	slices.SortStableFunc(out, func(a, b rankedTool) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	return out
}

// exactName reports whether query is the tool's name, or the last part of
// it (an MCP tool's name on its server: mcp__github__create_issue is found
// by "create_issue").
func exactName(name, query string) bool {
	query = strings.TrimSpace(query)
	if query == "" {
		return false
	}
	return name == query || strings.HasSuffix(name, "__"+query)
}

// searchWords splits text into lower-case words at anything that is not a
// letter or digit and at lower-to-upper case changes (listIssues → list,
// issues), so snake_case, kebab-case and camelCase names meet prose.
func searchWords(text string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range text {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return words
}
