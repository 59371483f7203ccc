package provider

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// longText is the length from which a string is held apart while a value
// is encoded.
const longText = 64 << 10

// textChunk is how much of a held text is escaped at a time.
const textChunk = 32 << 10

// LongTexts writes JSON values holding long strings without building
// them whole: encoding/json marshals a value into one buffer it grows by
// doubling and keeps pooled, so an 8 MiB answer costs 16 MiB there, per
// goroutine that encodes it. A caller replaces each long string by Hold's
// placeholder, and Encode writes the value with every held text escaped
// into its place a chunk at a time. The bytes are those json.Encoder
// (without HTML escaping) writes for the value with its texts.
type LongTexts struct {
	nonce string
	texts []string
}

// Hold returns s, or a placeholder for it when s is long.
func (l *LongTexts) Hold(s string) string {
	if len(s) < longText {
		return s
	}
	if l.nonce == "" {
		var b [12]byte
		_, _ = rand.Read(b[:])
		l.nonce = hex.EncodeToString(b[:])
	}
	l.texts = append(l.texts, s)
	// NUL is written \u0000, so the placeholder's encoding is known.
	return "\x00" + l.nonce + ":" + strconv.Itoa(len(l.texts)-1) + "\x00"
}

// Encode writes v as a json.Encoder without HTML escaping would, newline
// included, each held text in its place.
func (l *LongTexts) Encode(w io.Writer, v any) error {
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	out := head.Bytes()
	if len(l.texts) == 0 {
		_, err := w.Write(out)
		return err
	}
	open := []byte(`\u0000` + l.nonce + ":")
	var chunk bytes.Buffer
	for {
		i := bytes.Index(out, open)
		if i < 0 {
			_, err := w.Write(out)
			return err
		}
		rest := out[i+len(open):]
		end := bytes.Index(rest, []byte(`\u0000`))
		n, err := strconv.Atoi(string(rest[:max(end, 0)]))
		if end < 0 || err != nil || n < 0 || n >= len(l.texts) {
			return fmt.Errorf("long text placeholder %q is damaged", rest[:min(len(rest), 40)])
		}
		if _, err := w.Write(out[:i]); err != nil {
			return err
		}
		if err := writeEscaped(w, &chunk, l.texts[n]); err != nil {
			return err
		}
		out = rest[end+len(`\u0000`):]
	}
}

// writeEscaped writes s's JSON escaping, without its quotes, a chunk at a
// time. Chunks end before a byte that starts a UTF-8 sequence, so no
// character (valid or not) is split and each escapes as within the whole.
func writeEscaped(w io.Writer, buf *bytes.Buffer, s string) error {
	for len(s) > 0 {
		n := min(textChunk, len(s))
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		buf.Reset()
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s[:n]); err != nil {
			return err
		}
		quoted := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		if _, err := w.Write(quoted[1 : len(quoted)-1]); err != nil {
			return err
		}
		s = s[n:]
	}
	return nil
}
