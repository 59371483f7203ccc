package provider

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// Context window discovery: a model the tables do not know (a local
// llama.cpp, Ollama, vLLM or LM Studio model, an OpenRouter one) is asked
// of the server itself, since local servers often run with a window of a
// few thousand tokens, far below the 128k the tables assume.

// DiscoveryTimeout bounds the whole discovery of one model's window.
const DiscoveryTimeout = 5 * time.Second

// Window sources, as the front ends show them.
const (
	WindowSourceSetting = "setting" // Config.ContextWindow
)

// plausible windows: anything outside is a garbage answer.
const minWindow, maxWindow = 256, 100_000_000

// maxProbeBody bounds what one probe reads: an OpenRouter model list is
// a few hundred KB.
const maxProbeBody = 8 << 20

// DiscoverContextWindow asks the server at cfg.BaseURL for cfg.Model's
// context window, trying each server kind's endpoint in turn: the model
// list (/v1/models: vLLM max_model_len, OpenRouter context_length,
// llama.cpp meta.n_ctx, else the weak meta.n_ctx_train), llama.cpp /props (the running n_ctx),
// Ollama /api/show (num_ctx when set, else <arch>.context_length), LM
// Studio /api/v0/models (loaded_context_length, else max_context_length).
// The first plausible answer wins; source names the endpoint. A set
// cfg.ContextWindow wins without asking. Every request goes to the base
// URL's own host, so the key never leaves it. client nil: a client of
// its own; ctx is bounded by DiscoveryTimeout.
func DiscoverContextWindow(ctx context.Context, cfg Config, client *http.Client) (window int, source string, err error) {
	if cfg.ContextWindow > 0 {
		return cfg.ContextWindow, WindowSourceSetting, nil
	}
	base, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return 0, "", fmt.Errorf("discover context window: bad base URL %q", cfg.BaseURL)
	}
	if client == nil {
		client = &http.Client{Timeout: DiscoveryTimeout}
	}
	sameHost := *client // a redirect elsewhere is not followed: the key would go along
	sameHost.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Host != base.Host || req.URL.Scheme != base.Scheme || len(via) >= 5 {
			return http.ErrUseLastResponse
		}
		return nil
	}
	client = &sameHost
	ctx, cancel := context.WithTimeout(ctx, DiscoveryTimeout)
	defer cancel()
	key, _ := cfg.APIKey(os.Getenv) // no key: the local servers need none
	p := prober{ctx: ctx, client: client, cfg: cfg, key: key, base: base}
	var errs []error
	fallback, fallbackSrc := 0, ""
	for _, step := range p.steps() {
		n, src, weak, err := step()
		if err != nil {
			errs = append(errs, err)
			if ctx.Err() != nil {
				break
			}
			continue
		}
		if weak { // a training length: only when nothing says what runs
			if fallback == 0 {
				fallback, fallbackSrc = n, src
			}
			continue
		}
		return n, src, nil
	}
	if fallback > 0 {
		return fallback, fallbackSrc, nil
	}
	return 0, "", fmt.Errorf("discover context window of %s at %s: %w", cfg.Model, cfg.BaseURL, errors.Join(errs...))
}

type prober struct {
	ctx    context.Context
	client *http.Client
	cfg    Config
	key    string
	base   *url.URL
}

type probeStep func() (window int, source string, weak bool, err error)

func (p prober) steps() []probeStep {
	return []probeStep{p.modelList, p.llamaProps, p.ollamaShow, p.lmStudio}
}

// root is the server's root: the base URL without a trailing /v1 (or
// the Messages dialect's /anthropic), where /props and /api live.
func (p prober) root() string {
	path := strings.TrimRight(p.base.Path, "/")
	for _, suffix := range []string{"/v1", "/anthropic"} {
		path = strings.TrimSuffix(path, suffix)
	}
	u := *p.base
	u.Path, u.RawQuery, u.Fragment = path, "", ""
	return u.String()
}

// modelsURL is the OpenAI-style model list: base/models when the base
// ends in a version (/v1, OpenRouter's /api/v1), else root/v1/models.
func (p prober) modelsURL() string {
	path := strings.TrimRight(p.base.Path, "/")
	if strings.HasSuffix(path, "/v1") {
		u := *p.base
		u.Path = path + "/models"
		return u.String()
	}
	return p.root() + "/v1/models"
}

func (p prober) get(ctx context.Context, method, target string, body []byte, into any) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return err
	}
	if u := req.URL; u.Host != p.base.Host || u.Scheme != p.base.Scheme {
		return fmt.Errorf("%s: not the base URL's host", target) // never send the key elsewhere
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if p.key != "" {
		if p.cfg.Provider == "anthropic" {
			req.Header.Set("x-api-key", p.key)
		} else {
			req.Header.Set("Authorization", "Bearer "+p.key)
		}
	}
	req.Header.Set("Accept", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, target, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxProbeBody))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, target, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: HTTP %d", method, target, resp.StatusCode)
	}
	if err := json.Unmarshal(data, into); err != nil {
		return fmt.Errorf("%s %s: %w", method, target, err)
	}
	return nil
}

// modelList reads the model's entry of the OpenAI-style list.
func (p prober) modelList() (int, string, bool, error) {
	var list struct {
		Data []struct {
			ID            string `json:"id"`
			MaxModelLen   int    `json:"max_model_len"`  // vLLM
			ContextLength int    `json:"context_length"` // OpenRouter
			TopProvider   struct {
				ContextLength int `json:"context_length"`
			} `json:"top_provider"`
			Meta struct {
				NCtx      int `json:"n_ctx"`       // llama.cpp: the running window, where offered
				NCtxTrain int `json:"n_ctx_train"` // llama.cpp: what the model was trained with
			} `json:"meta"`
		} `json:"data"`
	}
	target := p.modelsURL()
	if err := p.get(p.ctx, http.MethodGet, target, nil, &list); err != nil {
		return 0, "", false, err
	}
	only := len(list.Data) == 1 // llama.cpp lists its one model by file name
	for _, m := range list.Data {
		if m.ID != p.cfg.Model && !only {
			continue
		}
		switch {
		case plausible(m.MaxModelLen):
			return m.MaxModelLen, target + " max_model_len", false, nil
		case plausible(m.ContextLength):
			return m.ContextLength, target + " context_length", false, nil
		case plausible(m.TopProvider.ContextLength):
			return m.TopProvider.ContextLength, target + " top_provider.context_length", false, nil
		case plausible(m.Meta.NCtx):
			return m.Meta.NCtx, target + " meta.n_ctx", false, nil
		case plausible(m.Meta.NCtxTrain):
			return m.Meta.NCtxTrain, target + " meta.n_ctx_train", true, nil
		}
	}
	return 0, "", false, fmt.Errorf("GET %s: no window for %s", target, p.cfg.Model)
}

// llamaProps reads llama.cpp's running context size (per slot).
func (p prober) llamaProps() (int, string, bool, error) {
	var props struct {
		Default struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	target := p.root() + "/props"
	if err := p.get(p.ctx, http.MethodGet, target, nil, &props); err != nil {
		return 0, "", false, err
	}
	if !plausible(props.Default.NCtx) {
		return 0, "", false, fmt.Errorf("GET %s: no default_generation_settings.n_ctx", target)
	}
	return props.Default.NCtx, target + " default_generation_settings.n_ctx", false, nil
}

// ollamaShow reads Ollama's model details: the num_ctx parameter is what
// the server runs the model with; without one, /api/ps tells the window
// of a loaded model; else the architecture's context_length is only the
// most it could (the server's own default, often 4096, applies), a weak
// answer that overflow recovery corrects.
func (p prober) ollamaShow() (int, string, bool, error) {
	var show struct {
		Parameters string         `json:"parameters"`
		ModelInfo  map[string]any `json:"model_info"`
	}
	target := p.root() + "/api/show"
	body, _ := json.Marshal(map[string]string{"model": p.cfg.Model})
	if err := p.get(p.ctx, http.MethodPost, target, body, &show); err != nil {
		return 0, "", false, err
	}
	if n := numCtx(show.Parameters); plausible(n) {
		return n, target + " parameters num_ctx", false, nil
	}
	if n, src, err := p.ollamaRunning(); err == nil {
		return n, src, false, nil
	}
	arch, _ := show.ModelInfo["general.architecture"].(string)
	if f, ok := show.ModelInfo[arch+".context_length"].(float64); ok && arch != "" && plausible(int(f)) {
		return int(f), target + " model_info " + arch + ".context_length", true, nil
	}
	return 0, "", false, fmt.Errorf("POST %s: no context length", target)
}

// ollamaRunning reads the context length Ollama allocated to the loaded
// model (/api/ps).
func (p prober) ollamaRunning() (int, string, error) {
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	target := p.root() + "/api/ps"
	if err := p.get(p.ctx, http.MethodGet, target, nil, &ps); err != nil {
		return 0, "", err
	}
	for _, m := range ps.Models {
		if sameOllamaModel(m.Name, p.cfg.Model) || sameOllamaModel(m.Model, p.cfg.Model) {
			if plausible(m.ContextLength) {
				return m.ContextLength, target + " context_length", nil
			}
		}
	}
	return 0, "", fmt.Errorf("GET %s: %s is not loaded", target, p.cfg.Model)
}

// sameOllamaModel: "qwen3" is "qwen3:latest".
func sameOllamaModel(a, b string) bool {
	norm := func(s string) string {
		if !strings.Contains(s, ":") {
			s += ":latest"
		}
		return s
	}
	return a != "" && norm(a) == norm(b)
}

// numCtx finds "num_ctx N" in Ollama's parameter lines.
func numCtx(params string) int {
	sc := bufio.NewScanner(strings.NewReader(params))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 && f[0] == "num_ctx" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}

// lmStudio reads LM Studio's own model list: the loaded context length
// is what runs; the maximum is the model's.
func (p prober) lmStudio() (int, string, bool, error) {
	var list struct {
		Data []struct {
			ID                  string `json:"id"`
			MaxContextLength    int    `json:"max_context_length"`
			LoadedContextLength int    `json:"loaded_context_length"`
		} `json:"data"`
	}
	target := p.root() + "/api/v0/models"
	if err := p.get(p.ctx, http.MethodGet, target, nil, &list); err != nil {
		return 0, "", false, err
	}
	for _, m := range list.Data {
		if m.ID != p.cfg.Model {
			continue
		}
		if plausible(m.LoadedContextLength) {
			return m.LoadedContextLength, target + " loaded_context_length", false, nil
		}
		if plausible(m.MaxContextLength) {
			return m.MaxContextLength, target + " max_context_length", false, nil
		}
	}
	return 0, "", false, fmt.Errorf("GET %s: no window for %s", target, p.cfg.Model)
}

func plausible(n int) bool { return n >= minWindow && n <= maxWindow }
