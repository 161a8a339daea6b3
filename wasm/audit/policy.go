package audit

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// Schema identifiers of the records this package emits (REFERENCE §8).
const (
	PolicySchemaVersion      = "context-action-tool-observability-policy.v1"
	ObservationSchemaVersion = "context-action-tool-observation.v1"
)

// Observability defaults (REFERENCE §4, "Observability defaults").
const (
	DefaultMaxBytes         = 8 * 1024         // bytes of the serialized (JSON) redacted value
	DefaultMaxDepth         = 6                // nested arrays/objects kept below the root
	DefaultMaxStringLength  = 512              // Unicode code points per string (SPEC §2.14)
	DefaultMaxArrayEntries  = 32               // array elements kept
	DefaultMaxObjectEntries = 64               // object members kept (after sorting keys)
	DefaultRetention        = 15 * time.Minute // how long a sink keeps an entry
	DefaultMaxEntries       = 256              // entries a sink keeps
)

// MinMaxBytes is the smallest byte bound a Policy accepts; a smaller MaxBytes is raised to it
// so that the oversize marker object (OversizeMarker) always fits.
const MinMaxBytes = 64

// Marker texts written in place of removed data. They are part of the trace/export contract
// (REFERENCE §8) and never carry any of the removed content.
const (
	TruncatedSuffix       = "… [truncated]"
	ArrayOverflowMarker   = "[additional entries redacted]"
	ObjectOverflowKey     = "_redacted"
	ObjectOverflowMarker  = "additional fields redacted"
	DepthMarker           = "[depth redacted]"
	InvalidJSONMarker     = "[invalid JSON redacted]"
	InvalidNumberMarker   = "[invalid number redacted]"
	NaNMarker             = "[non-finite number NaN]"
	PosInfinityMarker     = "[non-finite number Infinity]"
	NegInfinityMarker     = "[non-finite number -Infinity]"
	oversizeShortFallback = "value too large"
)

// Policy is the redaction/observability policy (REFERENCE §8, "Redaction"). The zero value
// is the default policy: every zero or negative field takes its Default* value.
//
// A Policy is a plain value: copy it freely; its methods never modify it and may be called
// concurrently.
type Policy struct {
	// MaxBytes bounds the UTF-8 bytes of the JSON serialization of a redacted value
	// (default 8,192; at least MinMaxBytes). A larger value becomes an oversize marker.
	MaxBytes int
	// MaxDepth is how many levels of arrays/objects are kept (default 6). A container at
	// depth MaxDepth (the root is depth 0) becomes DepthMarker.
	MaxDepth int
	// MaxStringLength bounds strings in Unicode code points (default 512); longer strings
	// keep their first MaxStringLength code points followed by TruncatedSuffix.
	MaxStringLength int
	// MaxArrayEntries bounds array elements (default 32); the rest are replaced by one
	// ArrayOverflowMarker element.
	MaxArrayEntries int
	// MaxObjectEntries bounds object members (default 64); members are sorted by key, the
	// first MaxObjectEntries kept, and "_redacted": "additional fields redacted" added.
	MaxObjectEntries int
	// Retention is how long a sink keeps an entry (default 15 min).
	Retention time.Duration
	// MaxEntries is how many entries a sink keeps (default 256).
	MaxEntries int
	// RedactedKeys are extra keys whose values are always redacted. They are matched like
	// the built-in keys: case-insensitively, ignoring '-', '_' and spaces, exactly (not as
	// substrings).
	RedactedKeys []string
}

// Smallest accepted values of a Policy's fields when set (Validate).
const (
	MinRetention = time.Second
	MinMaxDepth  = 1
)

// Validate refuses a policy whose fields are set to something unusable (issue 14 item 11):
// a negative value in any field, MaxBytes below MinMaxBytes, Retention below MinRetention, or
// MaxDepth, MaxStringLength, MaxArrayEntries, MaxObjectEntries, MaxEntries below 1 once set.
// Zero is "not set" (the Go zero value) and takes the default. The error names the field,
// the value and the bound. Callers that take a Policy from configuration call it before use;
// the methods never fail and would otherwise replace a bad value by the default.
func (p Policy) Validate() error {
	check := func(name string, v, min int64, unit string) error {
		if v < 0 || (v != 0 && v < min) {
			return fmt.Errorf("audit: Policy.%s is %d%s; it must be at least %d%s (or 0 for the default)", name, v, unit, min, unit)
		}
		return nil
	}
	for _, c := range []struct {
		name string
		v    int64
		min  int64
		unit string
	}{
		{"MaxBytes", int64(p.MaxBytes), MinMaxBytes, " bytes"},
		{"MaxDepth", int64(p.MaxDepth), MinMaxDepth, ""},
		{"MaxStringLength", int64(p.MaxStringLength), 1, ""},
		{"MaxArrayEntries", int64(p.MaxArrayEntries), 1, ""},
		{"MaxObjectEntries", int64(p.MaxObjectEntries), 1, ""},
		{"MaxEntries", int64(p.MaxEntries), 1, ""},
	} {
		if err := check(c.name, c.v, c.min, c.unit); err != nil {
			return err
		}
	}
	if p.Retention < 0 || (p.Retention != 0 && p.Retention < MinRetention) {
		return fmt.Errorf("audit: Policy.Retention is %v; it must be at least %v (or 0 for the default)", p.Retention, MinRetention)
	}
	return nil
}

// DefaultPolicy returns the policy with every default filled in.
func DefaultPolicy() Policy { return Policy{}.normalized() }

// normalized returns p with defaults applied to zero or negative fields.
func (p Policy) normalized() Policy {
	if p.MaxBytes <= 0 {
		p.MaxBytes = DefaultMaxBytes
	}
	if p.MaxBytes < MinMaxBytes {
		p.MaxBytes = MinMaxBytes
	}
	if p.MaxDepth <= 0 {
		p.MaxDepth = DefaultMaxDepth
	}
	if p.MaxStringLength <= 0 {
		p.MaxStringLength = DefaultMaxStringLength
	}
	if p.MaxArrayEntries <= 0 {
		p.MaxArrayEntries = DefaultMaxArrayEntries
	}
	if p.MaxObjectEntries <= 0 {
		p.MaxObjectEntries = DefaultMaxObjectEntries
	}
	if p.Retention <= 0 {
		p.Retention = DefaultRetention
	}
	if p.MaxEntries <= 0 {
		p.MaxEntries = DefaultMaxEntries
	}
	return p
}

// RetentionMetadata tells a sink how long to keep what the policy emitted:
// {"retentionMs", "maxEntries", "expiresAt"} (expiresAt is RFC 3339 in UTC).
type RetentionMetadata struct {
	RetentionMs int64     `json:"retentionMs"`
	MaxEntries  int       `json:"maxEntries"`
	ExpiresAt   time.Time `json:"expiresAt"`
}

// RetentionAt returns the retention metadata of an entry recorded at at.
func (p Policy) RetentionAt(at time.Time) RetentionMetadata {
	p = p.normalized()
	return RetentionMetadata{
		RetentionMs: p.Retention.Milliseconds(),
		MaxEntries:  p.MaxEntries,
		ExpiresAt:   at.Add(p.Retention).UTC(),
	}
}

// builtinExactKeys are redacted when the normalized key equals one of them (REFERENCE §8).
var builtinExactKeys = []string{
	"accesskey", "apikey", "authorization", "cookie", "password", "privatekey",
	"replace", "search", "secret", "source", "token",
}

// builtinContainedKeys are redacted when the normalized key contains one of them.
var builtinContainedKeys = []string{
	"accesskey", "apikey", "authorization", "cookie", "password", "privatekey", "secret", "token",
}

// normalizeKey lower-cases k and removes '-', '_' and ' '. buf is scratch space for ASCII
// keys, so that the common case does not allocate.
func normalizeKey(k string, buf []byte) []byte {
	out := buf[:0]
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c >= 0x80 {
			return []byte(strings.Map(func(r rune) rune {
				if r == '-' || r == '_' || r == ' ' {
					return -1
				}
				return r
			}, strings.ToLower(k)))
		}
		switch {
		case c == '-' || c == '_' || c == ' ':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		out = append(out, c)
	}
	return out
}

// IsRedactedKey reports whether the value under key k is redacted by p: k (lower-cased,
// without '-', '_' and spaces) equals a built-in key or one of p.RedactedKeys, or contains
// accesskey, apikey, authorization, cookie, password, privatekey, secret or token.
func (p Policy) IsRedactedKey(k string) bool {
	var buf [64]byte
	n := normalizeKey(k, buf[:])
	if isBuiltinRedacted(n) {
		return true
	}
	var cbuf [64]byte
	for _, c := range p.RedactedKeys {
		if bytes.Equal(n, normalizeKey(c, cbuf[:])) {
			return true
		}
	}
	return false
}

func isBuiltinRedacted(n []byte) bool {
	for _, e := range builtinExactKeys {
		if string(n) == e {
			return true
		}
	}
	for _, c := range builtinContainedKeys {
		if bytes.Contains(n, []byte(c)) {
			return true
		}
	}
	return false
}

// RedactedKeyMarker is the text that replaces the value of a redacted key: "[<key> redacted]".
func RedactedKeyMarker(key string) string { return "[" + key + " redacted]" }
