package main

import (
	"fmt"
	"io"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/agent-lsp/agent-lsp/tools"
)

// newLogger logs to path as JSON at debug level, or, without a path, only
// warnings and errors to stderr. Never to stdout: it belongs to the protocol
// (or to the chat's answer). Every line passes tools.RedactSecrets on its
// way out: the core writes each encoded entry in one Write, so one wrapper
// round the sink covers every logger derived from this one (lsp's, mcp's
// named ones) and every field, whatever its type.
func newLogger(path string, stderr io.Writer) (*zap.Logger, error) {
	if path != "" {
		// zap.NewProductionConfig's choices, built by hand to reach the sink.
		sink, _, err := zap.Open(path)
		if err != nil {
			return nil, fmt.Errorf("log file %s: %w", path, err)
		}
		out := redactingSink{sink}
		core := zapcore.NewCore(zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig()), out, zap.DebugLevel)
		core = zapcore.NewSamplerWithOptions(core, time.Second, 100, 100)
		return zap.New(core, zap.ErrorOutput(out), zap.AddCaller(), zap.AddStacktrace(zap.ErrorLevel)), nil
	}
	enc := zapcore.NewConsoleEncoder(zap.NewDevelopmentEncoderConfig())
	out := redactingSink{zapcore.AddSync(stderr)}
	core := zapcore.NewCore(enc, out, zap.WarnLevel)
	return zap.New(core, zap.ErrorOutput(out)), nil
}

// redactingSink writes through tools.RedactSecretBytes.
type redactingSink struct{ zapcore.WriteSyncer }

func (s redactingSink) Write(p []byte) (int, error) {
	if _, err := s.WriteSyncer.Write(tools.RedactSecretBytes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
