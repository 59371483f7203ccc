package main

import (
	"fmt"
	"io"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// newLogger logs to path as JSON at debug level, or, without a path, only
// warnings and errors to stderr. Never to stdout: it belongs to the protocol
// (or to the chat's answer).
func newLogger(path string, stderr io.Writer) (*zap.Logger, error) {
	if path != "" {
		cfg := zap.NewProductionConfig()
		cfg.Level = zap.NewAtomicLevelAt(zap.DebugLevel)
		cfg.OutputPaths = []string{path}
		cfg.ErrorOutputPaths = []string{path}
		log, err := cfg.Build()
		if err != nil {
			return nil, fmt.Errorf("log file %s: %w", path, err)
		}
		return log, nil
	}
	enc := zapcore.NewConsoleEncoder(zap.NewDevelopmentEncoderConfig())
	core := zapcore.NewCore(enc, zapcore.AddSync(stderr), zap.WarnLevel)
	return zap.New(core), nil
}
