package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// testDialect is a deliberately trivial wire format so the shared machinery
// is tested without the real dialects:
//
//	request body: {"model":"m","messages":N}
//	frames:       data: {"t":"text","v":"hi"} | {"t":"done"} | {"t":"error","v":"why"}
type testDialect struct{}

func (testDialect) Name() string { return "test" }
func (testDialect) Path() string { return "/v1/test" }

func (testDialect) Encode(req Request) ([]byte, error) {
	return json.Marshal(map[string]any{"model": req.Model, "messages": len(req.Messages)})
}

func (testDialect) SetHeaders(h http.Header, apiKey string) {
	if apiKey != "" {
		h.Set("Authorization", "Bearer "+apiKey)
	}
}

func (testDialect) NewDecoder() Decoder { return &testDecoder{} }

type testDecoder struct{ frames int }

func (d *testDecoder) Frame(event string, data []byte, emit func(Event)) error {
	d.frames++
	var f struct{ T, V string }
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("test frame %d: %w", d.frames, err)
	}
	switch f.T {
	case "text":
		emit(Event{Type: EventText, Text: f.V})
	case "done":
		emit(Event{Type: EventDone, StopReason: StopEndTurn})
	case "error":
		return &ServerError{Type: "test_error", Message: f.V}
	default:
		return fmt.Errorf("test frame %d: unknown type %q", d.frames, f.T)
	}
	return nil
}

func (d *testDecoder) End(func(Event)) error {
	return errors.New("test stream ended before its done frame")
}
