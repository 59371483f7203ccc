package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"
)

// peer is what this package asks of the client: the agent-side
// connection's outgoing calls. An interface so that the approver,
// documents and runner can be tested without a connection.
type peer interface {
	SessionUpdate(ctx context.Context, p sdk.SessionNotification) error
	RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error)
	ReadTextFile(ctx context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error)
	WriteTextFile(ctx context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error)
	CreateTerminal(ctx context.Context, p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error)
	TerminalOutput(ctx context.Context, p sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error)
	WaitForTerminalExit(ctx context.Context, p sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error)
	KillTerminal(ctx context.Context, p sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error)
	ReleaseTerminal(ctx context.Context, p sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error)
}

var _ peer = (*sdk.AgentSideConnection)(nil)
