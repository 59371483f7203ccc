package provider

import "net/http"

// Dialect translates between the neutral vocabulary and one wire format. It
// knows nothing about retries, timeouts or recording: the HTTP streaming
// machinery in this package (HTTPProvider) does that for every dialect alike.
type Dialect interface {
	// Name is the dialect's configuration name: "openai" or "anthropic".
	Name() string
	// Path is the endpoint path appended to the base URL ("/chat/completions").
	Path() string
	// Encode builds the JSON request body (always a streaming request).
	Encode(req Request) ([]byte, error)
	// SetHeaders adds the dialect's headers, the credential among them when
	// apiKey is not empty.
	SetHeaders(h http.Header, apiKey string)
	// NewDecoder returns the state of one stream.
	NewDecoder() Decoder
}

// ServerAware is a Dialect that adjusts to the server once it has
// answered: the headers of a response can name the server behind a URL
// that did not (KindFromHeader). HTTPProvider calls ServerAnswered with the
// headers of every response, before its body is read.
type ServerAware interface {
	ServerAnswered(h http.Header)
}

// Decoder turns the SSE frames of one response into Events.
type Decoder interface {
	// Frame handles one SSE frame: the value of its "event:" field (empty when
	// absent) and its data (the "data:" lines joined by "\n"). It emits zero or
	// more events. It emits EventDone when the frame ends the answer; it never
	// emits EventFailure itself: a malformed frame or an error the server sent
	// in the stream is returned as an error, and the caller turns it into the
	// stream's failure.
	Frame(event string, data []byte, emit func(Event)) error
	// End is called when the body ended without EventDone having been
	// emitted. It may emit a held-back EventDone (a finish seen whose usage
	// was still expected); otherwise it returns an error saying the stream was
	// truncated.
	End(emit func(Event)) error
}
