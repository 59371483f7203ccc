package providertest

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"unicode/utf8"
)

// fragmenter cuts streamed strings into deltas and makes the ids of one
// answer. Each answer has its own, seeded from the server seed and the turn
// index, so what a turn looks like on the wire does not depend on timing.
type fragmenter struct {
	rng       *rand.Rand
	deltaSize int // runes per delta; 0: 1–8 bytes extended to a rune boundary
}

func newFragmenter(seed int64, turn int, deltaSize int) *fragmenter {
	return &fragmenter{
		rng:       rand.New(rand.NewPCG(uint64(seed), uint64(turn)+0x9e3779b97f4a7c15)),
		deltaSize: deltaSize,
	}
}

// split cuts s into deltas that never split a UTF-8 sequence: JSON strings
// carry runes, so the services never split one either.
func (f *fragmenter) split(s string) []string {
	var out []string
	for len(s) > 0 {
		n := f.nextLen(s)
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

func (f *fragmenter) nextLen(s string) int {
	if f.deltaSize > 0 {
		n := 0
		for i := 0; i < f.deltaSize && n < len(s); i++ {
			_, size := utf8.DecodeRuneInString(s[n:])
			n += size
		}
		return n
	}
	n := 1 + f.rng.IntN(8)
	if n >= len(s) {
		return len(s)
	}
	for n < len(s) && !utf8.RuneStart(s[n]) {
		n++
	}
	return n
}

// chance reports true with probability 1/n.
func (f *fragmenter) chance(n int) bool { return f.rng.IntN(n) == 0 }

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

func (f *fragmenter) token(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = base62[f.rng.IntN(len(base62))]
	}
	return string(b)
}

// chatCallID looks like DeepSeek's: "call_00_" + 24 characters, the number
// being the call's index in the turn.
func (f *fragmenter) chatCallID(index int) string {
	return fmt.Sprintf("call_%02d_%s", index, f.token(24))
}

func (f *fragmenter) toolUseID() string { return "toolu_01" + f.token(22) }

func (f *fragmenter) messageID() string { return "msg_01" + f.token(22) }

// completionID looks like DeepSeek's completion ids (a UUID).
func (f *fragmenter) completionID() string {
	var b [16]byte
	for i := range b {
		b[i] = byte(f.rng.UintN(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// signature is an opaque thinking signature: base64 of random bytes, as long
// as the real ones tend to be. The server remembers which thinking it signed.
func (f *fragmenter) signature() string {
	b := make([]byte, 96)
	for i := range b {
		b[i] = byte(f.rng.UintN(256))
	}
	return base64.StdEncoding.EncodeToString(b)
}
