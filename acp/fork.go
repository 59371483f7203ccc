package acp

import (
	"context"
	"encoding/json"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"
)

// UnstableForkSession implements session/fork (unstable; offered through
// sessionCapabilities.fork): a new session in cwd with a copy of the
// source's conversation, from then on apart.
func (a *server) UnstableForkSession(_ context.Context, p sdk.UnstableForkSessionRequest) (sdk.UnstableForkSessionResponse, error) {
	var servers []sdk.McpServer
	if err := sameShape(p.McpServers, &servers); err != nil {
		return sdk.UnstableForkSessionResponse{}, invalidParams(fmt.Errorf("mcpServers: %w", err))
	}
	if !a.o.Control.Known(string(p.SessionId)) {
		return sdk.UnstableForkSessionResponse{}, resourceNotFound(fmt.Sprintf("no session %q", p.SessionId))
	}
	s, b, err := a.bind(p.Cwd, servers)
	if err != nil {
		return sdk.UnstableForkSessionResponse{}, reqErr(err)
	}
	ctl, err := a.o.Control.Fork(string(p.SessionId), b)
	if err != nil {
		_ = s.close()
		return sdk.UnstableForkSessionResponse{}, reqErr(err)
	}
	a.attach(s, ctl)
	s.announceCommands()
	var opts []sdk.UnstableSessionConfigOption
	if err := sameShape(s.configOptions(), &opts); err != nil {
		return sdk.UnstableForkSessionResponse{}, reqErr(err)
	}
	return sdk.UnstableForkSessionResponse{SessionId: s.id, Modes: modeState(ctl.Mode()), ConfigOptions: opts}, nil
}

// sameShape copies v into out through JSON: the SDK gives the unstable
// methods their own copies of the stable types (sdk_gaps.go, 7).
func sameShape(v, out any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}
