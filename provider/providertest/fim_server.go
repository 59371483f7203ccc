package providertest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
)

// fimDialectOf maps a request path to its FIM dialect ("" for none).
func fimDialectOf(path string) string {
	switch path {
	case "/beta/completions":
		return FIMDeepSeek
	case "/infill":
		return FIMLlamaCpp
	case "/api/generate":
		return FIMOllama
	case "/v1/fim/completions":
		return FIMMistral
	case "/v1/completions", "/completions":
		return FIMOpenAI
	}
	return ""
}

// fimAnswer is what an accepted FIM request gets.
type fimAnswer struct {
	req        *FIMRequest
	frames     []fimFrame
	finishFrom int
	turn       FIMTurn
	fault      *Fault
}

// serveFIM answers the FIM endpoints; it reports whether the path was one.
func (s *Server) serveFIM(w http.ResponseWriter, r *http.Request) bool {
	dialect := fimDialectOf(r.URL.Path)
	if dialect == "" {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	rec := Received{Dialect: dialect, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Turn: -1}
	var early *rejection
	switch {
	case err != nil:
		early = badRequest("reading the request body: %v", err)
	case r.Method != http.MethodPost:
		early = &rejection{status: http.StatusMethodNotAllowed, message: r.Method + " is not allowed; use POST"}
	}
	ans, rej := s.admitFIM(&rec, early)
	if rej != nil {
		if rej.status != http.StatusInternalServerError {
			s.t.Logf("providertest: %s %s refused with %d: %s", r.Method, r.URL.Path, rej.status, rej.message)
		}
		body := rej.body
		if body == nil {
			body = fimErrorBody(dialect, rej.status, rej.message)
		}
		writeJSON(w, rej.status, body, "")
		return true
	}
	s.respondFIM(w, r, ans)
	return true
}

// admitFIM validates the request and, when acceptable, consumes a turn,
// recording the request before it lets go of the script lock.
func (s *Server) admitFIM(rec *Received, early *rejection) (*fimAnswer, *rejection) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ans, rej := s.decideFIM(rec, early)
	if rej != nil {
		rec.Rejected, rec.Status, rec.Turn, rec.FIM = rej.message, rej.status, -1, nil
	}
	s.record(*rec)
	return ans, rej
}

func (s *Server) decideFIM(rec *Received, early *rejection) (*fimAnswer, *rejection) {
	if early != nil {
		return nil, early
	}
	if rej := checkChatAuth(rec.Header, s.apiKey); rej != nil {
		return nil, rej // every FIM server that checks a key reads a bearer token
	}
	req, rej := validateFIM(rec.Dialect, rec.Body)
	if rej == nil {
		rej = s.llama.checkOutput(rec.Body)
	}
	if rej != nil {
		return nil, rej
	}
	if s.llama != nil && req.Dialect == FIMOpenAI && req.Suffix != "" {
		// llama.cpp's /v1/completions takes "suffix" and drops it: the
		// model never sees the code after the cursor.
		req.Suffix, req.SuffixIgnored = "", true
	}
	if s.next >= len(s.script) {
		s.t.Errorf("providertest: request %s %s arrived past the end of the script (%d turns)", rec.Dialect, rec.Path, len(s.script))
		return nil, &rejection{status: http.StatusInternalServerError, message: "script exhausted"}
	}
	turn := s.script[s.next]
	errorOnly := turn.Fault != nil && turn.Fault.Status != 0
	if turn.FIM == nil && !errorOnly {
		s.t.Errorf("providertest: FIM request %s met chat turn %d", rec.Path, s.next)
		return nil, &rejection{status: http.StatusInternalServerError, message: "script mismatch: a chat turn"}
	}
	if f := turn.Fault; f != nil && (f.Stall != 0 || f.StallAfterFrames != 0) {
		s.t.Errorf("providertest: FIM turn %d: use FIMTurn.Stall, not Fault.Stall", s.next)
		return nil, &rejection{status: http.StatusInternalServerError, message: "script mismatch: Fault.Stall on a FIM turn"}
	}
	req.Turn = s.next
	rec.FIM = req
	if turn.Check != nil {
		candidate := *rec
		candidate.Turn = s.next
		if err := turn.Check(candidate); err != nil {
			return nil, badRequest("%s", err.Error())
		}
	}
	rec.Turn = s.next
	s.next++
	ans := &fimAnswer{req: req, fault: turn.Fault}
	if turn.FIM != nil {
		ans.turn = *turn.FIM
		ans.frames, ans.finishFrom = s.fimFramesOf(rec, req, ans.turn)
	}
	return ans, nil
}

// fimFramesOf cuts the turn's text and builds its frames.
func (s *Server) fimFramesOf(rec *Received, req *FIMRequest, t FIMTurn) ([]fimFrame, int) {
	frag := newFragmenter(s.seed, req.Turn, s.deltaSize)
	deltas := t.Chunks
	if len(deltas) == 0 {
		deltas = frag.split(t.Text)
	}
	if t.Stop != "" && t.Stop != FIMStop && t.Stop != FIMLength {
		s.t.Errorf("providertest: FIM turn %d: Stop %q, want FIMStop or FIMLength", req.Turn, t.Stop)
	}
	u := fimUsage{PromptTokens: t.PromptTokens, CompletionTokens: t.CompletionTokens}
	if u.PromptTokens == 0 {
		n := len(req.Prefix) + len(req.Suffix)
		for _, x := range req.Extra {
			n += len(x.Text)
		}
		u.PromptTokens = (n + 3) / 4
	}
	if u.CompletionTokens == 0 {
		u.CompletionTokens = len(deltas)
	}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	var includeUsage bool
	if o, ok := decodeObject(rec.Body); ok {
		if so, ok := decodeObject(o["stream_options"]); ok {
			includeUsage = so.isTrue("include_usage")
		}
	}
	id := frag.completionID()
	if req.Dialect == FIMMistral {
		id = frag.token(32)
	}
	return fimFrames(fimAnswerSpec{
		req: req, deltas: deltas, length: t.Stop == FIMLength, usage: u,
		includeUsage: includeUsage, id: id, created: req.Arrived,
	})
}

// respondFIM writes an accepted FIM request's answer and watches for the
// client going away: a disconnect before the server began writing the
// finish marks the request Closed, at the moment the server saw it. A client
// that goes once it has the finish (before a trailing [DONE], say) has not
// cut the answer short, and is not counted.
func (s *Server) respondFIM(w http.ResponseWriter, r *http.Request, ans *fimAnswer) {
	req := ans.req
	var finishing atomic.Bool
	cutShort := func() {
		if !finishing.Load() {
			req.markClosed()
		}
	}
	defer close(req.ended)
	// The watch stamps the disconnect the moment the server learns of it,
	// whatever the handler is doing. The check after it covers the window
	// in which ctx is done but the watch not yet started (stopWatch then
	// cancels it), and makes Closed precede Ended.
	stopWatch := context.AfterFunc(r.Context(), cutShort)
	defer func() {
		stopWatch()
		if r.Context().Err() != nil {
			cutShort()
		}
	}()
	if f := ans.fault; f != nil && f.Status != 0 {
		body := []byte(f.Body)
		if f.Body == "" {
			body = fimErrorBody(req.Dialect, f.Status, http.StatusText(f.Status))
		}
		finishing.Store(true) // an error answer is whole at once
		writeJSON(w, f.Status, body, f.RetryAfter)
		return
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	if req.Dialect == FIMOllama {
		h.Set("Content-Type", "application/x-ndjson")
	} else {
		h.Set("Content-Type", "text/event-stream; charset=utf-8")
		h.Set("Cache-Control", "no-cache")
	}
	w.WriteHeader(http.StatusOK)
	if rc.Flush() != nil {
		cutShort()
		return
	}
	frames := ans.frames
	if ans.fault != nil && ans.fault.NoFinish {
		frames = frames[:ans.finishFrom]
	}
	stallAt := fimStallFrame(frames, ans.finishFrom, ans.turn)
	for i := 0; ; i++ {
		if i == stallAt && !s.stall(r, ans.turn.Stall) {
			return
		}
		if f := ans.fault; f != nil && !s.disturbFIM(w, rc, req.Dialect, f, i, len(frames)) {
			return
		}
		if i >= ans.finishFrom {
			finishing.Store(true)
		}
		if i == len(frames) {
			return
		}
		if frames[i].delta && ans.turn.Delay > 0 && !s.stall(r, ans.turn.Delay) {
			return
		}
		if _, err := w.Write(frames[i].data); err != nil || rc.Flush() != nil {
			cutShort() // a write that fails is a client gone
			return
		}
	}
}

// fimStallFrame is the frame before which the turn stalls (-1: none): the
// one after StallAfter deltas, or the finish when there are fewer.
func fimStallFrame(frames []fimFrame, finishFrom int, t FIMTurn) int {
	if t.Stall == 0 {
		return -1
	}
	seen := 0
	for i, f := range frames[:finishFrom] {
		if seen == t.StallAfter {
			return i
		}
		if f.delta {
			seen++
		}
	}
	return finishFrom
}

// disturbFIM applies the chat Fault kinds a FIM turn takes before frame i
// of n: garbage, error event, drop. It reports whether the stream goes on.
func (s *Server) disturbFIM(w http.ResponseWriter, rc *http.ResponseController, dialect string, f *Fault, i, n int) bool {
	if pos, ok := f.garbageAt(); at(pos, ok, i, n) {
		if _, err := w.Write(fimGarbageFrame(dialect)); err != nil || rc.Flush() != nil {
			return false
		}
	}
	if at(f.AfterFrames, f.ErrorEvent, i, n) {
		_, _ = w.Write(fimErrorFrame(dialect))
		_ = rc.Flush()
		return false
	}
	if pos, ok := f.dropAt(); at(pos, ok, i, n) {
		_ = rc.Flush()
		panic(http.ErrAbortHandler) // the chunked body is never terminated
	}
	return true
}

// String names a FIM request in failure messages.
func (r *FIMRequest) String() string {
	return fmt.Sprintf("%s turn %d (prefix %d bytes, suffix %d bytes)", r.Dialect, r.Turn, len(r.Prefix), len(r.Suffix))
}
