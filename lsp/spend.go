package lsp

import (
	"github.com/agent-lsp/agent-lsp/agent"
)

// spendLimitOption is initializationOptions.spendLimit: a session's spend
// caps (agent.SpendLimit). The existing budget stays the context budget in
// tokens.
type spendLimitOption struct {
	SessionUSD      *float64 `json:"sessionUsd"`
	DayUSD          *float64 `json:"dayUsd"`
	WorkspaceDayUSD *float64 `json:"workspaceDayUsd"`
	SessionTokens   *int     `json:"sessionTokens"`
	WarnAt          *float64 `json:"warnAt"`
}

// limit is the caps the option sets; ok is false when one is negative or
// warnAt is not a share.
func (o *spendLimitOption) limit() (l agent.SpendLimit, ok bool) {
	if o == nil {
		return l, true
	}
	for _, f := range []struct {
		v   *float64
		dst *float64
	}{{o.SessionUSD, &l.SessionUSD}, {o.DayUSD, &l.DayUSD}, {o.WorkspaceDayUSD, &l.WorkspaceDayUSD}, {o.WarnAt, &l.WarnAt}} {
		if f.v != nil {
			if *f.v < 0 {
				return l, false
			}
			*f.dst = *f.v
		}
	}
	if o.SessionTokens != nil {
		if *o.SessionTokens < 0 {
			return l, false
		}
		l.SessionTokens = *o.SessionTokens
	}
	return l, l.WarnAt <= 1
}

// spendBody is the running spend against the caps on round_end and
// compacted, for a status display; absent when no cap is set. A cap
// absent is no cap.
type spendBody struct {
	SessionUSD         float64  `json:"sessionUsd"`
	SessionCapUSD      float64  `json:"sessionCapUsd,omitempty"`
	DayUSD             float64  `json:"dayUsd"`
	DayCapUSD          float64  `json:"dayCapUsd,omitempty"`
	WorkspaceDayUSD    float64  `json:"workspaceDayUsd"`
	WorkspaceDayCapUSD float64  `json:"workspaceDayCapUsd,omitempty"`
	SessionTokens      int      `json:"sessionTokens"`
	TokenCap           int      `json:"tokenCap,omitempty"`
	Warnings           []string `json:"warnings,omitempty"` // to show once: a cap's share crossed, a dollar cap that cannot hold
}

func spendOf(st *agent.SpendStatus) *spendBody {
	if st == nil || (st.SessionCapUSD == 0 && st.DayCapUSD == 0 && st.WorkspaceDayCapUSD == 0 && st.TokenCap == 0 && len(st.Warnings) == 0) {
		return nil
	}
	return &spendBody{SessionUSD: st.SessionUSD, SessionCapUSD: st.SessionCapUSD, DayUSD: st.DayUSD, DayCapUSD: st.DayCapUSD,
		WorkspaceDayUSD: st.WorkspaceDayUSD, WorkspaceDayCapUSD: st.WorkspaceDayCapUSD,
		SessionTokens: st.SessionTokens, TokenCap: st.TokenCap, Warnings: st.Warnings}
}
