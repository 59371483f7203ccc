package provider

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDefaultConfig(t *testing.T) {
	tests := []struct {
		dialect string
		want    Config
	}{
		{"openai", Config{Provider: "openai", BaseURL: "https://api.deepseek.com", Model: "deepseek-flash", APIKeyEnv: "DEEPSEEK_API_KEY", MaxTokens: 8192, Thinking: true}},
		{"", Config{Provider: "openai", BaseURL: "https://api.deepseek.com", Model: "deepseek-flash", APIKeyEnv: "DEEPSEEK_API_KEY", MaxTokens: 8192, Thinking: true}},
		{"anthropic", Config{Provider: "anthropic", BaseURL: "https://api.deepseek.com/anthropic", Model: "deepseek-flash", APIKeyEnv: "DEEPSEEK_API_KEY", MaxTokens: 8192, Thinking: true}},
	}
	for _, tt := range tests {
		got := DefaultConfig(tt.dialect)
		if got != tt.want {
			t.Errorf("DefaultConfig(%q) = %+v, want %+v", tt.dialect, got, tt.want)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("DefaultConfig(%q) is invalid: %v", tt.dialect, err)
		}
	}
}

func TestConfigWithEnv(t *testing.T) {
	tests := []struct {
		name  string
		start Config
		env   map[string]string
		want  func(Config) Config // applied to start
	}{
		{"no variables change nothing", DefaultConfig("openai"), nil, func(c Config) Config { return c }},
		{"each override", DefaultConfig("openai"),
			map[string]string{EnvBaseURL: "http://localhost:11434/v1", EnvModel: "qwen3", EnvAPIKeyEnv: "none"},
			func(c Config) Config {
				c.BaseURL, c.Model, c.APIKeyEnv = "http://localhost:11434/v1", "qwen3", "none"
				return c
			}},
		{"switching dialect takes its defaults", DefaultConfig("openai"),
			map[string]string{EnvProvider: "Anthropic"},
			func(Config) Config { return DefaultConfig("anthropic") }},
		{"switching dialect keeps explicit choices", func() Config {
			c := DefaultConfig("openai")
			c.BaseURL, c.MaxTokens = "https://proxy.example/v1", 100
			return c
		}(),
			map[string]string{EnvProvider: "anthropic"},
			func(c Config) Config { c.Provider = "anthropic"; return c }},
		{"explicit variables beat the switched defaults", DefaultConfig("anthropic"),
			map[string]string{EnvProvider: "openai", EnvBaseURL: "http://127.0.0.1:8080"},
			func(Config) Config { c := DefaultConfig("openai"); c.BaseURL = "http://127.0.0.1:8080"; return c }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.start.WithEnv(envOf(tt.env))
			if want := tt.want(tt.start); got != want {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestConfigAPIKey(t *testing.T) {
	tests := []struct {
		name    string
		baseURL string
		keyEnv  string
		env     map[string]string
		want    string
		wantErr string
	}{
		{"set", "https://api.deepseek.com", "DEEPSEEK_API_KEY", map[string]string{"DEEPSEEK_API_KEY": " sk-1\n"}, "sk-1", ""},
		{"missing names the variable", "https://api.deepseek.com", "DEEPSEEK_API_KEY", nil, "",
			"no API key: set DEEPSEEK_API_KEY (or choose another variable with --api-key-env / AGENT_LSP_API_KEY_ENV)"},
		{"empty is missing", "https://api.deepseek.com", "MY_KEY", map[string]string{"MY_KEY": "  "}, "",
			"no API key: set MY_KEY (or choose another variable with --api-key-env / AGENT_LSP_API_KEY_ENV)"},
		{"none needs no key", "https://api.deepseek.com", "none", map[string]string{"none": "x"}, "", ""},
		{"no variable needs no key", "https://api.deepseek.com", "", nil, "", ""},
		{"localhost needs no key", "http://localhost:11434/v1", "DEEPSEEK_API_KEY", nil, "", ""},
		{"127.0.0.2 needs no key", "http://127.0.0.2:8080", "DEEPSEEK_API_KEY", nil, "", ""},
		{"::1 needs no key", "http://[::1]:8080", "DEEPSEEK_API_KEY", nil, "", ""},
		{"loopback still uses a set key", "http://127.0.0.1:8080", "K", map[string]string{"K": "sk-local"}, "sk-local", ""},
		{"a look-alike host is not loopback", "http://localhost.example.com", "K", nil, "",
			"no API key: set K (or choose another variable with --api-key-env / AGENT_LSP_API_KEY_ENV)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig("openai")
			c.BaseURL, c.APIKeyEnv = tt.baseURL, tt.keyEnv
			got, err := c.APIKey(envOf(tt.env))
			if got != tt.want {
				t.Errorf("key %q, want %q", got, tt.want)
			}
			if (err == nil) != (tt.wantErr == "") || (err != nil && err.Error() != tt.wantErr) {
				t.Errorf("error %v, want %q", err, tt.wantErr)
			}
			// A front end words its own message from the variable's name.
			if missing, ok := errors.AsType[*MissingKeyError](err); err != nil && (!ok || missing.Var != tt.keyEnv) {
				t.Errorf("error %v is not a MissingKeyError for %s", err, tt.keyEnv)
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Config)
		want []string // each must appear in the error
	}{
		{"unknown provider", func(c *Config) { c.Provider = "gemini" }, []string{`unknown provider "gemini": want "openai" or "anthropic"`}},
		{"relative url", func(c *Config) { c.BaseURL = "api.deepseek.com" }, []string{`bad base URL "api.deepseek.com": want http(s)://host[/path]`}},
		{"negative max tokens", func(c *Config) { c.MaxTokens = -1 }, []string{"max tokens is -1: want 0 (the default) or more"}},
		{"no model", func(c *Config) { c.Model = " " }, []string{"no model configured"}},
		{"bad effort", func(c *Config) { c.Effort = "extreme" }, []string{`unknown thinking effort "extreme"`}},
		{"negative idle", func(c *Config) { c.IdleTimeout = -time.Second }, []string{"idle timeout is -1s"}},
		{"several at once", func(c *Config) { c.Provider, c.MaxTokens = "x", -5 }, []string{`unknown provider "x"`, "max tokens is -5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig("anthropic")
			tt.edit(&c)
			err := c.Validate()
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}
