package agent

import (
	"fmt"
	"unicode/utf8"
)

// What one answer of the model may hold. A real answer is a few KiB of text
// and a handful of tool calls; these bounds are met only by a broken or
// hostile model, and they keep the daemon's memory, the session file and the
// next request bounded whatever the model streams.
const (
	// DefaultMaxAnswerBytes bounds one answer's text, reasoning and tool-call
	// arguments together. Past it the stream is closed and the answer is
	// kept cut, with a marker the model reads in the next request.
	DefaultMaxAnswerBytes = 8 << 20
	// DefaultMaxToolCalls bounds the tool calls of one answer. An answer
	// asking for more ends the prompt with none of its calls run.
	DefaultMaxToolCalls = 128
)

// cut says why an answer stopped being accumulated before its end.
type cut uint8

const (
	notCut       cut = iota
	cutTooLong       // past Config.MaxAnswerBytes
	cutManyCalls     // past Config.MaxToolCalls
)

// answerLimits are one session's bounds on an answer.
type answerLimits struct {
	maxBytes, maxCalls int
}

// marker is what the model reads at the end of a cut answer in the next
// request, and what the user is told: the same words, so that neither is
// surprised by what the other saw.
func (l answerLimits) marker(c cut) string {
	switch c {
	case cutTooLong:
		return fmt.Sprintf("[answer cut at %s: the rest was not kept]", sizeText(l.maxBytes))
	case cutManyCalls:
		return fmt.Sprintf("[the answer asked for more than %d tool calls, the limit for one answer: none was run]", l.maxCalls)
	}
	return ""
}

// notice is the line a front end shows when a prompt ended at a limit.
func (s *Session) notice(r StopReason) string {
	switch r {
	case StopAnswerCut:
		return "stopped: " + s.limits.marker(cutTooLong)
	case StopToolCallLimit:
		return "stopped: " + s.limits.marker(cutManyCalls)
	case StopSpendLimit:
		return s.spendNotice()
	case StopMaxRounds:
		return fmt.Sprintf("stopped: the model used tools for %d rounds, the limit for one prompt; send a prompt to go on", s.cfg.MaxRounds)
	}
	return ""
}

// sizeText writes a byte count the way the limits are documented.
func sizeText(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// prefixWithin returns the longest prefix of s of at most n bytes that does
// not split a UTF-8 sequence.
func prefixWithin(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
