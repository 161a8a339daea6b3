package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/mcp"
)

// Provenance record identifiers (REFERENCE §8, "Provenance").
const (
	ProvenanceSchemaVersion = "context-action-tool-execution-provenance.v1"
	ProvenancePhase         = "tool-call"
)

// MaxOwnerIDChars bounds Provenance.OwnerID in Unicode code points (REFERENCE §4, "Provenance").
const MaxOwnerIDChars = 256

// MaxSafeInteger is the largest integer a provenance number may hold (2^53-1, JavaScript's
// Number.MAX_SAFE_INTEGER), so that every reader decodes it exactly.
const MaxSafeInteger = 1<<53 - 1

// ProvenanceState is the execution state recorded in a provenance record.
type ProvenanceState string

// Provenance states. StatePending is the state of a started event; the others end a call
// (see StateForResult).
const (
	StatePending   ProvenanceState = "pending"
	StateCompleted ProvenanceState = "completed"
	StateFailed    ProvenanceState = "failed"
	StateCancelled ProvenanceState = "cancelled"
	StateUnknown   ProvenanceState = "unknown"
)

// Provenance is the record attached to every tool-call lifecycle event (REFERENCE §8):
//
//	{"schemaVersion": "context-action-tool-execution-provenance.v1", "phase": "tool-call",
//	 "ownerId": "studio:4f…", "state": "completed", "timeoutMs": 2500, "maxOutputBytes": 65536,
//	 "usedOutputBytes": 212, "elapsedMs": 3}
//
// Units: TimeoutMs and ElapsedMs are milliseconds; MaxOutputBytes and UsedOutputBytes are
// UTF-8 bytes (UsedOutputBytes counts the JSON result). TimeoutMs and MaxOutputBytes are
// present only when the call set them. Every number is an integer in 0..MaxSafeInteger.
type Provenance struct {
	SchemaVersion   string          `json:"schemaVersion"`
	Phase           string          `json:"phase"`
	OwnerID         string          `json:"ownerId"`
	State           ProvenanceState `json:"state"`
	TimeoutMs       *int64          `json:"timeoutMs,omitempty"`
	MaxOutputBytes  *int64          `json:"maxOutputBytes,omitempty"`
	UsedOutputBytes int64           `json:"usedOutputBytes"`
	ElapsedMs       int64           `json:"elapsedMs"`
}

// NewProvenance returns a pending record for ownerID with the schema version and phase set.
// It does not validate ownerID; Validate does.
func NewProvenance(ownerID string) Provenance {
	return Provenance{SchemaVersion: ProvenanceSchemaVersion, Phase: ProvenancePhase, OwnerID: ownerID, State: StatePending}
}

// ErrInvalidProvenance is wrapped by every error of ParseProvenance and Provenance.Validate.
var ErrInvalidProvenance = errors.New("audit: invalid provenance record")

func provErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidProvenance}, args...)...)
}

var provenanceKeys = []string{"schemaVersion", "phase", "ownerId", "state", "timeoutMs", "maxOutputBytes", "usedOutputBytes", "elapsedMs"}

// ParseProvenance decodes a provenance record from untrusted bytes and refuses anything that
// is not canonical.
//
// # Errors
//
// Every error wraps ErrInvalidProvenance (and mcp's JSON errors where they apply):
//   - malformed JSON, invalid UTF-8, nesting beyond mcp.MaxJSONDepth, a repeated key;
//   - not an object; an unknown key (keys are case-sensitive: "OwnerId" is unknown);
//   - a missing required key (all but timeoutMs and maxOutputBytes), or an explicit null;
//   - schemaVersion other than ProvenanceSchemaVersion, phase other than "tool-call";
//   - an ownerId that is not a canonical owner id (ValidOwnerID);
//   - a state outside pending|completed|failed|cancelled|unknown;
//   - a number that is negative, fractional, or above MaxSafeInteger.
func ParseProvenance(data []byte) (Provenance, error) {
	var p Provenance
	members, err := mcp.DecodeObject(data, provenanceKeys, nil)
	if err != nil {
		return p, fmt.Errorf("%w: %w", ErrInvalidProvenance, err)
	}
	for _, k := range []string{"schemaVersion", "phase", "ownerId", "state", "usedOutputBytes", "elapsedMs"} {
		if _, ok := members[k]; !ok {
			return p, provErr("missing %q", k)
		}
	}
	str := func(k string) (string, error) {
		raw := members[k]
		var s string
		if len(raw) == 0 || raw[0] != '"' {
			return "", provErr("%q must be a string", k)
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", provErr("%q must be a string", k)
		}
		return s, nil
	}
	if p.SchemaVersion, err = str("schemaVersion"); err != nil {
		return p, err
	}
	if p.Phase, err = str("phase"); err != nil {
		return p, err
	}
	if p.OwnerID, err = str("ownerId"); err != nil {
		return p, err
	}
	var state string
	if state, err = str("state"); err != nil {
		return p, err
	}
	p.State = ProvenanceState(state)
	if p.UsedOutputBytes, err = safeInt(members["usedOutputBytes"], "usedOutputBytes"); err != nil {
		return p, err
	}
	if p.ElapsedMs, err = safeInt(members["elapsedMs"], "elapsedMs"); err != nil {
		return p, err
	}
	if raw, ok := members["timeoutMs"]; ok {
		n, err := safeInt(raw, "timeoutMs")
		if err != nil {
			return p, err
		}
		p.TimeoutMs = &n
	}
	if raw, ok := members["maxOutputBytes"]; ok {
		n, err := safeInt(raw, "maxOutputBytes")
		if err != nil {
			return p, err
		}
		p.MaxOutputBytes = &n
	}
	return p, p.Validate()
}

// safeInt decodes a JSON number whose value is an integer in 0..MaxSafeInteger. Any JSON
// spelling of such a value is accepted (3, 3.0, 3e0), as JavaScript's Number.isSafeInteger
// would; "-0" is refused as negative.
func safeInt(raw json.RawMessage, key string) (int64, error) {
	s := string(raw)
	if !validNumber(s) {
		return 0, provErr("%q must be a number", key)
	}
	if strings.HasPrefix(s, "-") {
		return 0, provErr("%q must not be negative", key)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) {
		return 0, provErr("%q must be an integer", key)
	}
	if f > MaxSafeInteger {
		return 0, provErr("%q exceeds %d", key, int64(MaxSafeInteger))
	}
	return int64(f), nil
}

// Validate reports whether p is a canonical record (the same rules as ParseProvenance, for a
// record built in Go). The returned error wraps ErrInvalidProvenance.
func (p Provenance) Validate() error {
	if p.SchemaVersion != ProvenanceSchemaVersion {
		return provErr("schemaVersion must be %q", ProvenanceSchemaVersion)
	}
	if p.Phase != ProvenancePhase {
		return provErr("phase must be %q", ProvenancePhase)
	}
	if err := ValidOwnerID(p.OwnerID); err != nil {
		return err
	}
	switch p.State {
	case StatePending, StateCompleted, StateFailed, StateCancelled, StateUnknown:
	default:
		return provErr("state %q is not pending|completed|failed|cancelled|unknown", p.State)
	}
	for _, n := range []struct {
		key string
		v   *int64
	}{{"timeoutMs", p.TimeoutMs}, {"maxOutputBytes", p.MaxOutputBytes}, {"usedOutputBytes", &p.UsedOutputBytes}, {"elapsedMs", &p.ElapsedMs}} {
		if n.v != nil && (*n.v < 0 || *n.v > MaxSafeInteger) {
			return provErr("%q must be an integer in 0..%d", n.key, int64(MaxSafeInteger))
		}
	}
	return nil
}

// ValidOwnerID reports whether id is a canonical owner id: 1..MaxOwnerIDChars code points,
// valid UTF-8, no NUL, and no leading or trailing white space (Unicode White_Space or U+FEFF,
// what JavaScript's trim removes). The error wraps ErrInvalidProvenance.
func ValidOwnerID(id string) error {
	switch {
	case id == "":
		return provErr("ownerId is empty")
	case !utf8.ValidString(id):
		return provErr("ownerId is not valid UTF-8")
	case utf8.RuneCountInString(id) > MaxOwnerIDChars:
		return provErr("ownerId is longer than %d characters", MaxOwnerIDChars)
	case strings.ContainsRune(id, 0):
		return provErr("ownerId contains NUL")
	case strings.TrimFunc(id, isTrimSpace) != id:
		return provErr("ownerId has leading or trailing white space")
	}
	return nil
}

func isTrimSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// StateForResult is the provenance state that ends a call with result r (REFERENCE §3.1):
// success → completed; TOOL_TIMEOUT, TOOL_EXECUTION_ABORTED, TOOL_EXECUTION_UNKNOWN →
// unknown; TOOL_CANCELLED → cancelled; any other error → failed. A nil result is unknown.
func StateForResult(r *mcp.CallToolResult) ProvenanceState {
	if r == nil {
		return StateUnknown
	}
	if !r.IsError {
		return StateCompleted
	}
	if r.Error == nil {
		return StateFailed
	}
	switch r.Error.Code {
	case mcp.CodeToolTimeout, mcp.CodeToolExecutionAborted, mcp.CodeToolExecutionUnknown:
		return StateUnknown
	case mcp.CodeToolCancelled:
		return StateCancelled
	}
	return StateFailed
}
