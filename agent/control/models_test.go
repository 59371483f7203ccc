package control_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

func strp(s string) *string { return &s }

// SetModel resolves presets and models, refuses what is not a model, tells
// the session's views, and the next request goes to the new model.
func TestSetModel(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{Text: "from pro"}}, providertest.WithSeed(7))
	mine := control.Preset{Preset: provider.Preset{ID: "mine", Provider: "openai", Model: "my-model",
		BaseURL: srv.OpenAIBaseURL(), APIKeyEnv: "none"}, ContextWindow: 1000}
	f := newFixture(t, nil, fixtureOptions{model: srv, presets: []control.Preset{mine}})
	s := f.newSession("")

	for _, tc := range []struct {
		name string
		ch   control.ModelChoice
		want control.ModelInfo
		err  error
	}{
		{"preset", control.ModelChoice{Preset: "MINE"}, control.ModelInfo{Provider: "openai", Model: "my-model", BaseURL: srv.OpenAIBaseURL(), Preset: "mine"}, nil},
		{"preset with a model", control.ModelChoice{Preset: "mine", Model: "other"}, control.ModelInfo{Provider: "openai", Model: "other", BaseURL: srv.OpenAIBaseURL()}, nil},
		{"a model of the current provider", control.ModelChoice{Model: " deepseek-pro "}, control.ModelInfo{Provider: "openai", Model: "deepseek-pro", BaseURL: srv.OpenAIBaseURL()}, nil},
		{"base URL", control.ModelChoice{Model: "deepseek-pro", BaseURL: strp(srv.OpenAIBaseURL() + "/")}, control.ModelInfo{Provider: "openai", Model: "deepseek-pro", BaseURL: srv.OpenAIBaseURL() + "/"}, nil},
		{"unknown preset", control.ModelChoice{Preset: "nope"}, control.ModelInfo{}, control.ErrInvalid},
		{"no model", control.ModelChoice{Model: "  "}, control.ModelInfo{}, control.ErrInvalid},
		{"bad provider", control.ModelChoice{Provider: strp("nobody"), Model: "m"}, control.ModelInfo{}, control.ErrInvalid},
	} {
		before := len(f.updates.of(control.UpdateModel))
		got, err := s.SetModel(tc.ch)
		if tc.err != nil {
			mustKind(t, err, tc.err)
			if len(f.updates.of(control.UpdateModel)) != before {
				t.Errorf("%s: a refused switch sent an update", tc.name)
			}
			continue
		}
		if err != nil || got != tc.want || s.Model() != tc.want {
			t.Errorf("%s: SetModel = %+v, %v; Model() = %+v; want %+v", tc.name, got, err, s.Model(), tc.want)
			continue
		}
		if u := f.updates.of(control.UpdateModel); len(u) != before+1 || u[before].Model != tc.want || u[before].Message != "" {
			t.Errorf("%s: model updates %+v", tc.name, u)
		}
	}
	if _, err := s.Prompt(context.Background(), control.PromptInput{Text: "hi"}, discard); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Model string `json:"model"`
	}
	if err := srv.Requests()[0].Decode(&body); err != nil || body.Model != "deepseek-pro" {
		t.Errorf("request went to model %q (%v)", body.Model, err)
	}

	f.connect.refuse = errors.New("no key in FOO_KEY")
	_, err := s.SetModel(control.ModelChoice{Model: "x"})
	if err == nil || errors.Is(err, control.ErrInvalid) || !strings.Contains(err.Error(), "no key in FOO_KEY") {
		t.Errorf("a model that cannot be connected: %v", err)
	}
	if err := f.ctl.Close(); err != nil || f.connect.closed != len(f.connect.cfgs) {
		t.Errorf("Close closed %d of %d clients (%v)", f.connect.closed, len(f.connect.cfgs), err)
	}
}

// A resumed session talks to the model it was switched to; when that
// cannot be reached it talks to the configured one and says why.
func TestModelRestore(t *testing.T) {
	f := newFixture(t, providertest.Script{{Text: "a"}, {Text: "b"}, {Text: "c"}}, fixtureOptions{})
	s := f.newSession("")
	want, err := s.SetModel(control.ModelChoice{Model: "deepseek-pro"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prompt(context.Background(), control.PromptInput{Text: "hi"}, discard); err != nil {
		t.Fatal(err)
	}

	g := newFixture(t, nil, fixtureOptions{dir: f.dir, model: f.model})
	r, err := g.ctl.Open(s.ID(), g.binding(nil))
	if err != nil {
		t.Fatal(err)
	}
	if r.Model() != want || len(g.updates.of(control.UpdateModel)) != 0 {
		t.Errorf("restored model %+v (updates %+v), want %+v", r.Model(), g.updates.of(control.UpdateModel), want)
	}

	h := newFixture(t, nil, fixtureOptions{dir: f.dir, model: f.model, refuse: errors.New("FOO_KEY is not set")})
	r, err = h.ctl.Open(s.ID(), h.binding(nil))
	if err != nil {
		t.Fatal(err)
	}
	configured := control.ModelInfo{Provider: "openai", Model: "deepseek-flash", BaseURL: f.model.OpenAIBaseURL()}
	u := h.updates.of(control.UpdateModel)
	if r.Model() != configured || len(u) != 1 || u[0].Model != configured || u[0].SessionID != s.ID() ||
		!strings.Contains(u[0].Message, "FOO_KEY is not set") || !strings.Contains(u[0].Message, "deepseek-pro") {
		t.Errorf("unrestorable: model %+v, updates %+v", r.Model(), u)
	}
}

// A controller whose configured model cannot be reached still makes
// sessions; their prompts fail with the reason until the model is switched.
func TestModelErrUntilSwitched(t *testing.T) {
	f := newFixture(t, providertest.Script{{Text: "works"}}, fixtureOptions{modelErr: errors.New("DEEPSEEK_API_KEY is not set")})
	s := f.newSession("")
	ev := &events{}
	res, err := s.Prompt(context.Background(), control.PromptInput{Text: "hi"}, ev)
	if err != nil || res.Outcome.StopReason != agent.StopError || res.Outcome.Err == nil ||
		len(ev.all) != 1 || ev.all[0].Kind != agent.EventError {
		t.Fatalf("prompt without a model: %+v, %v, events %+v", res, err, ev.all)
	}
	_, err = s.Compact(context.Background(), discard)
	mustKind(t, err, control.ErrModelUnavailable)
	if _, err := s.SetModel(control.ModelChoice{Model: "deepseek-flash"}); err != nil {
		t.Fatal(err)
	}
	if s.ModelErr() != nil {
		t.Error("a switched session still reports the configured model's error")
	}
	res, err = s.Prompt(context.Background(), control.PromptInput{Text: "hi"}, discard)
	if err != nil || res.Outcome.Text != "works" {
		t.Errorf("after the switch: %+v, %v", res, err)
	}
}
