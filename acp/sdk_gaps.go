package acp

import (
	sdk "github.com/coder/acp-go-sdk"
)

// This file is the one place where the agent works around what
// github.com/coder/acp-go-sdk v0.13.0 does not give, checked against its
// schema/schema.json (ACP v1) and schema/schema.unstable.json:
//
//  1. No constructor for ACP's "resource not found" error (-32002), the
//     code the protocol uses for an unknown session: resourceNotFound.
//  2. The SDK's handlers turn an error into a JSON-RPC error with a type
//     assertion, not errors.As: a wrapped *RequestError would become an
//     internal error (-32603). Every method of agent returns its
//     *RequestError unwrapped, through reqErr.
//  3. usage_update, and the usage of a session/prompt answer, are in the
//     unstable schema only (the SDK carries them as SessionUsageUpdate and
//     PromptResponse.Usage). They are sent anyway, as the issue asks; a
//     client that decodes only the stable schema ignores an unknown
//     sessionUpdate kind and an unknown field, as ACP requires of clients.
//  4. NewAgentSideConnection starts reading requests before it returns,
//     so the agent cannot hold the connection when the first request
//     arrives: server.ready makes the methods that need it wait.
//  5. A handler cannot send a notification after its own response: the
//     SDK writes the response when the handler returns. The
//     available_commands_update that follows session/new, load and resume
//     is sent by a goroutine started just before returning, so it
//     normally (not certainly) follows the answer that names the session.
//  6. A session/prompt cancels the context of the session's prompt still
//     running (the SDK keeps one cancel function per session), and
//     session/cancel cancels only the newest one: a second prompt would
//     cancel the first instead of waiting in its queue. Prompts run on the
//     connection's context instead (Prompt), and Cancel cancels them
//     through the controller. So the unstable $/cancel_request of a
//     session/prompt, which cancels the same context, is not honoured
//     (the SDK gives no way to tell the two apart): session/cancel is.
//  7. The unstable methods have their own copies of the stable types
//     (UnstableMcpServer, UnstableSessionConfigOption): session/fork
//     converts them through JSON (sameShape), the shapes being the same.
//  8. session/delete (ACP v1, sessionCapabilities.delete) is not routed
//     by this SDK version, nor is the capability a field: sdk_delete.go
//     answers the method before the SDK reads it and adds the capability
//     to initialize's answer, the connection's streams wrapped there only.

// codeResourceNotFound is ACP's error code for a resource (a session)
// that does not exist.
const codeResourceNotFound = -32002

// resourceNotFound is the error for an unknown session id.
func resourceNotFound(what string) *sdk.RequestError {
	return &sdk.RequestError{Code: codeResourceNotFound, Message: "Resource not found", Data: map[string]any{"error": what}}
}

// invalidParams is the error for input the agent cannot use.
func invalidParams(err error) *sdk.RequestError {
	return sdk.NewInvalidParams(map[string]any{"error": err.Error()})
}
