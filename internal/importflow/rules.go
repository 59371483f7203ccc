package importflow

// rule is what the packages under one path of the module may import.
//
// A package falls under the rule with the longest Path that is the
// package's path or one of its parents (agent/control has its own rule,
// agent/session would fall under agent's). A package may import packages
// under its own rule (provider/connect imports provider/openai) and under
// the rules May names; Any allows every rule's packages but bench's.
// Nothing outside cmd imports cmd, nor anything outside bench bench
// (check).
//
// Test-support packages (a path ending in "test": provider/providertest,
// lsp/lsptest) follow the rule they fall under, and only tests import
// them (check).
type rule struct {
	Path string   // relative to the module: "agent/control"
	May  []string // the rules whose packages it may import
	Any  bool     // wiring and benchmarks: anything (but bench, see Check)
	Why  string   // what the rule keeps, shown with a violation
}

// rules is docs/design.md §3 as data, one rule per layer, bottom up.
// Unexported: the test applies it; nothing else may change it.
var rules = []rule{
	{Path: "provider", Why: "the model vocabulary knows nothing of tools, the agent or a front end"},
	{Path: "permission", Why: "risk and policy know nothing of who asks or what runs"},
	{Path: "tools", May: []string{"permission"}, Why: "tools know the permission system only"},
	{Path: "agent/contentstore", Why: "a leaf: it imports nothing of ours"},
	{Path: "agent/completion", May: []string{"provider"}, Why: "inline completion needs the fill-in-the-middle client only"},
	{Path: "agent", May: []string{"provider", "tools", "permission", "agent/contentstore", "agent/completion"},
		Why: "the agent never learns of a front end, the controller or MCP"},
	{Path: "mcp", May: []string{"tools", "permission"}, Why: "MCP tools are ordinary tools.Tools; prompts reach the controller through control.PromptSource"},
	{Path: "hooks", May: []string{"tools", "permission"}, Why: "hooks reach the agent and the controller through their Hooks interfaces"},
	{Path: "agent/control", May: []string{"agent", "provider", "tools", "permission", "mcp"},
		Why: "the controller knows no wire format"},
	{Path: "agent/world", May: []string{"agent/control", "agent", "provider", "tools", "permission", "mcp", "hooks"},
		Why: "the factory of a session's world builds from the layers below it and knows no front end"},
	{Path: "acp", May: []string{"agent/world", "agent/control", "agent", "provider", "tools", "permission", "mcp", "hooks"},
		Why: "a front end; acp imports nothing of lsp"},
	{Path: "lsp", May: []string{"agent/world", "agent", "agent/control", "agent/completion", "provider", "tools", "permission", "mcp", "hooks"},
		Why: "a front end; lsp imports nothing of acp"},
	{Path: "term", May: []string{"agent/world", "agent/control", "agent", "provider", "tools", "permission", "mcp", "hooks"},
		Why: "a front end; term imports nothing of lsp or acp"},
	{Path: "cmd", Any: true, Why: "the binary is flags and wiring only; nothing imports it"},
	{Path: "bench", Any: true, Why: "benchmarks measure the packages from outside"},
	{Path: "internal", Why: "a leaf: it imports nothing of ours"},
	{Path: "editors", Why: "the editors' Go packages are end-to-end suites: only their tests import"},
}
