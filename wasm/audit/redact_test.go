package audit

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// decode parses JSON test input keeping numbers as json.Number.
func decode(t testing.TB, s string) any {
	t.Helper()
	v, ok := decodeJSON([]byte(s))
	if !ok {
		t.Fatalf("bad test JSON: %s", s)
	}
	return v
}

// roundTrip serializes and re-decodes a redacted value so expectations can be written as JSON.
func roundTrip(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("redacted value does not serialize: %v", err)
	}
	return decode(t, string(b))
}

func TestRedactKeys(t *testing.T) {
	cases := []struct {
		key      string
		redacted bool
	}{
		// exact keys
		{"accesskey", true}, {"apikey", true}, {"authorization", true}, {"cookie", true},
		{"password", true}, {"privatekey", true}, {"replace", true}, {"search", true},
		{"secret", true}, {"source", true}, {"token", true},
		// case, '-', '_' and spaces ignored
		{"API_KEY", true}, {"api-key", true}, {"Api Key", true}, {"Access_Key", true},
		{"Private-Key", true}, {"SOURCE", true}, {"Se_Arch", true}, {"re place", true},
		// containment for credential-like keys
		{"x-api-key", true}, {"openRouterApiKey", true}, {"authorizationHeader", true},
		{"setCookie", true}, {"userPassword", true}, {"clientSecret", true},
		{"refresh_token", true}, {"tokens", true}, {"sshPrivateKeyPem", true}, {"awsAccessKeyId", true},
		// exact-only keys do not match by containment
		{"sourceCode", false}, {"searchLength", false}, {"replacements", false}, {"resource", false},
		// unrelated keys
		{"path", false}, {"theme", false}, {"revision", false}, {"key", false}, {"", false},
		// non-ASCII keys are normalized the same way
		{"Ünicode-TOKEN", true}, {"pass word", true}, {"PASS_WORD", true}, {"пароль", false},
	}
	p := DefaultPolicy()
	for _, c := range cases {
		if got := p.IsRedactedKey(c.key); got != c.redacted {
			t.Errorf("IsRedactedKey(%q) = %v, want %v", c.key, got, c.redacted)
		}
		out := roundTrip(t, p.Redact(map[string]any{c.key: "hunter2-value"}))
		want := any("hunter2-value")
		if c.redacted {
			want = "[" + c.key + " redacted]"
		}
		if diff := cmp.Diff(map[string]any{c.key: want}, out); diff != "" {
			t.Errorf("Redact({%q: …}) (-want +got):\n%s", c.key, diff)
		}
	}
}

func TestRedactCustomKeys(t *testing.T) {
	p := Policy{RedactedKeys: []string{"session-id", "Workspace Name", "Ümlaut_Key"}}
	in := decode(t, `{"sessionId":"s-1","workspace_name":"demo","workspaceNameLength":4,"path":"a","ümlaut-key":"u"}`)
	got := roundTrip(t, p.Redact(in))
	want := decode(t, `{"sessionId":"[sessionId redacted]","workspace_name":"[workspace_name redacted]","workspaceNameLength":4,"path":"a","ümlaut-key":"[ümlaut-key redacted]"}`)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The default policy leaves them alone.
	if diff := cmp.Diff(in, roundTrip(t, Redact(in))); diff != "" {
		t.Errorf("default policy changed custom keys (-want +got):\n%s", diff)
	}
}

func TestRedactNestedAndAnyType(t *testing.T) {
	in := decode(t, `{"files":[{"path":"a.js","source":{"text":"secret body"}},{"path":"b.css","token":["t1","t2"]}],
		"headers":{"Authorization":"Bearer abc","Accept":"json"},"n":1.50,"ok":true,"nothing":null}`)
	got := roundTrip(t, Redact(in))
	want := decode(t, `{"files":[{"path":"a.js","source":"[source redacted]"},{"path":"b.css","token":"[token redacted]"}],
		"headers":{"Authorization":"[Authorization redacted]","Accept":"json"},"n":1.50,"ok":true,"nothing":null}`)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if s, _ := json.Marshal(Redact(in)); strings.Contains(string(s), "secret body") || strings.Contains(string(s), "Bearer") {
		t.Errorf("redacted output leaks a value: %s", s)
	}
}

func TestRedactDoesNotModifyInput(t *testing.T) {
	in := map[string]any{"token": "x", "list": []any{"a", strings.Repeat("b", 600)}}
	Redact(in)
	if in["token"] != "x" || len(in["list"].([]any)[1].(string)) != 600 {
		t.Fatalf("input was modified: %v", in)
	}
}

func TestRedactStringTruncation(t *testing.T) {
	p := Policy{MaxStringLength: 5}
	cases := []struct{ in, want string }{
		{"abcde", "abcde"},
		{"abcdef", "abcde" + TruncatedSuffix},
		{"ééééé", "ééééé"},                    // 5 code points, 10 bytes: not truncated
		{"éééééé", "ééééé" + TruncatedSuffix}, // counted in code points, cut on a boundary
		{"😀😀😀😀😀😀", "😀😀😀😀😀" + TruncatedSuffix},
		{"", ""},
	}
	for _, c := range cases {
		got := p.Redact(c.in)
		if got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
		if s := got.(string); !utf8.ValidString(s) {
			t.Errorf("Redact(%q) is not valid UTF-8", c.in)
		}
	}
	// Default bound is 512 code points.
	long := strings.Repeat("x", 513)
	if got := Redact(long).(string); got != strings.Repeat("x", 512)+TruncatedSuffix {
		t.Errorf("default truncation: got %d bytes", len(got))
	}
}

func TestRedactArrayCap(t *testing.T) {
	p := Policy{MaxArrayEntries: 3}
	got := roundTrip(t, p.Redact(decode(t, `[1,2,3,4,5]`)))
	want := decode(t, `[1,2,3,"[additional entries redacted]"]`)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	got = roundTrip(t, p.Redact(decode(t, `[1,2,3]`)))
	if diff := cmp.Diff(decode(t, `[1,2,3]`), got); diff != "" {
		t.Errorf("array at the cap changed (-want +got):\n%s", diff)
	}
	if got := roundTrip(t, Redact(make([]any, 40))); len(got.([]any)) != DefaultMaxArrayEntries+1 {
		t.Errorf("default array cap: got %d entries", len(got.([]any)))
	}
}

func TestRedactObjectCap(t *testing.T) {
	p := Policy{MaxObjectEntries: 2}
	// Keys are sorted before capping, so the kept members do not depend on map order.
	got := roundTrip(t, p.Redact(decode(t, `{"d":4,"b":2,"a":1,"c":3}`)))
	want := decode(t, `{"a":1,"b":2,"_redacted":"additional fields redacted"}`)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	got = roundTrip(t, p.Redact(decode(t, `{"b":2,"a":1}`)))
	if diff := cmp.Diff(decode(t, `{"a":1,"b":2}`), got); diff != "" {
		t.Errorf("object at the cap changed (-want +got):\n%s", diff)
	}
}

func TestRedactDepth(t *testing.T) {
	p := Policy{MaxDepth: 2}
	got := roundTrip(t, p.Redact(decode(t, `{"a":{"b":{"c":1},"l":[1],"s":"x"},"z":[[[]]]}`)))
	want := decode(t, `{"a":{"b":"[depth redacted]","l":"[depth redacted]","s":"x"},"z":["[depth redacted]"]}`)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	// Deep Go values are cut at MaxDepth without walking the rest.
	var deep any = "bottom"
	for range 100_000 {
		deep = map[string]any{"k": deep}
	}
	out := roundTrip(t, Redact(deep))
	depth := 0
	for {
		m, ok := out.(map[string]any)
		if !ok {
			break
		}
		out = m["k"]
		depth++
	}
	if depth != DefaultMaxDepth || out != DepthMarker {
		t.Errorf("deep value kept %d levels ending in %v, want %d levels then %q", depth, out, DefaultMaxDepth, DepthMarker)
	}

	// Deep raw JSON beyond what encoding/json decodes is an explicit marker, never a panic.
	raw := json.RawMessage(strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000))
	if got := Redact(raw); got != InvalidJSONMarker {
		t.Errorf("20,000-deep raw JSON = %v, want %q", got, InvalidJSONMarker)
	}
}

func TestRedactScalarsAndGoValues(t *testing.T) {
	type details struct {
		Path     string `json:"path"`
		APIKey   string `json:"apiKey"`
		Revision int    `json:"revision"`
	}
	cases := []struct {
		name string
		in   any
		want any
	}{
		{"nan", math.NaN(), NaNMarker},
		{"inf", math.Inf(1), PosInfinityMarker},
		{"-inf", math.Inf(-1), NegInfinityMarker},
		{"float", 2.5, 2.5},
		{"int", 7, json.Number("7")},
		{"uint64", uint64(math.MaxUint64), json.Number("18446744073709551615")},
		{"number", json.Number("1e400"), json.Number("1e400")},
		{"bad number", json.Number("0x10"), InvalidNumberMarker},
		{"raw", json.RawMessage(`{"password":"p","x":1}`), map[string]any{"password": "[password redacted]", "x": json.Number("1")}},
		{"bad raw", json.RawMessage(`{"a":`), InvalidJSONMarker},
		{"raw trailing", json.RawMessage(`1 2`), InvalidJSONMarker},
		{"bad utf8 raw", json.RawMessage("\"\xff\""), InvalidJSONMarker},
		{"struct", details{Path: "a", APIKey: "k", Revision: 3}, map[string]any{"path": "a", "apiKey": "[apiKey redacted]", "revision": json.Number("3")}},
		{"typed map", map[string]string{"cookie": "c"}, map[string]any{"cookie": "[cookie redacted]"}},
		{"func", func() {}, "[func redacted]"},
		{"chan", make(chan int), "[chan redacted]"},
		{"nil pointer", (*details)(nil), nil},
		{"bool", true, true},
		{"nil", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Redact(c.in)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if _, err := json.Marshal(got); err != nil {
				t.Errorf("result does not serialize: %v", err)
			}
		})
	}
}

func TestRedactOversizeMarker(t *testing.T) {
	// 64 strings of 500 bytes = about 33 KB after redaction: above the 8 KiB default.
	big := map[string]any{}
	for i := range 64 {
		big[strings.Repeat("k", 3)+string(rune('A'+i))] = strings.Repeat("v", 500)
	}
	full, _ := json.Marshal(Policy{MaxBytes: 1 << 20}.Redact(big))
	got := RedactJSON(big)
	if len(got) > DefaultMaxBytes {
		t.Fatalf("RedactJSON = %d bytes, want <= %d", len(got), DefaultMaxBytes)
	}
	want := `{"_redacted":"value exceeded 8192 bytes","bytes":` + itoa(len(full)) + `}`
	if string(got) != want {
		t.Errorf("oversize marker = %s, want %s", got, want)
	}
	if diff := cmp.Diff(decode(t, want), roundTrip(t, Redact(big))); diff != "" {
		t.Errorf("Redact and RedactJSON disagree (-want +got):\n%s", diff)
	}

	// A tiny bound is raised to MinMaxBytes; the marker still names the size and fits.
	p := Policy{MaxBytes: 1}
	got = p.RedactJSON(strings.Repeat("x", 200))
	if len(got) > MinMaxBytes || string(got) == "{}" || string(got) == "0" {
		t.Errorf("tiny bound: %s", got)
	}
	if !strings.Contains(string(got), `"_redacted"`) {
		t.Errorf("tiny bound: no explicit marker in %s", got)
	}

	// Values that fit are returned as they are.
	if got := RedactJSON(map[string]any{"a": 1}); string(got) != `{"a":1}` {
		t.Errorf("small value = %s", got)
	}
}

func TestRedactOversizeNeverBare(t *testing.T) {
	for maxBytes := 0; maxBytes <= 200; maxBytes++ {
		p := Policy{MaxBytes: maxBytes}
		for _, v := range []any{strings.Repeat("z", 300), make([]any, 30), map[string]any{"a": strings.Repeat("é", 400)}} {
			b := p.RedactJSON(v)
			limit := max(maxBytes, MinMaxBytes)
			if maxBytes == 0 {
				limit = DefaultMaxBytes
			}
			if len(b) > limit {
				t.Fatalf("MaxBytes %d: %d bytes", maxBytes, len(b))
			}
			if s := string(b); s == "{}" || s == "0" || s == "null" || s == `""` {
				t.Fatalf("MaxBytes %d: bare fallback %s", maxBytes, s)
			}
		}
	}
}

func TestRetentionAt(t *testing.T) {
	at := mustTime(t, "2026-11-30T01:00:00Z")
	got := DefaultPolicy().RetentionAt(at)
	want := RetentionMetadata{RetentionMs: 15 * 60 * 1000, MaxEntries: 256, ExpiresAt: mustTime(t, "2026-11-30T01:15:00Z")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b, _ := json.Marshal(got)
	if string(b) != `{"retentionMs":900000,"maxEntries":256,"expiresAt":"2026-11-30T01:15:00Z"}` {
		t.Errorf("wire form = %s", b)
	}
}

func TestDefaultPolicy(t *testing.T) {
	p := DefaultPolicy()
	if p.MaxBytes != 8192 || p.MaxDepth != 6 || p.MaxStringLength != 512 || p.MaxArrayEntries != 32 ||
		p.MaxObjectEntries != 64 || p.Retention.Minutes() != 15 || p.MaxEntries != 256 {
		t.Errorf("DefaultPolicy() = %+v", p)
	}
}
