package agent

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// TestEstimatorAgainstTokenizer measures the estimator against a real BPE
// tokenizer on a mixed corpus. o200k_base is the reference the weights were
// fitted to (a large vocabulary with many CJK entries, like DeepSeek's);
// cl100k_base is logged for comparison only.
func TestEstimatorAgainstTokenizer(t *testing.T) {
	const maxError = 0.15
	ref, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	older, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ kind, file string }{
		{"English prose", "english.txt"},
		{"Go code", "code.go.txt"},
		{"Chinese text", "chinese.txt"},
		{"JSON", "data.json"},
	} {
		t.Run(c.kind, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "corpus", c.file))
			if err != nil {
				t.Fatal(err)
			}
			text := string(data)
			want, err := ref.Count(text)
			if err != nil {
				t.Fatal(err)
			}
			old, err := older.Count(text)
			if err != nil {
				t.Fatal(err)
			}
			got := EstimateTokens(text)
			rel := float64(got-want) / float64(want)
			t.Logf("%-13s %6d bytes: estimate %5d, o200k %5d (error %+.1f%%), cl100k %5d (error %+.1f%%)",
				c.kind, len(data), got, want, 100*rel, old, 100*float64(got-old)/float64(old))
			if math.Abs(rel) > maxError {
				t.Errorf("estimate %d is %+.1f%% off o200k's %d, want within ±%.0f%%", got, 100*rel, want, 100*maxError)
			}
		})
	}
}

func TestEstimateTokensSmallCases(t *testing.T) {
	for _, c := range []struct {
		text     string
		min, max int
	}{
		{"", 0, 0},
		{"a", 1, 1},
		{"hello world", 2, 2},
		{"12345678", 3, 3},                   // digit groups of three
		{"你好世界", 3, 4},                       // CJK: under a token per character
		{"🙂🙂🙂", 3, 6},                        // emoji: a few bytes per token
		{"ToolCallID", 2, 3},                 // camelCase pieces
		{`{"a":1,"b":2}`, 5, 9},              // punctuation runs merge
		{"\n\n\n", 1, 1},                     // a whitespace run is one piece
		{"func main() {\n\treturn\n}", 6, 9}, // code
	} {
		if got := EstimateTokens(c.text); got < c.min || got > c.max {
			t.Errorf("EstimateTokens(%q) = %d, want %d..%d", c.text, got, c.min, c.max)
		}
	}
}
