package sandbox

// AttachArg is the hidden first argument that makes the binary the stub a
// client's terminal runs (RunAttached; Linux only).
const AttachArg = "__sandbox-attach"

// AttachTokenEnv carries the stub's token in its environment, where other
// processes cannot read it (a command line is anyone's to read in /proc).
const AttachTokenEnv = "AGENT_LSP_ATTACH_TOKEN"

// Exit is how a command a stub ran ended, as the stub reported it.
type Exit struct {
	Reported bool   // false: the stub never said (it died, or never started it)
	Code     int    // -1 for a signal
	Signal   string // the signal's name, when one ended it
	Err      string // why the stub could not start the command
}

// stubReport is one line the stub sends after the handoff.
type stubReport struct {
	Started bool   `json:"started,omitempty"`
	PGID    int    `json:"pgid,omitempty"`
	Exit    *Exit  `json:"exit,omitempty"`
	Error   string `json:"error,omitempty"`
}
