package preview

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

const goodAudit = `{"v":1,"ok":true,"engine":"4.14.1","truncated":false,"violations":[
 {"id":"image-alt","impact":"critical","help":"Images must have alternative text","helpUrl":"https://dequeuniversity.com/rules/axe/4.14/image-alt","count":1,"selectors":["img"]},
 {"id":"color-contrast","impact":"serious","help":"Elements must meet minimum color contrast ratio thresholds","count":7,"selectors":["#a","#b","#c","#d","#e"],"selectorsTruncated":true},
 {"id":"region","impact":null,"help":"All page content should be contained by landmarks","count":2,"selectors":["p","h1"]},
 {"id":"list","impact":"serious","help":"Lists","count":9,"selectors":["ul"]}]}`

// TestDecodeAudit: a well-formed reply decodes, sorted by impact, then count, then id; a null
// impact is "unknown"; truncation flags are kept.
func TestDecodeAudit(t *testing.T) {
	r, err := DecodeAudit([]byte(goodAudit))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range r.Violations {
		ids = append(ids, v.ID+":"+v.Impact)
	}
	if got := strings.Join(ids, ","); got != "image-alt:critical,list:serious,color-contrast:serious,region:unknown" {
		t.Fatalf("order %s", got)
	}
	if r.Engine != "4.14.1" || r.Truncated || !r.Violations[2].SelectorsTruncated || r.Violations[2].Count != 7 || len(r.Violations[2].Selectors) != 5 {
		t.Fatalf("report %+v", r)
	}
	if r.Violations[0].HelpURL == "" || r.Violations[1].HelpURL != "" {
		t.Fatalf("help URLs %+v", r.Violations)
	}
}

// TestDecodeAuditFailure: ok:false is an engine failure with the runtime's message (cut).
func TestDecodeAuditFailure(t *testing.T) {
	_, err := DecodeAudit([]byte(`{"v":1,"ok":false,"error":"` + strings.Repeat("x", 400) + `"}`))
	var f *AuditFailure
	if !errors.As(err, &f) || f.Reason != "engine" || utf8.RuneCountInString(f.Message) != MaxErrorMessageChars {
		t.Fatalf("%v", err)
	}
}

// TestDecodeAuditRefuses: every malformed or over-limit reply is an invalid-reply failure.
func TestDecodeAuditRefuses(t *testing.T) {
	rule := func(extra string) string {
		return `{"v":1,"ok":true,"engine":"4","truncated":false,"violations":[{"id":"x","impact":"minor","help":"h","count":1,"selectors":["p"]` + extra + `}]}`
	}
	many := func(n int, item string) string {
		s := make([]string, n)
		for i := range s {
			s[i] = strings.ReplaceAll(item, "ID", strings.Repeat("a", i+1))
		}
		return strings.Join(s, ",")
	}
	cases := map[string]string{
		"not json":        `nope`,
		"array":           `[]`,
		"trailing":        `{"v":1,"ok":false,"error":"e"} {}`,
		"unknown field":   rule(`,"nodes":[]`),
		"top unknown":     `{"v":1,"ok":true,"engine":"4","truncated":false,"violations":[],"x":1}`,
		"version":         `{"v":2,"ok":true,"engine":"4","truncated":false,"violations":[]}`,
		"missing engine":  `{"v":1,"ok":true,"truncated":false,"violations":[]}`,
		"missing list":    `{"v":1,"ok":true,"engine":"4","truncated":false}`,
		"ok with error":   `{"v":1,"ok":true,"error":"e","engine":"4","truncated":false,"violations":[]}`,
		"failed extra":    `{"v":1,"ok":false,"error":"e","violations":[]}`,
		"failed no error": `{"v":1,"ok":false}`,
		"impact":          strings.Replace(rule(""), `"minor"`, `"fatal"`, 1),
		"impact unknown":  strings.Replace(rule(""), `"minor"`, `"unknown"`, 1),
		"impact type":     strings.Replace(rule(""), `"minor"`, `3`, 1),
		"count zero":      strings.Replace(rule(""), `"count":1`, `"count":0`, 1),
		"count float":     strings.Replace(rule(""), `"count":1`, `"count":1.5`, 1),
		"count huge":      strings.Replace(rule(""), `"count":1`, `"count":1e12`, 1),
		"count < sel":     strings.Replace(rule(""), `["p"]`, `["p","q"]`, 1),
		"empty id":        strings.Replace(rule(""), `"id":"x"`, `"id":""`, 1),
		"empty help":      strings.Replace(rule(""), `"help":"h"`, `"help":""`, 1),
		"empty selector":  strings.Replace(rule(""), `["p"]`, `[""]`, 1),
		"control char":    strings.Replace(rule(""), `"help":"h"`, `"help":"a\nb"`, 1),
		"long help":       strings.Replace(rule(""), `"help":"h"`, `"help":"`+strings.Repeat("é", MaxAuditHelpChars+1)+`"`, 1),
		"long selector":   strings.Replace(rule(""), `["p"]`, `["`+strings.Repeat("p", MaxAuditSelectorChars+1)+`"]`, 1),
		"helpUrl scheme":  rule(`,"helpUrl":"javascript:alert(1)"`),
		"selector type":   strings.Replace(rule(""), `["p"]`, `[1]`, 1),
		"too many sel":    strings.Replace(strings.Replace(rule(""), `["p"]`, `["a","b","c","d","e","f"]`, 1), `"count":1`, `"count":9`, 1),
		"duplicate id":    `{"v":1,"ok":true,"engine":"4","truncated":false,"violations":[` + many(2, `{"id":"x","help":"h","count":1,"selectors":[]}`) + `]}`,
		"too many rules":  `{"v":1,"ok":true,"engine":"4","truncated":false,"violations":[` + many(MaxAuditRules+1, `{"id":"ID","help":"h","count":1,"selectors":[]}`) + `]}`,
		"invalid utf8":    strings.Replace(rule(""), `"help":"h"`, "\"help\":\"\xff\"", 1),
		"too large":       `{"v":1,"ok":false,"error":"` + strings.Repeat(" ", MaxAuditReplyBytes) + `"}`,
	}
	for name, raw := range cases {
		_, err := DecodeAudit([]byte(raw))
		var f *AuditFailure
		if !errors.As(err, &f) || f.Reason != "invalid-reply" {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := DecodeAudit([]byte(rule(""))); err != nil {
		t.Fatalf("the base case must decode: %v", err)
	}
}

// FuzzDecodeAudit: DecodeAudit never panics, and whatever it accepts is within every bound.
func FuzzDecodeAudit(f *testing.F) {
	f.Add([]byte(goodAudit))
	f.Add([]byte(`{"v":1,"ok":false,"error":"boom"}`))
	f.Add([]byte(`{"v":1,"ok":true,"engine":"","truncated":true,"violations":[]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		r, err := DecodeAudit(raw)
		if err != nil {
			var fl *AuditFailure
			if !errors.As(err, &fl) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if len(r.Violations) > MaxAuditRules || r.Engine == "" || utf8.RuneCountInString(r.Engine) > MaxAuditEngineChars {
			t.Fatalf("out of bounds: %+v", r)
		}
		for _, v := range r.Violations {
			if v.ID == "" || v.Help == "" || !validImpact(v.Impact) || v.Count < 1 || v.Count > MaxAuditCount ||
				len(v.Selectors) > MaxAuditSelectors || len(v.Selectors) > v.Count ||
				utf8.RuneCountInString(v.Help) > MaxAuditHelpChars || utf8.RuneCountInString(v.HelpURL) > MaxAuditURLChars {
				t.Fatalf("rule out of bounds: %+v", v)
			}
			for _, s := range v.Selectors {
				if s == "" || utf8.RuneCountInString(s) > MaxAuditSelectorChars {
					t.Fatalf("selector out of bounds: %q", s)
				}
			}
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatal(err)
		}
	})
}
