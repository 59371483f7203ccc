package contentstore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stores runs a test on a store on disk and on one in memory.
func stores(t *testing.T, f func(t *testing.T, s *Store)) {
	t.Run("disk", func(t *testing.T) { f(t, Open(filepath.Join(t.TempDir(), "s.content"), nil)) })
	t.Run("memory", func(t *testing.T) { f(t, NewMemory()) })
}

// must(t)(s.Put(…)) is the hash, or the test's end.
func must(t *testing.T) func(Hash, error) Hash {
	return func(h Hash, err error) Hash {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
}

func mustGet(t *testing.T, s *Store, h Hash, want string) {
	t.Helper()
	got, err := s.Get(h)
	if err != nil {
		t.Fatalf("Get %s: %v", h, err)
	}
	if got != want {
		t.Fatalf("Get %s = %d bytes %.40q…, want %d bytes %.40q…", h, len(got), got, len(want), want)
	}
}

// big is a text of about n bytes, lines numbered so that no two are alike.
func big(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString("line ")
		b.WriteString(strings.Repeat("x", i%50))
		b.WriteString("\n")
	}
	return b.String()
}

func TestPutGetWholeAndDelta(t *testing.T) {
	stores(t, func(t *testing.T, s *Store) {
		base := big(200 << 10)
		bh := must(t)(s.Put(base))
		if bh != Sum(base) {
			t.Fatal("Put's hash is not the text's SHA-256")
		}
		mustGet(t, s, bh, base)
		edited := base[:1000] + "CHANGED" + base[1010:]
		eh := must(t)(s.PutDelta(edited, bh, base))
		mustGet(t, s, eh, edited)
		near := edited[:5000] + edited[5001:]
		nh := must(t)(s.PutNear(near, eh))
		mustGet(t, s, nh, near)
		grown := near + "appended\n"
		mustGet(t, s, must(t)(s.PutDelta(grown, nh, near)), grown)
		shrunk := near[100:]
		mustGet(t, s, must(t)(s.PutDelta(shrunk, nh, near)), shrunk)
		if h := must(t)(s.Put("")); h != Empty || !s.Has(Empty) {
			t.Fatal("the empty text")
		}
		mustGet(t, s, Empty, "")
		if _, err := s.Get(Sum("never stored")); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Get of a text never stored: %v", err)
		}
	})
}

// A delta stores the changed region, not the text: one edit of a 200 KB
// file adds a file of the edit's size plus a header.
func TestDeltaStoresTheChangedRegion(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s.content")
	s := Open(dir, nil)
	base := big(200 << 10)
	bh := must(t)(s.Put(base))
	edited := base[:50000] + "a new line in the middle\n" + base[50000:]
	eh := must(t)(s.PutDelta(edited, bh, base))
	fi, err := os.Stat(filepath.Join(dir, eh.String()))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > 200 || fi.Mode().Perm() != 0o600 {
		t.Fatalf("delta file: %d bytes, mode %v; want ≤ 200 bytes, 0600", fi.Size(), fi.Mode().Perm())
	}
	if di, err := os.Stat(dir); err != nil || di.Mode().Perm() != 0o700 {
		t.Fatalf("content dir: %v %v", di.Mode().Perm(), err)
	}
	// A second store on the directory (a resumed session) reads it.
	mustGet(t, Open(dir, nil), eh, edited)
}

// A baseText that is not base's text (its size differs) makes a whole copy,
// never a wrong delta.
func TestPutDeltaAgainstAnotherText(t *testing.T) {
	stores(t, func(t *testing.T, s *Store) {
		a := big(10 << 10)
		ah := must(t)(s.Put(a))
		b := a + "more"
		bh := must(t)(s.PutDelta(b, ah, a+"something else"))
		mustGet(t, s, bh, b)
		if blob, _ := s.header(bh); !blob.full() {
			t.Fatal("a delta against a text that is not the base's")
		}
	})
}

// Chains stay short: after maxDepth deltas, or when the deltas add up to
// more than the whole text, the next text is stored whole.
func TestDeltaChainsAreBounded(t *testing.T) {
	stores(t, func(t *testing.T, s *Store) {
		text := big(64 << 10)
		h := must(t)(s.Put(text))
		for i := range maxDepth + 5 {
			next := text[:i*10] + "#" + text[i*10+1:]
			h = must(t)(s.PutDelta(next, h, text))
			text = next
			b, _ := s.header(h)
			if b.depth > maxDepth {
				t.Fatalf("edit %d: depth %d", i, b.depth)
			}
			if i == maxDepth && !b.full() {
				t.Fatalf("edit %d: still a delta at depth %d", i, b.depth)
			}
		}
		mustGet(t, s, h, text)

		// Deltas that outgrow the text: each rewrites half of it.
		small := big(4 << 10)
		h = must(t)(s.Put(small))
		sawFull := false
		for i := range 4 {
			next := small[:len(small)/2] + strings.Repeat(string(rune('a'+i)), len(small)/2-300) + small[len(small)-300:]
			h = must(t)(s.PutDelta(next, h, small))
			small = next
			b, _ := s.header(h)
			if b.chain > b.root {
				t.Fatalf("chain %d over root %d", b.chain, b.root)
			}
			sawFull = sawFull || b.full()
		}
		if !sawFull {
			t.Fatal("deltas as big as the text never made a whole copy")
		}
		mustGet(t, s, h, small)
	})
}

// A private text never reaches the disk: this store reads it, a store
// opened later on the same directory does not.
func TestPrivateTextsStayInMemory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s.content")
	s := Open(dir, PrivateFunc(func(text string) bool { return strings.Contains(text, "SECRET") }))
	pub := must(t)(s.Put("public text\n"))
	priv := must(t)(s.PutDelta("public text\nSECRET\n", pub, "public text\n"))
	mustGet(t, s, priv, "public text\nSECRET\n")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if strings.Contains(string(b), "SECRET") {
			t.Fatalf("%s holds the secret", e.Name())
		}
	}
	if _, err := Open(dir, nil).Get(priv); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a later store reads the private text: %v", err)
	}
}

// A damaged content file is an error, never a wrong text.
func TestDamagedContentIsAnError(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s.content")
	s := Open(dir, nil)
	h := must(t)(s.Put("the original text\n"))
	if err := os.WriteFile(filepath.Join(dir, h.String()), []byte("cs1 full\nthe damaged text\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(h); err == nil {
		t.Fatalf("Get of a damaged file = %q, no error", got)
	}
}

// A write that fails keeps the text in memory (the caller's checkpoint
// works until the process ends) and says so; later texts stay in memory.
func TestFailedWriteKeepsTheTextInMemory(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "s.content")
	if err := os.WriteFile(dir, nil, 0o600); err != nil { // a file where the directory should be
		t.Fatal(err)
	}
	s := Open(dir, nil)
	h, err := s.Put("some text\n")
	if err == nil {
		t.Fatal("no error from a write that cannot land")
	}
	mustGet(t, s, h, "some text\n")
	h2, err := s.Put("a later text\n")
	if err != nil {
		t.Fatalf("a later Put: %v", err)
	}
	mustGet(t, s, h2, "a later text\n")
}

func TestHashText(t *testing.T) {
	h := Sum("abc")
	b, err := h.MarshalText()
	if err != nil || string(b) != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatalf("%s %v", b, err)
	}
	var back Hash
	if err := back.UnmarshalText(b); err != nil || back != h {
		t.Fatalf("%v %v", back, err)
	}
	if err := back.UnmarshalText([]byte("zz")); err == nil {
		t.Fatal("a bad hash parsed")
	}
	if b, _ := (Hash{}).MarshalText(); len(b) != 0 {
		t.Fatal("the zero hash is not empty text")
	}
}

func TestCommon(t *testing.T) {
	long := strings.Repeat("abcdefgh", 2000)
	for _, c := range []struct {
		a, b         string
		prefix, suff int
	}{
		{"", "", 0, 0},
		{"abc", "abc", 3, 0},
		{"abc", "abXc", 2, 1},
		{"aaaa", "aa", 2, 0},
		{long, long[:9000] + "Z" + long[9001:], 9000, len(long) - 9001},
		{long + "tail", "head" + long, 0, 0},
	} {
		p, s := common(c.a, c.b)
		if p != c.prefix || s != c.suff {
			t.Errorf("common(%.20q, %.20q) = %d, %d; want %d, %d", c.a, c.b, p, s, c.prefix, c.suff)
		}
	}
}
