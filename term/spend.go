package term

import (
	"fmt"
	"strings"

	"github.com/agent-lsp/agent-lsp/agent"
)

// spendWarnings shows a call's spend warnings (a cap's share crossed, a
// dollar cap that cannot hold) as they come, each once.
func (p *printer) spendWarnings(e agent.Event) {
	if e.Spend == nil {
		return
	}
	p.spend = e.Spend
	for _, w := range e.Spend.Warnings {
		p.freshLine(p.answer)
		p.write(p.progress, p.style(ansiRed, "[spend: "+w+"]")+"\n")
	}
}

// spendSuffix is the usage line's part on the caps: the spend against each
// cap set ("" without one).
func spendSuffix(st *agent.SpendStatus) string {
	if st == nil {
		return ""
	}
	var parts []string
	if st.SessionCapUSD > 0 {
		parts = append(parts, fmt.Sprintf("cap $%.2f", st.SessionCapUSD))
	}
	if st.DayCapUSD > 0 {
		parts = append(parts, fmt.Sprintf("today $%.4f of $%.2f", st.DayUSD, st.DayCapUSD))
	}
	if st.WorkspaceDayCapUSD > 0 {
		parts = append(parts, fmt.Sprintf("workspace today $%.4f of $%.2f", st.WorkspaceDayUSD, st.WorkspaceDayCapUSD))
	}
	if st.TokenCap > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d tokens", st.SessionTokens, st.TokenCap))
	}
	if len(parts) == 0 {
		return ""
	}
	return " · " + strings.Join(parts, " · ")
}
