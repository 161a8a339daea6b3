package preview

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// The accessibility audit of a running preview (preview.audit, issue 17; docs/design.md §5.17).
// In the browser the parent posts axe-core's source and the limits below to the runtime over
// the mount's MessagePort; the runtime evaluates it (once per document), runs it on the
// document and replies over the same port. The reply comes from a document that runs page code,
// so it is untrusted: DecodeAudit reads it strictly and within these bounds.

// Limits of an audit reply. Character counts are Unicode code points (SPEC §2.14).
const (
	// MaxAuditRules bounds the violated rules reported (axe-core 4.x has about 100 rules).
	MaxAuditRules = 60
	// MaxAuditSelectors bounds the selectors reported per rule; Count has the full number.
	MaxAuditSelectors = 5
	// MaxAuditSelectorChars bounds one selector.
	MaxAuditSelectorChars = 300
	// MaxAuditRuleIDChars bounds a rule id ("image-alt").
	MaxAuditRuleIDChars = 80
	// MaxAuditHelpChars bounds a rule's help text.
	MaxAuditHelpChars = 300
	// MaxAuditURLChars bounds a rule's help URL.
	MaxAuditURLChars = 300
	// MaxAuditEngineChars bounds the engine version string.
	MaxAuditEngineChars = 40
	// MaxAuditCount bounds a rule's node count.
	MaxAuditCount = 1_000_000
	// MaxAuditReplyBytes bounds the reply's JSON (the shim refuses more before Go sees it).
	MaxAuditReplyBytes = 256 << 10
)

// AuditTimeout bounds one audit in the frame (loading the engine and running it); an Auditor
// answers ErrAuditTimeout after it.
const AuditTimeout = 20 * time.Second

// Audit impacts (axe-core's), most severe first. A rule without an impact is reported as
// AuditImpactUnknown.
const (
	AuditImpactCritical = "critical"
	AuditImpactSerious  = "serious"
	AuditImpactModerate = "moderate"
	AuditImpactMinor    = "minor"
	AuditImpactUnknown  = "unknown"
)

// AuditImpacts lists the impacts in order, most severe first.
var AuditImpacts = []string{AuditImpactCritical, AuditImpactSerious, AuditImpactModerate, AuditImpactMinor, AuditImpactUnknown}

// AuditLimits is what the parent tells the runtime to keep (the constants above), so one place
// sets them: {rules, selectors, selectorChars, helpChars, urlChars, idChars, count}.
type AuditLimits struct {
	Count         int `json:"count"`
	Rules         int `json:"rules"`
	Selectors     int `json:"selectors"`
	SelectorChars int `json:"selectorChars"`
	HelpChars     int `json:"helpChars"`
	URLChars      int `json:"urlChars"`
	IDChars       int `json:"idChars"`
}

// DefaultAuditLimits are the limits above.
var DefaultAuditLimits = AuditLimits{Count: MaxAuditCount, Rules: MaxAuditRules, Selectors: MaxAuditSelectors,
	SelectorChars: MaxAuditSelectorChars, HelpChars: MaxAuditHelpChars, URLChars: MaxAuditURLChars, IDChars: MaxAuditRuleIDChars}

// AuditViolation is one violated rule: {id, impact, help, helpUrl?, count, selectors,
// selectorsTruncated?}. Count is the number of elements that violate it; Selectors are the
// first ≤ MaxAuditSelectors of them (axe-core's unique selectors, frame paths joined with " ").
type AuditViolation struct {
	ID                 string   `json:"id"`
	Impact             string   `json:"impact"`
	Help               string   `json:"help"`
	HelpURL            string   `json:"helpUrl,omitempty"`
	Count              int      `json:"count"`
	Selectors          []string `json:"selectors"`
	SelectorsTruncated bool     `json:"selectorsTruncated,omitempty"`
}

// AuditReport is a decoded reply: the engine version, the violations (most severe impact
// first, then by count, then by id) and whether the runtime left rules out (Truncated).
type AuditReport struct {
	Engine     string           `json:"engine"`
	Violations []AuditViolation `json:"violations"`
	Truncated  bool             `json:"truncated"`
}

// Errors of an Auditor and of DecodeAudit.
var (
	// ErrAuditSuperseded: the mount changed (another revision or page, a navigation, a
	// discarded frame) before or while the audit ran.
	ErrAuditSuperseded = errors.New("preview: the audited revision is no longer the one shown")
	// ErrAuditTimeout: no reply within the audit's time limit.
	ErrAuditTimeout = errors.New("preview: the audit did not finish in time")
	// ErrAuditNoEngine: the studio could not load the audit engine (axe-core) for the frame.
	ErrAuditNoEngine = errors.New("preview: the audit engine is not available")
)

// AuditFailure is the runtime's own failure report (axe threw, or could not start), or a
// reply DecodeAudit refused: Reason "engine" (Message: the runtime's text, ≤
// MaxErrorMessageChars) or "invalid-reply" (Message: what was wrong).
type AuditFailure struct {
	Reason  string
	Message string
}

func (e *AuditFailure) Error() string { return "preview: audit " + e.Reason + ": " + e.Message }

// Auditor is implemented by a Port whose pages really run (the browser's iframe). Audit runs
// the audit on the document of revision, which must be the acknowledged current mount, and
// returns the runtime's raw reply (decode it with DecodeAudit). Errors: ErrAuditSuperseded,
// ErrAuditTimeout, ErrAuditNoEngine, ctx.Err().
type Auditor interface {
	Audit(ctx context.Context, revision int64, limits AuditLimits) ([]byte, error)
}

// auditWire is the reply's exact shape; unknown fields are refused.
type auditWire struct {
	V          int        `json:"v"`
	OK         bool       `json:"ok"`
	Error      *string    `json:"error"`
	Engine     *string    `json:"engine"`
	Violations []ruleWire `json:"violations"`
	Truncated  *bool      `json:"truncated"`
}

type ruleWire struct {
	ID                 *string  `json:"id"`
	Impact             *string  `json:"impact"`
	Help               *string  `json:"help"`
	HelpURL            *string  `json:"helpUrl"`
	Count              *int     `json:"count"`
	Selectors          []string `json:"selectors"`
	SelectorsTruncated *bool    `json:"selectorsTruncated"`
}

// DecodeAudit decodes the runtime's reply to an audit request, strictly:
//
//	{"v": 1, "ok": true, "engine": "4.14.1", "truncated": false,
//	 "violations": [{"id", "impact", "help", "helpUrl"?, "count", "selectors": [...],
//	                 "selectorsTruncated"?}]}
//	{"v": 1, "ok": false, "error": "…"}
//
// Refused (an *AuditFailure with Reason "invalid-reply"): more than MaxAuditReplyBytes, not
// exactly one JSON object, an unknown field, a wrong type, v ≠ 1, a missing field, more than
// MaxAuditRules rules or MaxAuditSelectors selectors, a string over its limit (id
// MaxAuditRuleIDChars, help MaxAuditHelpChars, helpUrl MaxAuditURLChars and http(s) only,
// selector MaxAuditSelectorChars, engine MaxAuditEngineChars), an empty id, help or selector,
// invalid UTF-8 or control characters, a duplicate rule id, a count outside
// 1..MaxAuditCount or below the number of selectors. An impact outside AuditImpacts is
// refused; null or absent is AuditImpactUnknown. An ok:false reply is an *AuditFailure with
// Reason "engine" and the runtime's message (cut to MaxErrorMessageChars).
// The violations are returned sorted: impact (most severe first), count (descending), id.
func DecodeAudit(raw []byte) (AuditReport, error) {
	bad := func(format string, a ...any) (AuditReport, error) {
		return AuditReport{}, &AuditFailure{Reason: "invalid-reply", Message: fmt.Sprintf(format, a...)}
	}
	if len(raw) > MaxAuditReplyBytes {
		return bad("the reply is larger than %d bytes", MaxAuditReplyBytes)
	}
	if !utf8.Valid(raw) {
		return bad("the reply is not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var w auditWire
	if err := dec.Decode(&w); err != nil {
		return bad("the reply is not the expected JSON object: %s", cutChars(err.Error(), 120))
	}
	if _, err := dec.Token(); err != io.EOF {
		return bad("the reply has data after its JSON object")
	}
	if w.V != 1 {
		return bad("unknown reply version %d", w.V)
	}
	if !w.OK {
		if w.Error == nil || w.Engine != nil || w.Violations != nil || w.Truncated != nil {
			return bad("a failed reply carries only its error")
		}
		msg := cutChars(strings.TrimSpace(*w.Error), MaxErrorMessageChars)
		if msg == "" {
			msg = "the audit failed"
		}
		return AuditReport{}, &AuditFailure{Reason: "engine", Message: msg}
	}
	if w.Error != nil || w.Engine == nil || w.Violations == nil || w.Truncated == nil {
		return bad("a reply carries engine, violations and truncated, and no error")
	}
	if err := checkText("engine", *w.Engine, MaxAuditEngineChars, false); err != "" {
		return bad("%s", err)
	}
	if len(w.Violations) > MaxAuditRules {
		return bad("more than %d rules", MaxAuditRules)
	}
	out := AuditReport{Engine: *w.Engine, Truncated: *w.Truncated, Violations: make([]AuditViolation, 0, len(w.Violations))}
	seen := map[string]bool{}
	for i, r := range w.Violations {
		if r.ID == nil || r.Help == nil || r.Count == nil || r.Selectors == nil {
			return bad("rule %d lacks id, help, count or selectors", i)
		}
		v := AuditViolation{ID: *r.ID, Help: *r.Help, Count: *r.Count, Impact: AuditImpactUnknown}
		for _, c := range [][3]any{{"id", v.ID, MaxAuditRuleIDChars}, {"help", v.Help, MaxAuditHelpChars}} {
			if err := checkText(c[0].(string), c[1].(string), c[2].(int), false); err != "" {
				return bad("rule %d: %s", i, err)
			}
		}
		if seen[v.ID] {
			return bad("rule %q appears twice", v.ID)
		}
		seen[v.ID] = true
		if r.Impact != nil {
			if !validImpact(*r.Impact) || *r.Impact == AuditImpactUnknown {
				return bad("rule %q: unknown impact", v.ID)
			}
			v.Impact = *r.Impact
		}
		if r.HelpURL != nil && *r.HelpURL != "" {
			if err := checkText("helpUrl", *r.HelpURL, MaxAuditURLChars, false); err != "" {
				return bad("rule %q: %s", v.ID, err)
			}
			if !strings.HasPrefix(*r.HelpURL, "https://") && !strings.HasPrefix(*r.HelpURL, "http://") {
				return bad("rule %q: helpUrl is not an http(s) URL", v.ID)
			}
			v.HelpURL = *r.HelpURL
		}
		if len(r.Selectors) > MaxAuditSelectors {
			return bad("rule %q: more than %d selectors", v.ID, MaxAuditSelectors)
		}
		for _, s := range r.Selectors {
			if err := checkText("selector", s, MaxAuditSelectorChars, false); err != "" {
				return bad("rule %q: %s", v.ID, err)
			}
		}
		if v.Count < 1 || v.Count > MaxAuditCount || v.Count < len(r.Selectors) {
			return bad("rule %q: count %d out of range", v.ID, v.Count)
		}
		v.Selectors = append([]string{}, r.Selectors...)
		v.SelectorsTruncated = r.SelectorsTruncated != nil && *r.SelectorsTruncated
		out.Violations = append(out.Violations, v)
	}
	SortViolations(out.Violations)
	return out, nil
}

// SortViolations orders violations by impact (AuditImpacts order), then count (descending),
// then id.
func SortViolations(vs []AuditViolation) {
	rank := func(s string) int {
		for i, x := range AuditImpacts {
			if x == s {
				return i
			}
		}
		return len(AuditImpacts)
	}
	less := func(a, b AuditViolation) bool {
		if ra, rb := rank(a.Impact), rank(b.Impact); ra != rb {
			return ra < rb
		}
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.ID < b.ID
	}
	for i := 1; i < len(vs); i++ { // insertion sort: at most MaxAuditRules items, stable
		for j := i; j > 0 && less(vs[j], vs[j-1]); j-- {
			vs[j], vs[j-1] = vs[j-1], vs[j]
		}
	}
}

func validImpact(s string) bool {
	for _, x := range AuditImpacts {
		if x == s {
			return true
		}
	}
	return false
}

// checkText returns "" when s is non-empty (unless empty is allowed), at most max code points
// and free of control characters; else what is wrong.
func checkText(field, s string, max int, empty bool) string {
	switch {
	case s == "" && !empty:
		return field + " is empty"
	case utf8.RuneCountInString(s) > max:
		return fmt.Sprintf("%s is longer than %d characters", field, max)
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return field + " holds a control character"
		}
	}
	return ""
}
