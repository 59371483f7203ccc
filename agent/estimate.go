package agent

import (
	"unicode"
	"unicode/utf8"

	"github.com/agent-lsp/agent-lsp/provider"
)

// The estimator counts tokens the way a large byte-level BPE vocabulary
// (DeepSeek's, o200k) cuts text, without the vocabulary: it splits the text
// into the pre-tokenizer's pieces (words with their leading space, digit
// groups, punctuation runs, whitespace runs, CJK runs) and charges each piece
// what such vocabularies typically charge for it. The weights were fitted on
// testdata/corpus against o200k_base (see TestEstimatorAgainstTokenizer).
// It only has to be good enough to decide when to compact: the session
// replaces its estimate with the provider's true count after every round.
const (
	// wordLetters: an ASCII word piece costs one token per this many letters
	// (rounded up); common words and identifier parts are single tokens.
	wordLetters = 8
	// digitGroup: numbers are cut into groups of up to three digits.
	digitGroup = 3
	// punctPerToken: runs of ASCII punctuation merge in pairs on average
	// (`":`, `{"`, `();`, `},`).
	punctPerToken = 2.5
	// cjkPerRune: one CJK character costs less than a token: frequent ones
	// pair up into words.
	cjkPerRune = 0.75
	// otherBytesPerToken: other scripts and symbols (emoji among them) cost
	// about a token per this many UTF-8 bytes.
	otherBytesPerToken = 2.5
	// spaceRun: a long run of spaces costs an extra token per this many.
	spaceRun = 16
	// messageOverhead is what a message costs beyond its text: the role and
	// the wire's framing (JSON keys, content blocks).
	messageOverhead = 8
	// toolCallOverhead is what one tool call costs beyond its name and arguments.
	toolCallOverhead = 10
)

// EstimateTokens estimates how many tokens text costs. It never returns
// less than one token for non-empty text.
func EstimateTokens(text string) int {
	if text == "" {
		return 0
	}
	var e estimator
	for _, r := range text {
		e.add(r)
	}
	e.flush(pieceEnd)
	return max(1, int(e.total+0.5))
}

// piece is the kind of pre-tokenizer piece a rune belongs to.
type piece uint8

const (
	pieceEnd piece = iota
	pieceWord
	pieceDigits
	piecePunct
	pieceOther // a piece charged on the spot (CJK, symbols, other scripts)
)

// estimator accumulates the cost of pieces as they end.
type estimator struct {
	total   float64
	word    int  // letters in the open ASCII word piece
	lower   bool // the open word's last letter was lower case
	digits  int  // digits in the open number
	punct   int  // characters in the open ASCII punctuation run
	newline bool // the open whitespace run holds a line break
	indent  int  // whitespace after the open run's last line break
}

func (e *estimator) add(r rune) {
	switch {
	case r == '\n' || r == '\r':
		e.flushNonSpace(pieceEnd)
		e.newline, e.indent = true, 0
	case r == ' ' || r == '\t':
		e.flushNonSpace(pieceEnd)
		e.indent++
	case isASCIILetter(r):
		upper := r >= 'A' && r <= 'Z'
		if e.word > 0 && upper && e.lower {
			e.flush(pieceWord) // camelCase: a new piece starts at the upper-case letter
		} else if e.word == 0 {
			e.flush(pieceWord)
		}
		e.lower = !upper
		e.word++
	case r >= '0' && r <= '9':
		if e.digits == 0 {
			e.flush(pieceDigits)
		}
		e.digits++
	case r < utf8.RuneSelf:
		if e.punct == 0 {
			e.flush(piecePunct)
		}
		e.punct++
	default:
		e.flush(pieceOther)
		switch {
		case isCJK(r):
			e.total += cjkPerRune
		case unicode.IsPunct(r):
			e.total++ // full-width punctuation: a token each
		default:
			e.total += float64(utf8.RuneLen(r)) / otherBytesPerToken
		}
	}
}

// flushNonSpace ends the open word, number or punctuation piece.
func (e *estimator) flushNonSpace(next piece) {
	if e.word > 0 {
		e.total += float64((e.word + wordLetters - 1) / wordLetters)
		e.word, e.lower = 0, false
	}
	if e.digits > 0 {
		e.total += float64((e.digits + digitGroup - 1) / digitGroup)
		e.digits = 0
	}
	if e.punct > 0 {
		n := e.punct
		if next == pieceWord {
			n-- // one leading punctuation character joins the word (".Builder", "(ev")
		}
		if n > 0 {
			e.total += max(1, float64(n)/punctPerToken)
		}
		e.punct = 0
	}
}

// flush ends every open piece before a piece of kind next starts.
func (e *estimator) flush(next piece) {
	e.flushNonSpace(next)
	if e.newline {
		e.total++ // line breaks (and blank lines) are one piece
	}
	indent := e.indent
	if indent > 0 && (next == pieceWord || next == piecePunct) {
		indent-- // the last space or tab joins the next piece (" the", "\tif")
	}
	if indent > 0 {
		e.total += 1 + float64(indent-1)/spaceRun
	}
	e.newline, e.indent = false, 0
}

func isASCIILetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' }

// isCJK reports Han, kana and Hangul: scripts written without spaces whose
// characters a large vocabulary mostly holds whole.
func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// estimateMessage estimates what one message costs in a request.
func estimateMessage(m provider.Message) int {
	n := messageOverhead + EstimateTokens(m.Text) + EstimateTokens(m.Reasoning) + imageTokens(m)
	for _, c := range m.ToolCalls {
		n += toolCallOverhead + EstimateTokens(c.Name) + EstimateTokens(c.Arguments)
	}
	return n
}

// estimateMessages estimates a run of messages.
func estimateMessages(ms []provider.Message) int {
	n := 0
	for _, m := range ms {
		n += estimateMessage(m)
	}
	return n
}

// estimateTools estimates the tool list of a request.
func estimateTools(specs []provider.ToolSpec) int {
	n := 0
	for _, s := range specs {
		n += toolCallOverhead + EstimateTokens(s.Name) + EstimateTokens(s.Description) + EstimateTokens(string(s.Schema))
	}
	return n
}
