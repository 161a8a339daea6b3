package audit

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

var secretShape = regexp.MustCompile(`^[A-Za-z0-9]{6,}$`)

// FuzzRedact checks the redaction invariants on arbitrary JSON and policy bounds:
//   - the output serializes to at most MaxBytes bytes and is valid JSON;
//   - Redact and RedactJSON agree;
//   - every member under a redacted key holds exactly the "[<key> redacted]" marker;
//   - no string found under a redacted key in the input appears in the output, unless the
//     same text is also public (a key, a string outside redacted keys, a number, a marker).
func FuzzRedact(f *testing.F) {
	seeds := []string{
		`{"token":"abcdef123456","path":"index.html"}`,
		`{"files":[{"path":"a.js","source":"console.log('topsecretvalue')"}]}`,
		`{"headers":{"Authorization":"Bearer abcdefghijkl"},"n":[1,2,3,1e400,-0.5]}`,
		`{"API_KEY":{"nested":["secretvalue1",{"deep":"secretvalue2"}]},"x-Api-Key":"xyzxyzxyz"}`,
		`[[[[[[[["deep"]]]]]]]]`,
		`{"a":"` + strings.Repeat("é", 700) + `"}`,
		`{"_redacted":"spoof","password":"pw123456789"}`,
		`"plain string"`,
		`12345678901234567890`,
		`null`,
		`{"a":`,
	}
	for i, s := range seeds {
		f.Add([]byte(s), uint16(i*700), uint8(i), uint8(i*3), uint8(i*5))
	}
	f.Fuzz(func(t *testing.T, raw []byte, maxBytes uint16, depth, strLen, entries uint8) {
		p := Policy{MaxBytes: int(maxBytes), MaxDepth: int(depth % 10), MaxStringLength: int(strLen),
			MaxArrayEntries: int(entries % 40), MaxObjectEntries: int(entries % 70)}
		limit := p.normalized().MaxBytes

		out := p.RedactJSON(json.RawMessage(raw))
		if len(out) > limit {
			t.Fatalf("RedactJSON = %d bytes > %d", len(out), limit)
		}
		if s := string(out); s == "{}" || s == "0" {
			// Only an empty object or a zero may come out bare: never as a fallback.
			if v, ok := decodeJSON(raw); !ok || (s == "{}" && !isEmptyObject(v)) || (s == "0" && v != json.Number("0")) {
				t.Fatalf("bare fallback %s for %q", s, raw)
			}
		}
		decoded, ok := decodeJSON(out)
		if !ok {
			t.Fatalf("RedactJSON produced invalid JSON: %q", out)
		}
		again, _ := json.Marshal(p.Redact(json.RawMessage(raw)))
		if string(again) != string(out) {
			t.Fatalf("Redact and RedactJSON disagree:\n%s\n%s", again, out)
		}
		checkMarkers(t, p, decoded)

		in, ok := decodeJSON(raw)
		if !ok {
			return
		}
		var secrets, public []string
		public = append(public, TruncatedSuffix, ArrayOverflowMarker, ObjectOverflowKey, ObjectOverflowMarker,
			DepthMarker, InvalidJSONMarker, InvalidNumberMarker, NaNMarker, PosInfinityMarker, NegInfinityMarker,
			oversizeShortFallback, "value exceeded bytes redacted", "bytes")
		collect(p, in, false, &secrets, &public)
		var outStrings []string
		collect(Policy{RedactedKeys: nil, MaxDepth: 1 << 30}, decoded, false, nil, &outStrings)
		for _, s := range secrets {
			if !secretShape.MatchString(s) || containsAny(public, s) {
				continue
			}
			for _, o := range outStrings {
				if strings.Contains(o, s) {
					t.Fatalf("secret %q leaked into %q", s, o)
				}
			}
		}
	})
}

// checkMarkers fails unless every member under a redacted key is its marker.
func checkMarkers(t *testing.T, p Policy, v any) {
	t.Helper()
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if p.IsRedactedKey(k) {
				if want := RedactedKeyMarker(truncate(k, p.normalized().MaxStringLength)); e != want {
					t.Fatalf("member %q = %v, want %q", k, e, want)
				}
				continue
			}
			checkMarkers(t, p, e)
		}
	case []any:
		for _, e := range x {
			checkMarkers(t, p, e)
		}
	}
}

// collect gathers string leaves under redacted keys into secrets and every other string,
// key and number literal into public. With secrets nil, every key and string goes to public.
func collect(p Policy, v any, underRedacted bool, secrets, public *[]string) {
	switch x := v.(type) {
	case string:
		if underRedacted && secrets != nil {
			*secrets = append(*secrets, x)
		} else {
			*public = append(*public, x)
		}
	case json.Number:
		*public = append(*public, string(x))
	case map[string]any:
		for k, e := range x {
			*public = append(*public, k)
			collect(p, e, underRedacted || (secrets != nil && p.IsRedactedKey(k)), secrets, public)
		}
	case []any:
		for _, e := range x {
			collect(p, e, underRedacted, secrets, public)
		}
	}
}

func isEmptyObject(v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) == 0
}

func containsAny(list []string, s string) bool {
	for _, x := range list {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

// FuzzParseProvenance checks that the strict parser never panics and that whatever it
// accepts is valid and survives a Marshal/Parse round trip unchanged.
func FuzzParseProvenance(f *testing.F) {
	f.Add([]byte(validProvenance))
	f.Add([]byte(`{"schemaVersion":"context-action-tool-execution-provenance.v1","phase":"tool-call","ownerId":"o","state":"pending","usedOutputBytes":0,"elapsedMs":0}`))
	f.Add([]byte(`{"ownerId":" x "}`))
	f.Add([]byte(`{"elapsedMs":1e400,"elapsedMs":2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseProvenance(data)
		if err != nil {
			return
		}
		if verr := p.Validate(); verr != nil {
			t.Fatalf("accepted an invalid record %+v: %v", p, verr)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		q, err := ParseProvenance(b)
		if err != nil {
			t.Fatalf("round trip of %s: %v", b, err)
		}
		b2, _ := json.Marshal(q)
		if string(b) != string(b2) {
			t.Fatalf("round trip changed %s to %s", b, b2)
		}
	})
}
