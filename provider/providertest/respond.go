package providertest

import (
	"net/http"
	"time"
)

// answer is what one accepted request gets: a scripted status, or frames.
type answer struct {
	dialect    string
	frames     [][]byte
	finishFrom int // first frame of the finish (dropped by Fault.NoFinish)
	fault      *Fault
	generated  *generated // written before frame generated.at; faults count frames without it
}

// garbageFrame is a data line that is not JSON, framed like the dialect's
// frames so that only the JSON decoding can notice it.
func garbageFrame(dialect string) []byte {
	if dialect == dialectAnthropic {
		return []byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",<<garbage, not JSON>>\n\n")
	}
	return []byte("data: {\"id\":<<garbage, not JSON>>\n\n")
}

// respond writes an accepted request's answer, applying its fault.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, ans *answer) {
	f := ans.fault
	if f != nil && f.Status != 0 {
		body := []byte(f.Body)
		if f.Body == "" {
			body = errorBody(ans.dialect, f.Status, http.StatusText(f.Status))
		}
		writeJSON(w, f.Status, body, f.RetryAfter)
		return
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if s.keepAlive {
		_, _ = w.Write([]byte(": keep-alive\n\n"))
	}
	if rc.Flush() != nil {
		return
	}
	frames := ans.frames
	if f != nil && f.NoFinish {
		frames = frames[:ans.finishFrom]
	}
	for i := 0; ; i++ {
		if f != nil {
			if !s.disturb(w, r, rc, ans, f, i, len(frames)) {
				return
			}
		}
		if g := ans.generated; g != nil && g.at == i && !g.write(func(frame []byte) bool {
			_, err := w.Write(frame)
			return err == nil && rc.Flush() == nil
		}) {
			return
		}
		if i == len(frames) {
			return
		}
		if _, err := w.Write(frames[i]); err != nil {
			return // the client went away
		}
		if rc.Flush() != nil {
			return
		}
	}
}

// at reports whether a fault positioned at pos fires before frame i of n.
func at(pos int, active bool, i, n int) bool {
	return active && min(max(pos, 0), n) == i
}

// disturb applies the faults positioned before frame i of n, in the order
// stall, garbage, error event, drop. It reports whether the stream goes on.
func (s *Server) disturb(w http.ResponseWriter, r *http.Request, rc *http.ResponseController, ans *answer, f *Fault, i, n int) bool {
	if pos, ok := f.stallAt(); at(pos, ok, i, n) {
		if !s.stall(r, f.Stall) {
			return false
		}
	}
	if pos, ok := f.garbageAt(); at(pos, ok, i, n) {
		if _, err := w.Write(garbageFrame(ans.dialect)); err != nil || rc.Flush() != nil {
			return false
		}
	}
	if at(f.AfterFrames, f.ErrorEvent, i, n) {
		frame := chatErrorFrame()
		if ans.dialect == dialectAnthropic {
			frame = messagesErrorFrame()
		}
		_, _ = w.Write(frame)
		_ = rc.Flush()
		return false
	}
	if pos, ok := f.dropAt(); at(pos, ok, i, n) {
		_ = rc.Flush()
		// The server closes the connection without terminating the chunked
		// body: the client's read fails with an unexpected EOF.
		panic(http.ErrAbortHandler)
	}
	return true
}

// stall waits d (forever when d ≤ 0) unless the client goes away or the
// server closes; it reports whether to go on writing.
func (s *Server) stall(r *http.Request, d time.Duration) bool {
	var timeout <-chan time.Time
	if d > 0 {
		timer := time.NewTimer(d)
		defer timer.Stop()
		timeout = timer.C
	}
	select {
	case <-timeout:
		return true
	case <-r.Context().Done():
		return false
	case <-s.closing:
		return false
	}
}
