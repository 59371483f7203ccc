package agent

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultWarnAt is the share of a cap at which the user is warned.
const DefaultWarnAt = 0.8

// DefaultUnpricedTokens is the session token cap that holds when a dollar
// cap is set but the model has no price (the dollar cap cannot hold) and
// the user set no token cap: about a dollar of input at the priced
// models' list prices, and far more than one ordinary task needs.
const DefaultUnpricedTokens = 2_000_000

// SpendLimit is what a user allows a session to spend. A zero field is no
// cap.
type SpendLimit struct {
	SessionUSD float64 // the session's calls together
	DayUSD     float64 // every session's calls of the day (local time), in every workspace and process
	// WorkspaceDayUSD caps the day's calls made in this workspace.
	WorkspaceDayUSD float64
	SessionTokens   int     // input and output tokens of the session's calls together
	WarnAt          float64 // the share of a cap that warns (0: DefaultWarnAt)
}

// Set reports whether any cap is set.
func (l SpendLimit) Set() bool {
	return l.SessionUSD > 0 || l.DayUSD > 0 || l.WorkspaceDayUSD > 0 || l.SessionTokens > 0
}

func (l SpendLimit) warnAt() float64 {
	if l.WarnAt <= 0 || l.WarnAt > 1 {
		return DefaultWarnAt
	}
	return l.WarnAt
}

func (l SpendLimit) dollarCap() bool {
	return l.SessionUSD > 0 || l.DayUSD > 0 || l.WorkspaceDayUSD > 0
}

// tokenCap is the session token cap in force: the user's, or, for a model
// without a price under a dollar cap, DefaultUnpricedTokens.
func (l SpendLimit) tokenCap(priced bool) int {
	if l.SessionTokens > 0 {
		return l.SessionTokens
	}
	if !priced && l.dollarCap() {
		return DefaultUnpricedTokens
	}
	return 0
}

// Spend is the accounting every model call of a session passes through
// before it is sent (Config.Spend): its prompt rounds, its compaction
// summaries and any other Session that shares it (a subagent's), so that
// a cap holds over all of them. Safe for concurrent use.
type Spend struct {
	ledger    *DayLedger // the day's spend of every process; nil: this Spend's own calls only
	workspace string
	now       func() time.Time

	mu         sync.Mutex
	limit      SpendLimit
	usd        float64 // the session's priced calls
	tokens     int     // every call's input and output tokens
	dayLocal   spendDay
	warned     map[string]bool // a cap's warning was given since it was last crossed
	unpriced   bool            // the notice that the dollar cap cannot hold was given
	pending    []string        // warnings not yet shown
	lastRefuse string          // why the last request was not sent
}

// spendDay is the spend of one day this process counted itself (no ledger).
type spendDay struct {
	day string
	usd float64
}

// NewSpend starts the accounting of a session in workspace (its root, ""
// for none). ledger (may be nil) holds the day's spend across processes;
// now is the clock (nil: time.Now).
func NewSpend(limit SpendLimit, ledger *DayLedger, workspace string, now func() time.Time) *Spend {
	if now == nil {
		now = time.Now
	}
	return &Spend{limit: limit, ledger: ledger, workspace: workspace, now: now, warned: map[string]bool{}}
}

// Limit is the caps in force.
func (sp *Spend) Limit() SpendLimit {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.limit
}

// SetLimit replaces the caps; a cap raised above the spend warns again
// when it is crossed again.
func (sp *Spend) SetLimit(l SpendLimit) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.limit = l
	st := sp.statusLocked()
	for name := range sp.warned {
		if st.share(name) < l.warnAt() {
			delete(sp.warned, name)
		}
	}
}

// seed counts what a resumed session spent before this process.
func (sp *Spend) seed(t Totals) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.usd += t.Cost
	sp.tokens += t.Usage.PromptTokens + t.Usage.CompletionTokens
}

// SpendStatus is the running spend and the caps in force, for a front
// end's status display. A zero cap is no cap.
type SpendStatus struct {
	SessionUSD, SessionCapUSD           float64
	DayUSD, DayCapUSD                   float64
	WorkspaceDayUSD, WorkspaceDayCapUSD float64
	SessionTokens, TokenCap             int
	// Warnings are the lines to show now (a cap's share crossed, a dollar
	// cap that cannot hold); each is given once.
	Warnings []string
}

// share is how much of the named cap is spent (0 without the cap).
func (st SpendStatus) share(name string) float64 {
	frac := func(v, c float64) float64 {
		if c <= 0 {
			return 0
		}
		return v / c
	}
	switch name {
	case capSession:
		return frac(st.SessionUSD, st.SessionCapUSD)
	case capDay:
		return frac(st.DayUSD, st.DayCapUSD)
	case capWorkspaceDay:
		return frac(st.WorkspaceDayUSD, st.WorkspaceDayCapUSD)
	case capTokens:
		return frac(float64(st.SessionTokens), float64(st.TokenCap))
	}
	return 0
}

// The caps, by the name their messages use.
const (
	capSession      = "the session's cap"
	capDay          = "the day's cap"
	capWorkspaceDay = "this workspace's day cap"
	capTokens       = "the session's token cap"
)

var capNames = []string{capSession, capDay, capWorkspaceDay, capTokens}

// Status is the running spend and the caps; it takes the pending warnings.
func (sp *Spend) Status() SpendStatus {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	st := sp.statusLocked()
	st.Warnings, sp.pending = sp.pending, nil
	return st
}

func (sp *Spend) statusLocked() SpendStatus {
	day, ws := sp.dayLocked()
	return SpendStatus{SessionUSD: sp.usd, SessionCapUSD: sp.limit.SessionUSD,
		DayUSD: day, DayCapUSD: sp.limit.DayUSD, WorkspaceDayUSD: ws, WorkspaceDayCapUSD: sp.limit.WorkspaceDayUSD,
		SessionTokens: sp.tokens, TokenCap: sp.limit.tokenCap(!sp.unpriced)}
}

// dayLocked is the day's spend overall and in this workspace.
func (sp *Spend) dayLocked() (all, ws float64) {
	day := dayOf(sp.now())
	if sp.ledger != nil {
		return sp.ledger.Spent(day, sp.workspace)
	}
	if sp.dayLocal.day != day {
		sp.dayLocal = spendDay{day: day}
	}
	return sp.dayLocal.usd, sp.dayLocal.usd
}

// projection is what a request may cost before it is sent.
type projection struct {
	usd    float64
	priced bool
	tokens int
	model  string
}

// admit decides whether a request that may cost p can be sent; the error
// says which cap it would cross.
func (sp *Spend) admit(p projection) error {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if !p.priced && sp.limit.dollarCap() && !sp.unpriced {
		sp.unpriced = true
		sp.pending = append(sp.pending, fmt.Sprintf("%s has no price: the dollar cap cannot hold; the token cap of %d tokens does", p.model, sp.limit.tokenCap(false)))
	}
	st := sp.statusLocked()
	refuse := func(name string, spent, next, limit, raise string) error {
		sp.lastRefuse = fmt.Sprintf("stopped before the next model request: it may cost up to %s and %s is %s (%s spent); raise it (/budget %s) to go on", next, name, limit, spent, raise)
		return &SpendLimitError{Message: sp.lastRefuse}
	}
	if p.priced {
		if c := st.SessionCapUSD; c > 0 && st.SessionUSD+p.usd > c {
			return refuse(capSession, usd(st.SessionUSD), usd(p.usd), usd(c), "sessionUsd=…")
		}
		if c := st.DayCapUSD; c > 0 && st.DayUSD+p.usd > c {
			return refuse(capDay, usd(st.DayUSD), usd(p.usd), usd(c), "dayUsd=…")
		}
		if c := st.WorkspaceDayCapUSD; c > 0 && st.WorkspaceDayUSD+p.usd > c {
			return refuse(capWorkspaceDay, usd(st.WorkspaceDayUSD), usd(p.usd), usd(c), "workspaceDayUsd=…")
		}
	}
	if c := sp.limit.tokenCap(p.priced); c > 0 && st.SessionTokens+p.tokens > c {
		return refuse(capTokens, fmt.Sprintf("%d tokens", st.SessionTokens), fmt.Sprintf("%d tokens", p.tokens), fmt.Sprintf("%d tokens", c), "sessionTokens=…")
	}
	return nil
}

// charge counts a call that was made, in the session and in the day's
// ledger, and queues a warning for each cap whose share it crossed.
func (sp *Spend) charge(cost float64, tokens int, sessionID string) {
	now := sp.now()
	switch {
	case sp.ledger != nil && cost > 0:
		sp.ledger.add(now, sp.workspace, sessionID, cost)
	case sp.ledger != nil:
		sp.ledger.pruneOnce(now) // a model without a price writes no line, but old days still go
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.usd += cost
	sp.tokens += tokens
	if day := dayOf(now); sp.dayLocal.day != day {
		sp.dayLocal = spendDay{day: day}
	}
	sp.dayLocal.usd += cost
	st := sp.statusLocked()
	at := sp.limit.warnAt()
	for _, name := range capNames {
		if sh := st.share(name); sh >= at && !sp.warned[name] {
			sp.warned[name] = true
			sp.pending = append(sp.pending, fmt.Sprintf("%.0f%% of %s spent (%s)", sh*100, name, st.spentOf(name)))
		}
	}
}

// spentOf says the spend against the named cap.
func (st SpendStatus) spentOf(name string) string {
	switch name {
	case capSession:
		return usd(st.SessionUSD) + " of " + usd(st.SessionCapUSD)
	case capDay:
		return usd(st.DayUSD) + " of " + usd(st.DayCapUSD)
	case capWorkspaceDay:
		return usd(st.WorkspaceDayUSD) + " of " + usd(st.WorkspaceDayCapUSD)
	}
	return fmt.Sprintf("%d of %d tokens", st.SessionTokens, st.TokenCap)
}

// refusal is why the last request was not sent.
func (sp *Spend) refusal() string {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.lastRefuse
}

// SpendLimitError: a request was not sent because it could cross a cap.
type SpendLimitError struct{ Message string }

func (e *SpendLimitError) Error() string { return e.Message }

// usd writes a dollar amount with the cents and as many more digits (up
// to four) as it has: a cap of $0.225 is not shown as $0.23.
func usd(v float64) string {
	s := strconv.FormatFloat(v, 'f', 4, 64)
	for strings.HasSuffix(s, "0") && len(s)-strings.IndexByte(s, '.') > 3 {
		s = s[:len(s)-1]
	}
	return "$" + s
}

// dayOf names t's local calendar day.
func dayOf(t time.Time) string { return t.Local().Format(time.DateOnly) }
