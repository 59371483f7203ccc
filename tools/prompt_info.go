package tools

// PromptInfo is one prompt template a tool server offers (an MCP prompt).
// Front ends list it and the session controller runs it as the slash
// command /mcp__<server>__<name>. It lives here, beside the tools those
// servers offer, because both sides need it: mcp fills it, the agent's
// controller (which imports no MCP) consumes it.
type PromptInfo struct {
	Server      string           `json:"server"`
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument of a prompt template.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}
