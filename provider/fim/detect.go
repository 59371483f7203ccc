package fim

import (
	"context"
	"fmt"
	"strings"

	"go.uber.org/zap"
)

// detecting is the Client of a server the first completion probes (Probe):
// with no dialect configured, the probe picks it (llama.cpp on any port
// gets /infill, not the /v1/completions whose suffix it drops); with one
// configured, the probe only checks it and a contradiction is reported
// through Config.OnDetect. The probe runs once it has an answer; one cut
// short by its context, or a server not up yet, is asked again by the
// next completion.
type detecting struct {
	cfg        Config
	configured Client        // the configured dialect's client; nil: the probe picks
	sem        chan struct{} // one probe at a time, waited for under ctx
	decided    bool          // under sem
	client     Client        // under sem, once decided
	err        error         // under sem, once decided: the chosen dialect's configuration error
}

func newDetecting(cfg Config) (*detecting, error) {
	d := &detecting{cfg: cfg, sem: make(chan struct{}, 1)}
	if strings.TrimSpace(cfg.Dialect) != "" {
		c, err := newClient(cfg)
		if err != nil {
			return nil, err
		}
		d.configured = c
		return d, nil
	}
	// Only the URL is checked now: the dialect, and what it requires (a
	// model), are known once the server said what it is.
	byURL := cfg
	byURL.Dialect, byURL.Model = DialectLlamaCpp, ""
	if _, err := newClient(byURL); err != nil {
		return nil, err
	}
	return d, nil
}

// Complete resolves the server's dialect, then completes; see Client.
func (d *detecting) Complete(ctx context.Context, req Request, onText func(string) bool) (Result, error) {
	c, err := d.resolve(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return Result{StopReason: StopCancelled}, err
		}
		return Result{}, err
	}
	return c.Complete(ctx, req, onText)
}

func (d *detecting) resolve(ctx context.Context) (Client, error) {
	select {
	case d.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("FIM: waiting for the server probe: %w", context.Cause(ctx))
	}
	defer func() { <-d.sem }()
	if d.decided {
		return d.client, d.err
	}
	det, err := Probe(ctx, d.cfg.BaseURL, d.cfg.HTTPClient)
	if err != nil && ctx.Err() != nil {
		return nil, err // not answered: the next completion asks again
	}
	det.Configured = strings.ToLower(strings.TrimSpace(d.cfg.Dialect))
	if d.configured != nil {
		d.decided, d.client = err == nil, d.configured
		if err == nil {
			d.report(det)
		}
		return d.client, nil
	}
	chosen := det.Dialect
	if chosen == "" {
		chosen = DetectDialect(d.cfg.BaseURL)
	}
	cfg := d.cfg
	cfg.Dialect = chosen
	c, cerr := newClient(cfg)
	if err != nil { // the server did not answer: this call goes by the URL, the next asks again
		if d.cfg.Logger != nil {
			d.cfg.Logger.Debug("FIM server probe failed", zap.String("baseURL", d.cfg.BaseURL), zap.Error(err))
		}
		return c, cerr
	}
	d.decided, d.client, d.err = true, c, cerr
	d.report(det)
	return c, cerr
}

// report logs what the probe found and tells Config.OnDetect.
func (d *detecting) report(det Detection) {
	if l := d.cfg.Logger; l != nil {
		l.Info("FIM server probed", zap.String("baseURL", d.cfg.BaseURL), zap.String("server", det.Dialect),
			zap.String("evidence", det.Evidence), zap.String("configured", det.Configured))
	}
	if d.cfg.OnDetect != nil {
		d.cfg.OnDetect(det)
	}
}
