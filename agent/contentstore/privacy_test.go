package contentstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wordPrivacy finds "SECRET" private; its rules are a version the test
// bumps. It records how each text was judged.
type wordPrivacy struct {
	version int
	whole   []string
	changes []string // the changed region judged
}

func (p *wordPrivacy) Private(text string) (bool, any) {
	p.whole = append(p.whole, text)
	return strings.Contains(text, "SECRET"), p.version
}

func (p *wordPrivacy) PrivateChange(text string, from, to int, rules any) (bool, any, bool) {
	if rules != p.version {
		return false, nil, false
	}
	// The word may straddle the change: look that far around it.
	lo, hi := max(0, from-len("SECRET")+1), min(len(text), to+len("SECRET")-1)
	p.changes = append(p.changes, text[from:to])
	return strings.Contains(text[lo:hi], "SECRET"), p.version, true
}

// A text stored as a change of one found not private is judged by the
// change: the store hands the privacy the changed region, keeps a change
// that makes it private off the disk, and judges a text whole again when
// the rules changed since its base was judged, or when its base was never
// judged by this store (a base read back from an earlier process's store).
func TestChangeOfAClearedTextIsJudgedByTheChange(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s.content")
	p := &wordPrivacy{}
	s := Open(dir, p)
	base := strings.Repeat("a line of text\n", 1000)
	bh := must(t)(s.Put(base))
	edited := base[:7000] + "TEXT" + base[7004:]
	eh := must(t)(s.PutDelta(edited, bh, base))
	if len(p.whole) != 1 || len(p.changes) != 1 || p.changes[0] != "TEXT" {
		t.Fatalf("judged whole %d times, by change %q: want the base whole and the edit by its change", len(p.whole), p.changes)
	}
	mustGet(t, s, eh, edited)

	// "SEC" then "RET": the word is made by two changes, the second
	// judged by its region and what it can reach of the first.
	half := edited[:9000] + "SEC" + edited[9000:]
	secret := half[:9003] + "RET" + half[9003:]
	hh := must(t)(s.PutDelta(half, eh, edited))
	sh := must(t)(s.PutDelta(secret, hh, half))
	mustGet(t, s, sh, secret)
	if _, err := os.Stat(filepath.Join(dir, sh.String())); err == nil {
		t.Fatal("the text made private by its change was written")
	}

	p.version++ // the rules changed: the next change of a text judged before is judged whole
	wholeBefore := len(p.whole)
	must(t)(s.PutDelta(edited+"more\n", eh, edited))
	if len(p.whole) != wholeBefore+1 {
		t.Fatalf("after the rules changed, a change was not judged whole (%d whole judgments, want %d)", len(p.whole), wholeBefore+1)
	}

	// A later store never judged base: it judges a change of it whole.
	later := &wordPrivacy{version: p.version}
	s2 := Open(dir, later)
	must(t)(s2.PutDelta(edited+"again\n", eh, edited))
	if len(later.whole) != 1 || len(later.changes) != 0 {
		t.Fatalf("a store that never judged the base: %d whole, %d by change; want 1 whole", len(later.whole), len(later.changes))
	}
	if _, err := os.Stat(filepath.Join(dir, sh.String())); err == nil {
		t.Fatalf("%s (private) is on disk", sh)
	}
}
