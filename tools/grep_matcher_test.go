package tools

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// naiveMatchingLines is the definition scan must agree with: split into
// lines, run the regexp on each.
func naiveMatchingLines(re *regexp.Regexp, buf []byte) []int {
	var out []int
	lines := bytes.Split(buf, []byte("\n"))
	if len(buf) > 0 && buf[len(buf)-1] == '\n' {
		lines = lines[:len(lines)-1] // no line after the final newline
	}
	if len(buf) == 0 {
		lines = nil
	}
	for i, l := range lines {
		if re.Match(l) {
			out = append(out, i+1)
		}
	}
	return out
}

func scanMatchingLines(m *lineMatcher, buf []byte) []int {
	var out []int
	m.scan(buf, func(s, e int) bool {
		if e < len(buf) && buf[e] != '\n' {
			panic(fmt.Sprintf("line end %d is not at a newline", e))
		}
		if s > 0 && buf[s-1] != '\n' {
			panic(fmt.Sprintf("line start %d is not after a newline", s))
		}
		out = append(out, bytes.Count(buf[:s], []byte("\n"))+1)
		return true
	})
	return out
}

var matcherTexts = []string{
	"",
	"\n",
	"\n\n\n",
	"func main() {\n\tif err != nil {\n\t\treturn err\n\t}\n}\n",
	"no newline at end: func main",
	"DeadLine\ndeadline\nDEADLINE\ndead line\nxdeadlinex\n",
	"crlf line\r\nerr != nil {\r\nfoo$\r\n",
	"KELVIN \u212a and long \u017f; sKs\nmask MASK ma\u017fK\n",
	"tabs\tand  spaces \n   leading\ntrailing   \n",
	"invalid \xff\xfe utf8 \xef\xbf\xbd here\nfoo\xffbar\n",
	"aaa\nab\nabab\nbbb\nba\n\nb\na\n",
	"x = 1\ny := 2\nz==3\n",
	strings.Repeat("filler line without the thing\n", 50) + "the needle\n" + strings.Repeat("x", 20000) + "needle\n",
}

var matcherPatterns = []string{
	`func main`, `err != nil \{`, `(?i)deadline`, `deadline`, `dead\s*line`, `^\s+`, `\s+$`, `^$`, `^`, `$`,
	`\A\t`, `r\z`, `(?i)kelvin`, `(?i)k`, `(?i)mask`, `(?i)s`, `\x{FFFD}`, `\xff`, `foo.bar`, `a+b`, `(ab)+`, `b|a`,
	`(?m)^b$`, `(?s)a.b`, `\bab\b`, `x*`, `[[:space:]]`, `needle$`, `the needle`, `=`, `:=|==`, `(?i)ERR != NIL`,
	`line\r`, `\r$`, `a{2,}`, `(a|b)c?`, `[^a-z]`, `\n`, `a\nb`, `(?i)x{3}`,
	// a literal prefix and a rest run from its end
	`0x[0-9a-f]{2}`, `^func main`, `(?m)^err`, `\Aerr != nil`, `nil \{$`, `ab$`, `ab\b`, `ab\B`, `ab^`, `ab(?m)^`,
	`ab\bab`, `err(?i) != NIL`, `err(?i:[ !=]+)nil`, `ab(ab)*$`, `line(\r|x)`, `(de)ad(?i)line`, `ab[^a]`, `ba.?b`,
	`foo\xffbar`, `ma(?i)sk`, `(a)(b)+`, `^ab$`, `^  +`, `\x{212a}`, `(?i)lin`, `(?i)dead line`,
	`0x[0-9A-F]{2}z`, `0x(?i:[a-f])`, `ab[\x00-\x7f]`, `ab[^\x80-\x{10FFFF}]b`, `ab\xff`, `de[a-z]d`, `0x[0-9a-f]1$`,
}

func TestScanAgreesWithPerLineRegexp(t *testing.T) {
	for _, p := range matcherPatterns {
		for _, ignoreCase := range []bool{false, true} {
			m, err := compileLineMatcher(p, ignoreCase)
			if err != nil {
				t.Fatalf("%q: %v", p, err)
			}
			for i, text := range matcherTexts {
				want := naiveMatchingLines(m.re, []byte(text))
				got := scanMatchingLines(m, []byte(text))
				if !slices.Equal(got, want) {
					t.Errorf("pattern %q ignoreCase=%v text #%d: scan lines %v, per-line regexp %v (kind %d, lit %q)",
						p, ignoreCase, i, got, want, m.kind, m.lit)
				}
			}
		}
	}
}

// TestScanRandomTexts checks the prefilters on many random texts built
// from pieces that match or nearly match.
func TestScanRandomTexts(t *testing.T) {
	pieces := []string{"err", " != ", "nil", " {", "\n", "\r\n", "Dead", "LINE", "dEaDlInE", "func", " main", "x", "\u212a", "\u017f",
		"K", "s", "ask", "\t", " ", "\xff", "a", "b", "\x00", "0x", "1f", "ab", "^", "Dead"}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range matcherPatterns {
		m, err := compileLineMatcher(p, false)
		if err != nil {
			t.Fatal(err)
		}
		for range 200 {
			var b strings.Builder
			for range rng.IntN(40) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			text := []byte(b.String())
			if got, want := scanMatchingLines(m, text), naiveMatchingLines(m.re, text); !slices.Equal(got, want) {
				t.Fatalf("pattern %q text %q: scan %v, per-line %v", p, text, got, want)
			}
		}
	}
}

func TestMatcherChoosesPrefilter(t *testing.T) {
	tests := []struct {
		pattern string
		kind    candidateKind
		lit     string
		verify  verifyKind
		rest    string // verifyAfter: the rest of the pattern, run from lit's end
	}{
		{`func main`, findLiteral, "func main", verifyNone, ""},
		{`err != nil \{`, findLiteral, "err != nil {", verifyNone, ""},
		{`(err) != nil`, findLiteral, "err != nil", verifyNone, ""},
		{`(?i)deadline`, findFoldLiteral, "deadline", verifyNone, ""},
		{`(?i)mask`, findFoldLiteral, "ma", verifyLine, ""}, // 's' and 'k' also fold to non-ASCII runes
		{`\w+Handler\(`, findLiteral, "Handler(", verifyLine, ""},
		{`foo|bar`, findRegex, "", verifyLine, ""},
		{`x`, findRegex, "", verifyLine, ""},
		{`^\s*$`, findRegex, "", verifyLine, ""},
		{`(abc)+d`, findLiteral, "abc", verifyLine, ""},
		{`0x[0-9a-f]{8}`, findLiteral, "0x", verifyAfter, `\A` + strings.Repeat(`[0-9a-f]`, 8)}, // Simplify expands {8}
		{`^import \(`, findLiteral, "import (", verifyAfter, ""},
		{`Copyright 20[0-9][0-9]`, findLiteral, "Copyright 20", verifyAfter, `\A[0-9][0-9]`},
		{`sync\.(Mutex|RWMutex)`, findLiteral, "sync.", verifyAfter, `\A(Mutex|RWMutex)`},
		{`ab\bc`, findLiteral, "ab", verifyLine, ""},               // \b would look behind the rest's start
		{`x[a-z]+Handler`, findLiteral, "Handler", verifyLine, ""}, // a longer literal wins over a prefix
	}
	for _, tt := range tests {
		m, err := compileLineMatcher(tt.pattern, false)
		if err != nil {
			t.Fatal(err)
		}
		rest := ""
		if m.rest != nil {
			rest = m.rest.String()
		}
		if m.kind != tt.kind || string(m.lit) != tt.lit || m.verify != tt.verify || rest != tt.rest {
			t.Errorf("%q: kind %d lit %q verify %d rest %q, want kind %d lit %q verify %d rest %q",
				tt.pattern, m.kind, m.lit, m.verify, rest, tt.kind, tt.lit, tt.verify, tt.rest)
		}
	}
}

// TestMatcherChecksASCIIRestByBytes: a rest of ASCII classes is checked
// without a regexp; anything else keeps the regexp.
func TestMatcherChecksASCIIRestByBytes(t *testing.T) {
	for pattern, want := range map[string]int{
		`0x[0-9a-f]{8}`: 8, `Copyright 20[0-9][0-9]`: 2, `ab[x-z]c`: 2,
		`ab[^a]`: 0, `ab[a-z]+`: 0, `ab(?i)c`: 0, `ab[a-z]$`: 0, `ab.`: 0,
	} {
		m, err := compileLineMatcher(pattern, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.restASCII) != want {
			t.Errorf("%q: %d byte sets, want %d", pattern, len(m.restASCII), want)
		}
	}
}

func TestBadRegexError(t *testing.T) {
	for _, p := range []string{`(foo`, `a**`, `(?<=x)y`, `\1`, `[z-a]`} {
		_, err := compileLineMatcher(p, false)
		if err == nil || !strings.Contains(err.Error(), "invalid regular expression") || !strings.Contains(err.Error(), "RE2") {
			t.Errorf("%q: error %v", p, err)
		}
	}
}
