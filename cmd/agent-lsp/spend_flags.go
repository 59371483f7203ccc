package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/agent-lsp/agent-lsp/agent"
)

// registerSpendFlags adds the spend caps' flags (initializationOptions.
// spendLimit's, ACP's config options of the same names) to fs.
func registerSpendFlags(fs *flag.FlagSet, l *agent.SpendLimit) {
	dollars := func(name, usage string, dst *float64) {
		fs.Func(name, usage, func(v string) error {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < 0 {
				return fmt.Errorf("a dollar amount, not %q", v)
			}
			*dst = f
			return nil
		})
	}
	dollars("max-usd", "stop a session before a model request that could take its cost past this many USD (/budget raises it and goes on)", &l.SessionUSD)
	dollars("max-usd-day", "the same cap over the day's requests of every session, workspace and process sharing the state directory", &l.DayUSD)
	dollars("max-usd-day-workspace", "the same cap over the day's requests in this workspace", &l.WorkspaceDayUSD)
	fs.Func("max-tokens-session", fmt.Sprintf("stop a session before a model request that could take its input and output tokens past this (default with a dollar cap and a model without a price: %d)", agent.DefaultUnpricedTokens), func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("a token count, not %q", v)
		}
		l.SessionTokens = n
		return nil
	})
	dollars("spend-warn-at", fmt.Sprintf("warn once when a cap's share reaches this (default %.1f)", agent.DefaultWarnAt), &l.WarnAt)
}
