package tools

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/internal/fixturetest"
)

// containsSecretValueByFindAll is the rules' own scan, what
// containsSecretValue must find.
func containsSecretValueByFindAll(b []byte) bool {
	for i, re := range compiledSecretRules() {
		r := secretValueRules[i]
		for _, m := range re.FindAllIndex(b, -1) {
			if !r.word || m[0] == 0 || !isWordByte(b[m[0]-1]) {
				return true
			}
		}
	}
	return false
}

// The one-pass scan finds a credential exactly where the rules' FindAll
// does: the fixtures' credentials alone and inside words, and random
// texts made of pieces of every rule (prefixes, bodies, word bytes before
// them, matches that overlap and hide one another).
func TestSecretScanFindsWhatFindAllFinds(t *testing.T) {
	var pieces []string
	for _, c := range fixturetest.CredentialVariables() {
		for _, v := range []string{c.Value, "x" + c.Value, c.Value + "x", "_" + c.Value} {
			if got, want := containsSecretValue([]byte(v)), containsSecretValueByFindAll([]byte(v)); got != want {
				t.Errorf("%q: scan %v, FindAll %v", v, got, want)
			}
		}
		// The rare bytes everywhere before it: the scan gives up on them
		// for bytes.Index, and must still find it.
		crowded := strings.Repeat("J_k:xgK/ -", 400) + c.Value
		if got, want := containsSecretValue([]byte(crowded)), containsSecretValueByFindAll([]byte(crowded)); got != want {
			t.Errorf("%q after common rare bytes: scan %v, FindAll %v", c.Value, got, want)
		}
		if len(c.Value) > 6 {
			pieces = append(pieces, c.Value[:len(c.Value)/2], c.Value[len(c.Value)/2:])
		}
	}
	for _, g := range compiledSecretScans() {
		for _, r := range g.rules {
			pieces = append(pieces, r.prefix, r.prefix[:len(r.prefix)-1], r.prefix[1:])
		}
	}
	pieces = append(pieces, "\n", " ", "x", "Z", "_", "-", ".", ":", "@", "/", "=", "\\n",
		"Wq3Ez8Rt1Yu6Io4Pa9Sd2FgXc", "7Q2M4N6P8R1T3V5X", "abcdefghijkl", " PRIVATE KEY", "-----", "-----END RSA PRIVATE KEY-----")
	// A match the word check refuses hides the one inside it.
	for _, text := range []string{"xsk-Wq3Ez8Rt-sk-Wq3Ez8Rt1Yu6Io4Pa9Sd2FgXc", "xghp_" + changeToken[4:] + "-ghp_" + changeToken[4:]} {
		for _, pad := range []string{"", strings.Repeat("a quiet line of text\n", 20)} {
			b := []byte(pad + text + pad)
			if got, want := containsSecretValue(b), containsSecretValueByFindAll(b); got != want {
				t.Errorf("%q: scan %v, FindAll %v", text, got, want)
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	secrets := 0
	const texts = 20000
	for n := range texts {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			if n%2 == 0 { // rare bytes far apart: the scan does not fall back to bytes.Index
				b.WriteString(strings.Repeat("a quiet line\n", 3))
			}
		}
		text := []byte(b.String())
		got, want := containsSecretValue(text), containsSecretValueByFindAll(text)
		if got != want {
			t.Fatalf("%q: scan %v, FindAll %v", text, got, want)
		}
		if want {
			secrets++
		}
	}
	if secrets < texts/50 || secrets > texts*19/20 {
		t.Fatalf("%d of %d random texts hold a credential: the test does not tell the scans apart", secrets, texts)
	}
}

// bigProse is about n bytes of the text bench/bigfile edits.
func bigProse(n int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString("line 0001234: the quick brown fox jumps over the lazy dog, a big file's text\n")
	}
	return []byte(b.String())
}

func benchmarkSecretScan(b *testing.B, text []byte, scan func([]byte) bool) {
	b.SetBytes(int64(len(text)))
	for range b.N {
		if scan(text) {
			b.Fatal("a credential in the benchmark's text")
		}
	}
}

func BenchmarkSecretScanProse(b *testing.B) {
	benchmarkSecretScan(b, bigProse(20<<20), containsSecretValue)
}

func BenchmarkSecretFindAllProse(b *testing.B) {
	benchmarkSecretScan(b, bigProse(20<<20), containsSecretValueByFindAll)
}

func BenchmarkSecretScanSource(b *testing.B) {
	benchmarkSecretScan(b, []byte(bigSource(20<<20)), containsSecretValue)
}

func BenchmarkSecretFindAllSource(b *testing.B) {
	benchmarkSecretScan(b, []byte(bigSource(20<<20)), containsSecretValueByFindAll)
}
