package acp

import (
	"context"
	"strings"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
)

// The session config options this agent offers.
const (
	configMode  = "mode"
	configModel = "model"
)

// modeState is the session's modes: our four, and the current one.
func modeState(current agent.Mode) *sdk.SessionModeState {
	st := &sdk.SessionModeState{CurrentModeId: sdk.SessionModeId(current)}
	for _, m := range agent.Modes {
		st.AvailableModes = append(st.AvailableModes, sdk.SessionMode{Id: sdk.SessionModeId(m), Name: string(m), Description: sdk.Ptr(m.Description())})
	}
	return st
}

// currentPreset is the preset the session's model is, or "" when it is
// none of them (a model configured by flags).
func currentPreset(presets []control.Preset, m control.ModelInfo) string {
	for _, p := range presets {
		if strings.EqualFold(p.Provider, m.Provider) && p.Model == m.Model && strings.TrimRight(p.BaseURL, "/") == strings.TrimRight(m.BaseURL, "/") {
			return p.ID
		}
	}
	return ""
}

// configuredValue is the model option's value for a model that is no
// preset: choosing it changes nothing.
const configuredValue = "configured"

// configOptions are the session's options: its mode, and its model among
// the presets (category "model").
func (s *session) configOptions() []sdk.SessionConfigOption {
	mode := s.ctl.Mode()
	modes := sdk.SessionConfigSelectOptionsUngrouped{}
	for _, m := range agent.Modes {
		modes = append(modes, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(m), Name: string(m), Description: sdk.Ptr(m.Description())})
	}
	presets := s.srv.o.Control.Presets()
	model := s.ctl.Model()
	current := currentPreset(presets, model)
	models := sdk.SessionConfigSelectOptionsUngrouped{}
	if current == "" {
		current = configuredValue
		models = append(models, sdk.SessionConfigSelectOption{Value: configuredValue, Name: model.Model,
			Description: sdk.Ptr(model.Provider + " at " + model.BaseURL + " (from the command line)")})
	}
	for _, p := range presets {
		models = append(models, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(p.ID), Name: p.ID,
			Description: sdk.Ptr(p.Model + " (" + p.Provider + ")")})
	}
	return []sdk.SessionConfigOption{
		{Select: &sdk.SessionConfigOptionSelect{Type: "select", Id: configMode, Name: "Mode",
			Category: sdk.Ptr(sdk.SessionConfigOptionCategoryMode), CurrentValue: sdk.SessionConfigValueId(mode),
			Options: sdk.SessionConfigSelectOptions{Ungrouped: &modes}}},
		{Select: &sdk.SessionConfigOptionSelect{Type: "select", Id: configModel, Name: "Model",
			Category: sdk.Ptr(sdk.SessionConfigOptionCategoryModel), CurrentValue: sdk.SessionConfigValueId(current),
			Options: sdk.SessionConfigSelectOptions{Ungrouped: &models}}},
	}
}

// availableCommands are the session's slash commands (built-in and MCP
// prompts), named without their slash as ACP wants.
func availableCommands(cmds []control.Command) []sdk.AvailableCommand {
	out := make([]sdk.AvailableCommand, 0, len(cmds))
	for _, c := range cmds {
		ac := sdk.AvailableCommand{Name: strings.TrimPrefix(c.Name, "/"), Description: c.Description}
		if len(c.Arguments) > 0 {
			names := make([]string, 0, len(c.Arguments))
			for _, a := range c.Arguments {
				names = append(names, a.Name)
			}
			ac.Input = &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: strings.Join(names, " ")}}
		}
		out = append(out, ac)
	}
	return out
}

// notify turns the controller's updates into session/update.
func (s *session) notify(u control.Update) {
	ctx := s.srv.ctx
	switch u.Kind {
	case control.UpdateMode:
		s.send(ctx, sdk.SessionUpdate{CurrentModeUpdate: &sdk.SessionCurrentModeUpdate{SessionUpdate: "current_mode_update", CurrentModeId: sdk.SessionModeId(u.Mode)}})
		s.sendConfig(ctx)
	case control.UpdateModel:
		s.sendConfig(ctx)
		if u.Message != "" {
			s.send(ctx, sdk.UpdateAgentMessageText(u.Message+"\n"))
		}
	case control.UpdatePlan:
		s.send(ctx, sdk.UpdatePlan(planEntries(u.Plan)...))
	case control.UpdateTitle:
		now := time.Now().UTC().Format(time.RFC3339)
		s.send(ctx, sdk.SessionUpdate{SessionInfoUpdate: &sdk.SessionSessionInfoUpdate{SessionUpdate: "session_info_update", Title: sdk.Ptr(u.Title), UpdatedAt: &now}})
	case control.UpdateQueue:
		s.sendQueue(ctx, u.Queue) // queue.go
	case control.UpdateCommands:
		s.send(ctx, sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{SessionUpdate: "available_commands_update", AvailableCommands: availableCommands(u.Commands)}})
	default:
		s.log.Debug("control update not shown over ACP", zap.String("kind", string(u.Kind)))
	}
}

func (s *session) sendConfig(ctx context.Context) {
	s.send(ctx, sdk.SessionUpdate{ConfigOptionUpdate: &sdk.SessionConfigOptionUpdate{SessionUpdate: "config_option_update", ConfigOptions: s.configOptions()}})
}
