package provider

import (
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// maxBodyExcerpt bounds the part of an error answer kept in an HTTPError.
const maxBodyExcerpt = 500

// HTTPError is a non-2xx answer of the model API.
type HTTPError struct {
	Status int
	// Body is an excerpt of the answer (at most 500 bytes, whitespace
	// collapsed, the API key scrubbed).
	Body string
	// Attempts counts the requests made, retries included.
	Attempts int
}

func (e *HTTPError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model API answered %d", e.Status)
	if text := statusText(e.Status); text != "" {
		b.WriteString(" " + text)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	if e.Body != "" {
		b.WriteString(": " + e.Body)
	}
	return b.String()
}

func statusText(status int) string {
	if status == 529 { // Anthropic's own code, unknown to net/http
		return "Overloaded"
	}
	return http.StatusText(status)
}

// IdleTimeoutError says no byte arrived for Idle.
type IdleTimeoutError struct{ Idle time.Duration }

func (e *IdleTimeoutError) Error() string {
	return fmt.Sprintf("model API stream idle for %s", e.Idle)
}

// retriedError adds the attempt count to a failure that survived retries.
type retriedError struct {
	err      error
	attempts int
}

func (e *retriedError) Error() string {
	return fmt.Sprintf("%s (after %d attempts)", e.err, e.attempts)
}

func (e *retriedError) Unwrap() error { return e.err }

func withAttempts(err error, attempts int) error {
	if attempts <= 1 {
		return err
	}
	return &retriedError{err: err, attempts: attempts}
}

// scrub replaces every occurrence of secret in s.
func scrub(s, secret string) string {
	if secret == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, redacted)
}

const redacted = "[REDACTED]"

// excerpt makes an error body fit for a message: key scrubbed, whitespace
// collapsed to single spaces, cut at a rune boundary to maxBodyExcerpt bytes.
func excerpt(body []byte, secret string) string {
	s := strings.Join(strings.Fields(scrub(string(body), secret)), " ")
	if len(s) <= maxBodyExcerpt {
		return s
	}
	const ellipsis = "…"
	cut := maxBodyExcerpt - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}
