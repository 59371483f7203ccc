package permission

// The persistent rules' part of the policy: a deny rule refuses without
// asking, an allow rule lets a call below HIGH run without asking, and an
// "Always allow" answer saves a rule (rulesfile*.go).

// SetRules makes the policy follow rules (nil: none, and "Always allow"
// is not offered); onSaveError is told when an "Always allow" could not be
// saved (the call still runs, the session remembers it).
func (p *Policy) SetRules(rules *Rules, onSaveError func(error)) {
	p.mu.Lock()
	p.rules, p.onSaveError = rules, onSaveError
	p.mu.Unlock()
}

func (p *Policy) currentRules() *Rules {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rules
}

// byRule is the verdict of the rule that decides a, if one does.
func (p *Policy) byRule(a Action) (Verdict, bool) {
	rules := p.currentRules()
	if rules == nil {
		return Verdict{}, false
	}
	rule, ok := rules.Decide(a)
	if !ok {
		return Verdict{}, false
	}
	if rule.Decision == RuleDeny {
		return Verdict{Reason: "denied by the rule \"" + rule.String() + "\" of the " + string(rule.Source) + "'s rules file"}, true
	}
	return Verdict{Allowed: true}, true
}

// alwaysRule is the rule an "Always allow" of a would save, when that
// answer is offered (with the session answer, and rules in use).
func (p *Policy) alwaysRule(a Action, offer bool) string {
	rules := p.currentRules()
	if !offer || rules == nil || a.Risk >= High || !(rules.canSave(SourceUser) || rules.canSave(SourceWorkspace)) {
		return ""
	}
	return RuleFor(a)
}

// saveAlways saves a's rule where d says; an answer that was not offered
// saves nothing.
func (p *Policy) saveAlways(a Action, d Decision) {
	src, ok := d.Always()
	if !ok || a.AlwaysRule == "" {
		return
	}
	rules := p.currentRules()
	if rules == nil {
		return
	}
	if err := rules.Save(src, a.AlwaysRule); err != nil {
		p.mu.Lock()
		report := p.onSaveError
		p.mu.Unlock()
		if report != nil {
			report(err)
		}
	}
}
