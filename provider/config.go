package provider

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"
)

// Config is the model connection every front end configures the same way.
type Config struct {
	Provider  string // dialect: "openai" or "anthropic"
	BaseURL   string
	Model     string
	APIKeyEnv string // name of the environment variable holding the key; "" or "none": no key
	MaxTokens int
	Thinking  bool
	Effort    string // "low", "medium", "high", "max" or "" (the server's default)
	// IdleTimeout fails a stream silent for this long (0: the HTTP default, 5m).
	IdleTimeout time.Duration
	// ServerKind names the server behind BaseURL (see ServerKinds): it picks
	// the thinking fields sent. "": detected from BaseURL (DetectKind).
	ServerKind string
	// Free: the user says this server costs nothing (a local one), so its
	// calls are priced at $0; otherwise only a known model has a price.
	Free bool
	// ContextWindow is the model's context window in tokens, set by the
	// user; 0: the tables', else what the server says (DiscoverContextWindow).
	ContextWindow int
	// Vision, when set, says whether the model takes images (a preset's
	// vision); nil: TakesImages decides from what is known of the model.
	Vision *bool
}

// Environment variables that override the configuration.
const (
	EnvProvider  = "AGENT_LSP_PROVIDER"
	EnvBaseURL   = "AGENT_LSP_BASE_URL"
	EnvModel     = "AGENT_LSP_MODEL"
	EnvAPIKeyEnv = "AGENT_LSP_API_KEY_ENV"
)

// dialectDefaults is the one table of per-dialect defaults. The dialect
// packages repeat BaseURL and Model as constants; they cannot be imported
// here (they import this package).
var dialectDefaults = map[string]struct{ baseURL, model, keyEnv string }{
	"openai":    {"https://api.deepseek.com", "deepseek-flash", "DEEPSEEK_API_KEY"},
	"anthropic": {"https://api.deepseek.com/anthropic", "deepseek-flash", "DEEPSEEK_API_KEY"},
}

// DefaultMaxTokens is the answer budget when none is configured.
const DefaultMaxTokens = 8192

// DefaultConfig is the configuration of a dialect ("" means "openai"). An
// unknown name keeps only the dialect-independent defaults; Validate
// reports it.
func DefaultConfig(dialect string) Config {
	if dialect == "" {
		dialect = "openai"
	}
	d := dialectDefaults[dialect]
	return Config{
		Provider:  dialect,
		BaseURL:   d.baseURL,
		Model:     d.model,
		APIKeyEnv: d.keyEnv,
		MaxTokens: DefaultMaxTokens,
		Thinking:  true,
		// No effort: each server's own default strength. DeepSeek's is
		// "high" already; sending "high" by default put a DeepSeek choice on
		// every other server (llama.cpp, Ollama, OpenAI).
		Effort: "",
	}
}

// WithProvider switches to another dialect. BaseURL, Model and APIKeyEnv
// still holding the old dialect's defaults take the new dialect's defaults;
// values that differ from the old defaults were chosen explicitly and stay.
func (c Config) WithProvider(name string) Config {
	if name == c.Provider {
		return c
	}
	old, next := dialectDefaults[c.Provider], dialectDefaults[name]
	if c.BaseURL == old.baseURL {
		c.BaseURL = next.baseURL
	}
	if c.Model == old.model {
		c.Model = next.model
	}
	if c.APIKeyEnv == old.keyEnv {
		c.APIKeyEnv = next.keyEnv
	}
	c.Provider = name
	return c
}

// WithEnv applies the AGENT_LSP_* overrides: first AGENT_LSP_PROVIDER (by
// the WithProvider rule), then AGENT_LSP_BASE_URL, AGENT_LSP_MODEL and
// AGENT_LSP_API_KEY_ENV. Empty variables change nothing. Front ends apply
// the environment before their flags, so flags win.
func (c Config) WithEnv(getenv func(string) string) Config {
	if v := strings.TrimSpace(getenv(EnvProvider)); v != "" {
		c = c.WithProvider(strings.ToLower(v))
	}
	if v := strings.TrimSpace(getenv(EnvBaseURL)); v != "" {
		c.BaseURL = v
	}
	if v := strings.TrimSpace(getenv(EnvModel)); v != "" {
		c.Model = v
	}
	if v := strings.TrimSpace(getenv(EnvAPIKeyEnv)); v != "" {
		c.APIKeyEnv = v
	}
	return c
}

// APIKey reads the key from the variable named by APIKeyEnv. No key is
// required when APIKeyEnv is "" or "none", or when the server is on this
// machine (a loopback host: a local Ollama); a key that is set is still
// used then.
func (c Config) APIKey(getenv func(string) string) (string, error) {
	if c.APIKeyEnv == "" || strings.EqualFold(c.APIKeyEnv, "none") {
		return "", nil
	}
	key := strings.TrimSpace(getenv(c.APIKeyEnv))
	if key != "" || isLoopbackURL(c.BaseURL) {
		return key, nil
	}
	return "", &MissingKeyError{Var: c.APIKeyEnv}
}

// MissingKeyError says that the variable meant to hold the API key is not
// set. Its message speaks to a terminal user (the flags); a front end that
// is configured otherwise (an editor's settings) words its own from Var.
type MissingKeyError struct {
	Var string // the environment variable's name
}

func (e *MissingKeyError) Error() string {
	return fmt.Sprintf("no API key: set %s (or choose another variable with --api-key-env / %s)", e.Var, EnvAPIKeyEnv)
}

// isLoopbackURL reports whether rawURL's host is localhost or a loopback
// address (127.0.0.0/8, ::1).
func isLoopbackURL(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Validate reports every configuration mistake, each in its own words.
func (c Config) Validate() error {
	var errs []error
	if _, ok := dialectDefaults[c.Provider]; !ok {
		errs = append(errs, fmt.Errorf("unknown provider %q: want \"openai\" or \"anthropic\"", c.Provider))
	}
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("bad base URL %q: want http(s)://host[/path]", c.BaseURL))
	}
	if strings.TrimSpace(c.Model) == "" {
		errs = append(errs, errors.New("no model configured"))
	}
	if c.MaxTokens < 0 {
		errs = append(errs, fmt.Errorf("max tokens is %d: want 0 (the default) or more", c.MaxTokens))
	}
	switch c.Effort {
	case "", "low", "medium", "high", "max":
	default:
		errs = append(errs, fmt.Errorf("unknown thinking effort %q: want low, medium, high or max", c.Effort))
	}
	if err := validateServerKind(c.ServerKind); err != nil {
		errs = append(errs, err)
	}
	if c.ContextWindow < 0 {
		errs = append(errs, fmt.Errorf("context window is %d: want 0 (discover it) or more", c.ContextWindow))
	}
	if c.IdleTimeout < 0 {
		errs = append(errs, fmt.Errorf("idle timeout is %s: want 0 (the default) or more", c.IdleTimeout))
	}
	return errors.Join(errs...)
}

// ThinkingOption returns the request's thinking setting.
func (c Config) ThinkingOption() Thinking {
	return Thinking{Enabled: c.Thinking, Effort: c.Effort}
}
