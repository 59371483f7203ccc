package main

import (
	"flag"

	"github.com/agent-lsp/agent-lsp/tools"
)

// registerWebFetchFlags adds web_fetch's flags, the same for the daemon,
// the chat and ACP.
func registerWebFetchFlags(fs *flag.FlagSet, o *tools.WebFetchOptions) {
	fs.BoolVar(&o.AllowPrivateNetwork, "web-fetch-private-network", false,
		"let web_fetch reach loopback, link-local and private addresses (a docs server on this machine or network); each domain is still asked")
}
