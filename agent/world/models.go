package world

import (
	"io"
	"net/http"
	"sync"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/connect"
)

// ModelOptions are what every model connection of a run shares.
type ModelOptions struct {
	// Getenv reads the API keys' variables; nil: none is set.
	Getenv func(string) string
	// RecordPath, when set, records every exchange of the run, across
	// model switches, into this file (created, or emptied, once).
	RecordPath string
	// ReplayPath, when set, answers every model, the first and any
	// switched to, from this recording, in order; no key is needed. It
	// wins over RecordPath: a replay talks to no model.
	ReplayPath string
	// WrapReplay, when set, wraps the replay (the demo's --replay-denied).
	WrapReplay func(provider.Provider) (provider.Provider, error)
	// RawDump receives every raw SSE line (--dump-raw).
	RawDump io.Writer
	// Redact rewrites what the recording and the raw dump write.
	Redact func(string) string
	// Client is the HTTP client (nil: the default one).
	Client *http.Client
	Logger *zap.Logger
}

// Models builds a run's model connections: the configured model's and
// every switched one's, over one recorder or from one replay.
type Models struct {
	conn   connect.Options // with the shared recorder
	rec    *provider.Recorder
	replay provider.Provider // nil: connections talk to the network
	err    error             // why the recording or replay could not be opened

	closeOnce sync.Once
	closeErr  error
}

// OpenModels opens the recording or the replay of o, once for the run.
// When it cannot, it returns why, with Models whose every Connect fails
// with that error: a front end that serves anyway (the daemon, ACP) tells
// the user at the first prompt, as it does of a missing key.
func OpenModels(o ModelOptions) (*Models, error) {
	m := &Models{conn: connect.Options{Getenv: o.Getenv, RawDump: o.RawDump, Redact: o.Redact, Client: o.Client, Logger: o.Logger}}
	switch {
	case o.ReplayPath != "":
		r, err := provider.NewReplay(o.ReplayPath, connect.Dialects()...)
		if err == nil && o.WrapReplay != nil {
			m.replay, err = o.WrapReplay(r)
		} else {
			m.replay = r
		}
		m.err = err
	case o.RecordPath != "":
		m.rec, m.err = provider.OpenRecorder(o.RecordPath)
		m.conn.Recorder = m.rec
	}
	if m.err != nil {
		m.rec, m.conn.Recorder, m.replay = nil, nil, nil
	}
	return m, m.err
}

// Replaying reports whether the models answer from a recording.
func (m *Models) Replaying() bool { return m.replay != nil }

// Connect builds the client of cfg: over the run's recorder, or the
// run's replay itself (whose next answer is the session's next exchange,
// whatever the model).
func (m *Models) Connect(cfg provider.Config) (provider.Provider, error) {
	if m.err != nil {
		return nil, m.err
	}
	if m.replay != nil {
		return m.replay, nil
	}
	p, _, err := connect.New(cfg, m.conn) // its close is a no-op: the recorder is ours
	return p, err
}

// Connector is Connect in the shape of control.Options.Connect.
func (m *Models) Connector() func(provider.Config) (provider.Provider, func() error, error) {
	return func(cfg provider.Config) (provider.Provider, func() error, error) {
		p, err := m.Connect(cfg)
		return p, nil, err
	}
}

// Close flushes and closes the recording and reports its first write
// error; later calls return the same.
func (m *Models) Close() error {
	m.closeOnce.Do(func() {
		if m.rec != nil {
			m.closeErr = m.rec.Close()
		}
	})
	return m.closeErr
}
