package acp

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/agent"
)

// The spend caps' config options: the chat's flags' names. ACP's options
// are selects, so each offers a ladder of values (and the current one);
// any number is taken.
const (
	configMaxUSD       = "max-usd"
	configMaxUSDDay    = "max-usd-day"
	configMaxTokens    = "max-tokens-session"
	configValueNoLimit = "off"
)

var (
	usdLadder   = []float64{0.5, 1, 2, 5, 10, 20, 50, 100}
	tokenLadder = []float64{100_000, 500_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000}
)

// spendOptions are the caps' options, after mode and model.
func (s *session) spendOptions() []sdk.SessionConfigOption {
	l := s.ctl.SpendLimit()
	return []sdk.SessionConfigOption{
		capOption(configMaxUSD, "Session cost cap (USD)", "Stop before a model request that could take the session's cost past it; /budget goes on", l.SessionUSD, usdLadder, "$"),
		capOption(configMaxUSDDay, "Day cost cap (USD)", "The same cap over the day's requests of every session", l.DayUSD, usdLadder, "$"),
		capOption(configMaxTokens, "Session token cap", fmt.Sprintf("Input and output tokens of the session's requests (with a dollar cap and a model without a price: %d)", agent.DefaultUnpricedTokens),
			float64(l.SessionTokens), tokenLadder, ""),
	}
}

func capOption(id, name, desc string, current float64, ladder []float64, unit string) sdk.SessionConfigOption {
	values := ladder
	if current > 0 && !slices.Contains(ladder, current) {
		values = append(slices.Clone(ladder), current)
		slices.Sort(values)
	}
	opts := sdk.SessionConfigSelectOptionsUngrouped{{Value: configValueNoLimit, Name: "no cap"}}
	for _, v := range values {
		opts = append(opts, sdk.SessionConfigSelectOption{Value: sdk.SessionConfigValueId(capValue(v)), Name: unit + capValue(v)})
	}
	cur := configValueNoLimit
	if current > 0 {
		cur = capValue(current)
	}
	return sdk.SessionConfigOption{Select: &sdk.SessionConfigOptionSelect{Type: "select", Id: sdk.SessionConfigId(id), Name: name,
		Description: sdk.Ptr(desc), CurrentValue: sdk.SessionConfigValueId(cur), Options: sdk.SessionConfigSelectOptions{Ungrouped: &opts}}}
}

func capValue(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// setSpendOption sets one cap from its option; handled is false for
// another option.
func (s *session) setSpendOption(id sdk.SessionConfigId, value sdk.SessionConfigValueId) (handled bool, err error) {
	if id != configMaxUSD && id != configMaxUSDDay && id != configMaxTokens {
		return false, nil
	}
	v := 0.0
	if value != configValueNoLimit {
		if v, err = strconv.ParseFloat(string(value), 64); err != nil || v < 0 {
			return true, invalidParams(fmt.Errorf("%s: %q is neither a number nor %q", id, value, configValueNoLimit))
		}
	}
	l := s.ctl.SpendLimit()
	switch id {
	case configMaxUSD:
		l.SessionUSD = v
	case configMaxUSDDay:
		l.DayUSD = v
	case configMaxTokens:
		l.SessionTokens = int(v)
	}
	return true, s.ctl.SetSpendLimit(l)
}

// withSpend puts the running spend against the caps in a usage_update's
// _meta (ACP's usage has only the cost): {"agentLsp": {"spend": {...}}}.
func withSpend(u sdk.SessionUpdate, st *agent.SpendStatus) sdk.SessionUpdate {
	if st == nil || u.UsageUpdate == nil || (st.SessionCapUSD == 0 && st.DayCapUSD == 0 && st.WorkspaceDayCapUSD == 0 && st.TokenCap == 0) {
		return u
	}
	spend := map[string]any{"sessionUsd": st.SessionUSD, "dayUsd": st.DayUSD, "workspaceDayUsd": st.WorkspaceDayUSD, "sessionTokens": st.SessionTokens}
	for k, v := range map[string]float64{"sessionCapUsd": st.SessionCapUSD, "dayCapUsd": st.DayCapUSD, "workspaceDayCapUsd": st.WorkspaceDayCapUSD, "tokenCap": float64(st.TokenCap)} {
		if v > 0 {
			spend[k] = v
		}
	}
	u.UsageUpdate.Meta = map[string]any{"agentLsp": map[string]any{"spend": spend}}
	return u
}

// sendSpendWarnings shows each spend warning once, as a line of the answer
// (ACP has no notice of its own).
func (s *session) sendSpendWarnings(ctx context.Context, st *agent.SpendStatus) {
	if st == nil {
		return
	}
	for _, w := range st.Warnings {
		s.send(ctx, sdk.UpdateAgentMessageText("\n\n[spend: "+w+"]\n\n"))
	}
}
