package control

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
)

// spendState is the controller's day ledger, opened once beside the store
// (every session of every process on the state directory shares it).
type spendState struct {
	once   sync.Once
	ledger *agent.DayLedger
}

// dayLedger is Options.SpendLedger, else the ledger beside the store's
// directory; nil without a store: the day is then counted per session.
func (c *Controller) dayLedger() *agent.DayLedger {
	c.spend.once.Do(func() {
		switch {
		case c.o.SpendLedger != nil:
			c.spend.ledger = c.o.SpendLedger
		case c.o.Store != nil:
			l, err := agent.OpenDayLedger(agent.DefaultSpendDir(c.o.Store.Dir()), c.log)
			if err != nil {
				c.log.Warn("spend ledger unavailable: the day's caps count this process only", zap.Error(err))
				return
			}
			c.spend.ledger = l
			c.mu.Lock()
			c.closers = append(c.closers, l.Close) // the day's file it keeps open
			c.mu.Unlock()
		}
	})
	return c.spend.ledger
}

// newSpend is a new session's accounting, with the configured caps.
func (c *Controller) newSpend(b Binding) *agent.Spend {
	root := ""
	if roots := b.Workspace.Roots(); len(roots) > 0 {
		root = roots[0]
	}
	return agent.NewSpend(c.o.SpendLimit, c.dayLedger(), root, nil)
}

// SpendLimit is the session's caps.
func (s *Session) SpendLimit() agent.SpendLimit { return s.agent.SpendAccount().Limit() }

// SpendStatus is the session's running spend and caps; it takes the
// warnings not yet shown.
func (s *Session) SpendStatus() agent.SpendStatus { return s.agent.SpendAccount().Status() }

// SetSpendLimit replaces the session's caps (from the next model request
// on). A turn stopped at a cap goes on with ContinueAtCap or /budget.
func (s *Session) SetSpendLimit(l agent.SpendLimit) error {
	if l.SessionUSD < 0 || l.DayUSD < 0 || l.WorkspaceDayUSD < 0 || l.SessionTokens < 0 || l.WarnAt < 0 || l.WarnAt > 1 {
		return invalidf("a cap is a positive number (0: none), warnAt a share between 0 and 1")
	}
	s.agent.SpendAccount().SetLimit(l)
	return nil
}

// ContinueAtCap goes on with the turn the last prompt stopped at a spend
// cap: it sends the request that was refused, with no new message. ok is
// false (and nothing runs) when the last prompt did not stop at a cap.
func (s *Session) ContinueAtCap(ctx context.Context, l agent.Listener) (o agent.Outcome, ok bool) {
	if !s.agent.StoppedAtCap() || !s.agent.AwaitsModel() {
		return agent.Outcome{}, false
	}
	ctx, done := s.tracked(ctx)
	defer done()
	s.touchUpdated()
	return s.agent.Continue(ctx, planListener{Listener: l, s: s}), true
}

// slashBudget shows the spend and the caps, sets caps
// ("/budget 5", "/budget sessionUsd=5 dayUsd=20 sessionTokens=0"), and goes
// on with a turn stopped at a cap.
func (s *Session) slashBudget(ctx context.Context, args string, l agent.Listener) (Result, error) {
	if args != "" {
		lim, err := parseBudget(s.SpendLimit(), args)
		if err != nil {
			return Result{}, err
		}
		if err := s.SetSpendLimit(lim); err != nil {
			return Result{}, err
		}
	}
	if o, ok := s.ContinueAtCap(ctx, l); ok {
		return Result{Outcome: o, Continued: true}, nil
	}
	return Result{Outcome: agent.Outcome{Text: DescribeSpend(s.SpendStatus(), s.SpendLimit())}}, nil
}

// budgetKeys are /budget's settings: initializationOptions.spendLimit's
// names.
var budgetKeys = []string{"sessionUsd", "dayUsd", "workspaceDayUsd", "sessionTokens", "warnAt"}

// parseBudget applies /budget's arguments to l: a bare number is the
// session's dollar cap; key=value sets one cap (0 or "off" removes it).
func parseBudget(l agent.SpendLimit, args string) (agent.SpendLimit, error) {
	for _, w := range strings.Fields(args) {
		key, val, named := strings.Cut(w, "=")
		if !named {
			key, val = "sessionUsd", w
		}
		val = strings.TrimPrefix(val, "$")
		if val == "off" {
			val = "0"
		}
		f, err := strconv.ParseFloat(val, 64)
		if err != nil || f < 0 {
			return l, invalidf("/budget: %q is not a number (settings: %s)", w, strings.Join(budgetKeys, ", "))
		}
		switch key {
		case "sessionUsd":
			l.SessionUSD = f
		case "dayUsd":
			l.DayUSD = f
		case "workspaceDayUsd":
			l.WorkspaceDayUSD = f
		case "sessionTokens":
			l.SessionTokens = int(f)
		case "warnAt":
			if f > 1 {
				return l, invalidf("/budget: warnAt is a share between 0 and 1")
			}
			l.WarnAt = f
		default:
			return l, invalidf("/budget: unknown setting %q (settings: %s)", key, strings.Join(budgetKeys, ", "))
		}
	}
	return l, nil
}

// DescribeSpend is /budget's answer: the spend against each cap.
func DescribeSpend(st agent.SpendStatus, l agent.SpendLimit) string {
	var b strings.Builder
	capOf := func(v float64) string {
		if v <= 0 {
			return "no cap"
		}
		return fmt.Sprintf("cap $%.2f", v)
	}
	fmt.Fprintf(&b, "Spend: this session $%.4f (%s); today $%.4f (%s), in this workspace $%.4f (%s); %d tokens this session",
		st.SessionUSD, capOf(st.SessionCapUSD), st.DayUSD, capOf(st.DayCapUSD), st.WorkspaceDayUSD, capOf(st.WorkspaceDayCapUSD), st.SessionTokens)
	if st.TokenCap > 0 {
		fmt.Fprintf(&b, " (cap %d)", st.TokenCap)
	}
	warn := l.WarnAt
	if warn <= 0 {
		warn = agent.DefaultWarnAt
	}
	fmt.Fprintf(&b, "; warned at %.0f%%. Set: /budget sessionUsd=… dayUsd=… workspaceDayUsd=… sessionTokens=… warnAt=… (0: no cap)", warn*100)
	return b.String()
}
