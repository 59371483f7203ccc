package tools

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// changeHolds checks after, a change of before (which must hold no
// secret), by the change only, and compares it with the whole check.
func changeHolds(t *testing.T, before, after string) bool {
	t.Helper()
	check := CurrentSecretCheck()
	if check.Holds([]byte(before)) {
		t.Fatalf("the text before the change holds a secret: %q", before)
	}
	prefix := 0
	for prefix < len(before) && prefix < len(after) && before[prefix] == after[prefix] {
		prefix++
	}
	suffix := 0
	for suffix < len(before)-prefix && suffix < len(after)-prefix &&
		before[len(before)-1-suffix] == after[len(after)-1-suffix] {
		suffix++
	}
	got := check.ChangeHolds([]byte(after), prefix, len(after)-suffix)
	if want := check.Holds([]byte(after)); got != want {
		t.Errorf("change %q -> %q: ChangeHolds = %v, the whole check %v", before, after, got, want)
	}
	return got
}

const changeToken = "ghp_Q7wZk2Lm9Xc4Vb8Nt1Rp5Sd3Fg6Hj0KyUe4Tq"

// A change is judged as the whole text would be, where the secret's match
// reaches beyond the changed bytes: a prefix completed by the change, a
// word byte before a token removed, a word boundary after a key id made,
// a PEM header split over the change, a hidden value around it.
func TestSecretCheckOfAChangeIsTheWholeCheck(t *testing.T) {
	const hidden = "hidden-change-value-5d1e\nsecond line"
	t.Setenv("AGENT_TEST_CHANGE_TOKEN", hidden)
	if err := HideEnv("AGENT_TEST_CHANGE_TOKEN"); err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("a line of ordinary text\n", 50)
	cases := []struct {
		name          string
		before, after string
		secret        bool
	}{
		{"token typed in", "x = \n", "x = " + changeToken + "\n", true},
		{"prefix completed", "x = gh_" + changeToken[4:] + "\n", "x = " + changeToken + "\n", true},
		{"word byte before removed", "x = Z" + changeToken + "\n", "x = " + changeToken + "\n", true},
		{"word byte before added", "x = " + "\n", "x = Z" + changeToken + "\n", false},
		{"key id ended", "id AKIA7Q2M4N6P8R1T3V5XX\n", "id AKIA7Q2M4N6P8R1T3V5X \n", true},
		{"key id ended by a line break", "id AKIA7Q2M4N6P8R1T3V5XX\n", "id AKIA7Q2M4N6P8R1T3V5X\n", true},
		{"PEM header joined", "-----BEGIN RSA PRIVATE\n KEY-----\nMIIB\n", "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n", true},
		{"PEM header far above", "-----BEGIN RSA PRIVATE KEY---\n" + pad + "body\n", "-----BEGIN RSA PRIVATE KEY---\n" + pad + "body!\n", false},
		{"password in a URL", "db = postgres://app@db\n", "db = postgres://app:hunter22@db\n", true},
		{"hidden value around the change", "v = hidden-change-value-5d1e\nsecond-line\n", "v = " + hidden + "\n", true},
		{"hidden value made by a deletion", "v = hidden-change-XXvalue-5d1e\nsecond line\n", "v = " + hidden + "\n", true},
		{"ordinary edit", "a\nb\nc\n", "a\nB\nc\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, around := range []string{"", pad} {
				if got := changeHolds(t, around+c.before+around, around+c.after+around); got != c.secret {
					t.Errorf("ChangeHolds = %v, want %v", got, c.secret)
				}
			}
		})
	}
}

// Random changes of texts built from pieces of secrets: the change's
// check always agrees with the whole one.
func TestSecretCheckOfRandomChanges(t *testing.T) {
	pieces := []string{"\n", " ", "x", "Z", "_", "-", "gh", "p_", "ghp_", changeToken[4:20], changeToken[20:],
		"sk-", "Wq3Ez8Rt1Yu6Io4Pa9Sd2FgXc", "AKIA", "7Q2M4N6P8R1T3V5X", "-----BEGIN", " PRIVATE KEY", "-----",
		"://", "user", ":", "pw", "@", "eyJ", "abcdefghijkl", ".",
		"AKIA7Q2M4N6P8R1T3V5X", "-----BEGIN RSA PRIVATE KEY-----", "://u:pw@", "sk-Wq3Ez8Rt1Yu6Io4Pa9Sd2Fg"}
	rng := rand.New(rand.NewPCG(1, 2))
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	check := CurrentSecretCheck()
	tried, secrets := 0, 0
	for tried < 3000 {
		before := text(3 + rng.IntN(30))
		if check.Holds([]byte(before)) {
			continue
		}
		from := rng.IntN(len(before) + 1)
		to := from + rng.IntN(len(before)-from+1)
		after := before[:from] + text(rng.IntN(4)) + before[to:]
		if changeHolds(t, before, after) {
			secrets++
		}
		tried++
	}
	if secrets < 300 {
		t.Fatalf("only %d of %d random changes made a secret: the test does not exercise the check", secrets, tried)
	}
}
