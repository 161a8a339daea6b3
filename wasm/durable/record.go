package durable

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/webcoding/studio/wasm/mcp"
)

// Limits on record fields. Exceeding one is a *ValidationError naming the field.
const (
	// MaxKeyBytes bounds an operation key (the registry's key is the JSON array
	// [sessionId, toolName, idempotencyKey], REFERENCE §6.6; idempotencyKey ≤ 256 chars).
	MaxKeyBytes = 4096
	// MaxIDBytes bounds ownerId, fingerprint, incarnation and reconciledBy.
	MaxIDBytes = 1024
	// MaxReasonRunes bounds a stored reason, in Unicode code points (SPEC §2.14). Runner
	// truncates longer reasons; Store refuses them.
	MaxReasonRunes = 512
	// MaxRecordBytes bounds one encoded record (result included).
	MaxRecordBytes = 1 << 20
)

// State is the lifecycle state of a record: pending → completed | failed | unknown, and
// unknown → completed | failed through ResolveUnknown (REFERENCE §6.3).
type State string

// Record states. Completed and failed are terminal (replayable, prunable); unknown needs
// reconciliation before anything else may happen to the key.
const (
	StatePending   State = "pending"
	StateCompleted State = "completed"
	StateFailed    State = "failed"
	StateUnknown   State = "unknown"
)

// Terminal reports whether s is completed or failed.
func (s State) Terminal() bool { return s == StateCompleted || s == StateFailed }

func (s State) valid() bool {
	switch s {
	case StatePending, StateCompleted, StateFailed, StateUnknown:
		return true
	}
	return false
}

// Fence identifies one generation of one record: {incarnation, revision}. Claim returns it;
// Complete, Fail, MarkUnknown and ResolveUnknown must present the current one (SPEC §2.5).
//
// Shape: {"incarnation": "9f3c…", "revision": 2}.
type Fence struct {
	Incarnation string `json:"incarnation"`
	Revision    int64  `json:"revision"`
}

// Record is one durable operation (REFERENCE §6.1, fenced generation).
//
// Shape (JSON names are the wire names; optional members are omitted when empty):
//
//	{"key": "[\"default\",\"workspace.writeFile\",\"k1\"]", "fingerprint": "fnv1a64:…",
//	 "ownerId": "studio:…", "incarnation": "5d1c…32 hex", "revision": 1, "state": "pending",
//	 "result"?: <any JSON>, "reason"?: "…", "createdAt": 1764465300000,
//	 "updatedAt": 1764465300000, "leaseExpiresAt"?: 1764465330000,
//	 "reconciledBy"?: "…", "reconciledAt"?: 1764465400000}
//
// Times are integer Unix milliseconds (UTC), > 0. Revision starts at 1 and grows by one on
// every write; incarnation is a random id chosen when the key is created and kept until the
// record is deleted. Limits: key ≤ MaxKeyBytes, ids ≤ MaxIDBytes, reason ≤ MaxReasonRunes,
// the encoded record ≤ MaxRecordBytes. Strings must be valid UTF-8 without NUL.
type Record struct {
	Key            string          `json:"key"`
	Fingerprint    string          `json:"fingerprint"`
	OwnerID        string          `json:"ownerId"`
	Incarnation    string          `json:"incarnation"`
	Revision       int64           `json:"revision"`
	State          State           `json:"state"`
	Result         json.RawMessage `json:"result,omitempty"`
	Reason         string          `json:"reason,omitempty"`
	CreatedAt      int64           `json:"createdAt"`
	UpdatedAt      int64           `json:"updatedAt"`
	LeaseExpiresAt int64           `json:"leaseExpiresAt,omitempty"`
	ReconciledBy   string          `json:"reconciledBy,omitempty"`
	ReconciledAt   int64           `json:"reconciledAt,omitempty"`
}

// Fence returns the record's current fence.
func (r Record) Fence() Fence { return Fence{Incarnation: r.Incarnation, Revision: r.Revision} }

// Clone returns a deep copy (Result is copied).
func (r Record) Clone() Record {
	if r.Result != nil {
		r.Result = append(json.RawMessage(nil), r.Result...)
	}
	return r
}

// checkText validates a required or optional identifier-like string.
func checkText(field, s string, required bool, max int) error {
	if s == "" {
		if required {
			return invalid(field, "must not be empty")
		}
		return nil
	}
	if strings.TrimSpace(s) == "" {
		return invalid(field, "must not be blank")
	}
	if len(s) > max {
		return invalid(field, "is %d bytes, limit %d", len(s), max)
	}
	if !utf8.ValidString(s) {
		return invalid(field, "is not valid UTF-8")
	}
	if strings.IndexByte(s, 0) >= 0 {
		return invalid(field, "contains NUL")
	}
	return nil
}

func checkReason(s string, required bool) error {
	if s == "" {
		if required {
			return invalid("reason", "must not be empty")
		}
		return nil
	}
	if strings.TrimSpace(s) == "" {
		return invalid("reason", "must not be blank")
	}
	if !utf8.ValidString(s) {
		return invalid("reason", "is not valid UTF-8")
	}
	if n := utf8.RuneCountInString(s); n > MaxReasonRunes {
		return invalid("reason", "is %d code points, limit %d", n, MaxReasonRunes)
	}
	if strings.IndexByte(s, 0) >= 0 {
		return invalid("reason", "contains NUL")
	}
	return nil
}

func checkFence(f Fence) error {
	if err := checkText("fence.incarnation", f.Incarnation, true, MaxIDBytes); err != nil {
		return err
	}
	if f.Revision < 1 {
		return invalid("fence.revision", "must be a positive integer, got %d", f.Revision)
	}
	return nil
}

func checkResult(raw json.RawMessage) error {
	if raw == nil {
		return nil
	}
	if err := mcp.CheckJSON(raw); err != nil {
		return invalid("result", "%v", err)
	}
	return nil
}

// Validate checks every invariant of a stored record and returns a *ValidationError naming the
// first field that breaks one:
//   - key, fingerprint, ownerId, incarnation: non-blank, valid UTF-8, no NUL, within limits;
//   - revision ≥ 1; state one of the four states;
//   - createdAt, updatedAt > 0 and updatedAt ≥ createdAt; leaseExpiresAt, reconciledAt ≥ 0;
//   - failed and unknown carry a reason (≤ MaxReasonRunes); reconciledBy and reconciledAt come
//     together; result, when present, is one JSON value that passes mcp.CheckJSON.
func (r Record) Validate() error {
	err := r.validate()
	var ve *ValidationError
	if errors.As(err, &ve) && ve.Key == "" && r.Key != "" && ve.Field != "key" {
		ve.Key = r.Key
	}
	return err
}

func (r Record) validate() error {
	if err := checkText("key", r.Key, true, MaxKeyBytes); err != nil {
		return err
	}
	if err := checkText("fingerprint", r.Fingerprint, true, MaxIDBytes); err != nil {
		return err
	}
	if err := checkText("ownerId", r.OwnerID, true, MaxIDBytes); err != nil {
		return err
	}
	if err := checkText("incarnation", r.Incarnation, true, MaxIDBytes); err != nil {
		return err
	}
	if r.Revision < 1 {
		return invalid("revision", "must be a positive integer, got %d", r.Revision)
	}
	if !r.State.valid() {
		return invalid("state", "must be pending, completed, failed or unknown, got %q", string(r.State))
	}
	if r.CreatedAt <= 0 {
		return invalid("createdAt", "must be a positive Unix millisecond time, got %d", r.CreatedAt)
	}
	if r.UpdatedAt <= 0 {
		return invalid("updatedAt", "must be a positive Unix millisecond time, got %d", r.UpdatedAt)
	}
	if r.UpdatedAt < r.CreatedAt {
		return invalid("updatedAt", "is before createdAt")
	}
	if r.LeaseExpiresAt < 0 {
		return invalid("leaseExpiresAt", "must not be negative")
	}
	if err := checkReason(r.Reason, r.State == StateFailed || r.State == StateUnknown); err != nil {
		return err
	}
	if err := checkText("reconciledBy", r.ReconciledBy, false, MaxIDBytes); err != nil {
		return err
	}
	if r.ReconciledAt < 0 {
		return invalid("reconciledAt", "must not be negative")
	}
	if (r.ReconciledBy == "") != (r.ReconciledAt == 0) {
		return invalid("reconciledAt", "reconciledBy and reconciledAt must be set together")
	}
	return checkResult(r.Result)
}

// EncodeRecord validates r and returns its JSON encoding (the bytes every backend stores).
//
// # Errors
//   - *ValidationError (ErrInvalid): r breaks an invariant of Validate, or encodes to more than
//     MaxRecordBytes (field "record").
func EncodeRecord(r Record) ([]byte, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(r)
	if err != nil {
		return nil, &ValidationError{Key: r.Key, Field: "result", Reason: err.Error()}
	}
	if len(raw) > MaxRecordBytes {
		return nil, &ValidationError{Key: r.Key, Field: "record", Reason: "encodes to more than MaxRecordBytes"}
	}
	return raw, nil
}

// DecodeRecord decodes one record read back from a backend, strictly: the bytes must pass
// mcp.CheckJSON (UTF-8, syntax, depth, no repeated member), be one object whose members are
// exactly the Record members (names compared case-sensitively), with the right JSON types
// (strings, integers; null is accepted only for result), and the decoded record must pass
// Validate. Nothing is defaulted or repaired.
//
// # Errors
//   - *ValidationError (ErrInvalid) naming the offending member: an unknown member (Field is its
//     name), a wrong type, a missing required member, or a broken invariant. Field "record"
//     when the bytes are not a JSON object at all.
func DecodeRecord(raw []byte) (Record, error) {
	var r Record
	if len(raw) > MaxRecordBytes {
		return r, invalid("record", "is %d bytes, limit %d", len(raw), MaxRecordBytes)
	}
	if err := mcp.CheckJSON(raw); err != nil {
		return r, invalid("record", "%v", err)
	}
	// raw is now one valid JSON value with no repeated member: walk its top-level members.
	if mcp.JSONKind(raw) != "object" {
		return r, invalid("record", "expected a JSON object")
	}
	var (
		seen    uint16
		state   string
		walkErr error
	)
	mcp.EachMember(raw, func(key, v []byte) bool {
		name := string(key)
		var err error
		switch name {
		case "key":
			r.Key, err = stringMember(name, v, true)
		case "fingerprint":
			r.Fingerprint, err = stringMember(name, v, true)
		case "ownerId":
			r.OwnerID, err = stringMember(name, v, true)
		case "incarnation":
			r.Incarnation, err = stringMember(name, v, true)
		case "revision":
			r.Revision, err = intMember(name, v, true)
		case "state":
			state, err = stringMember(name, v, true)
		case "result":
			r.Result, err = rawMember(v)
		case "reason":
			r.Reason, err = stringMember(name, v, false)
		case "createdAt":
			r.CreatedAt, err = intMember(name, v, true)
		case "updatedAt":
			r.UpdatedAt, err = intMember(name, v, true)
		case "leaseExpiresAt":
			r.LeaseExpiresAt, err = intMember(name, v, false)
		case "reconciledBy":
			r.ReconciledBy, err = stringMember(name, v, false)
		case "reconciledAt":
			r.ReconciledAt, err = intMember(name, v, false)
		default:
			field := truncate(name, 64)
			if field == "" {
				field = `""` // an empty member name still gets a visible field name
			}
			err = invalid(field, "is not a record member")
		}
		if err != nil {
			walkErr = err
			return false
		}
		seen |= memberBit(name)
		return true
	})
	if walkErr != nil {
		return Record{}, withKey(walkErr, r.Key)
	}
	for i, name := range requiredMembers {
		if seen&(1<<i) == 0 {
			return Record{}, withKey(invalid(name, "is missing"), r.Key)
		}
	}
	r.State = State(state)
	if err := r.Validate(); err != nil {
		return Record{}, err
	}
	return r, nil
}

// requiredMembers are the members every record carries; their index is their bit in memberBit.
var requiredMembers = [...]string{"key", "fingerprint", "ownerId", "incarnation", "revision", "state", "createdAt", "updatedAt"}

func memberBit(name string) uint16 {
	for i, n := range requiredMembers {
		if n == name {
			return 1 << i
		}
	}
	return 0
}

// stringMember decodes a JSON string member; optional members may not be present-but-empty.
func stringMember(name string, v []byte, required bool) (string, error) {
	if len(v) < 2 || v[0] != '"' {
		return "", invalid(name, "must be a string")
	}
	var s string
	if bytes.IndexByte(v, '\\') < 0 {
		s = string(v[1 : len(v)-1])
	} else if err := json.Unmarshal(v, &s); err != nil {
		return "", invalid(name, "must be a string")
	}
	if s == "" && !required {
		return "", invalid(name, "must be omitted rather than empty")
	}
	return s, nil
}

// intMember decodes a JSON integer member within int64; optional members may not be
// present-but-zero.
func intMember(name string, v []byte, required bool) (int64, error) {
	if len(v) == 0 || !(v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) {
		return 0, invalid(name, "must be an integer")
	}
	if bytes.ContainsAny(v, ".eE") {
		return 0, invalid(name, "must be an integer (got %s)", truncate(string(v), 40))
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return 0, invalid(name, "must be an integer within int64 (got %s)", truncate(string(v), 40))
	}
	if n == 0 && !required {
		return 0, invalid(name, "must be omitted rather than zero")
	}
	return n, nil
}

// rawMember copies a result value, compacted.
func rawMember(v []byte) (json.RawMessage, error) {
	if !bytes.ContainsAny(v, " \t\r\n") {
		return append(json.RawMessage(nil), v...), nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, v); err != nil {
		return nil, invalid("result", "%v", err)
	}
	return buf.Bytes(), nil
}

func withKey(err error, key string) error {
	var ve *ValidationError
	if errors.As(err, &ve) && ve.Key == "" && ve.Field != "key" {
		ve.Key = key
	}
	return err
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// ensureCtx returns a non-nil context.
func ensureCtx(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// LooseFence extracts {incarnation, revision} from raw record bytes without validating anything
// else; members that are missing or of another type read as zero. Backends use it to index
// records planted by PutRaw (possibly tampered) — never to accept a record.
func LooseFence(raw []byte) Fence {
	var probe struct {
		Incarnation json.RawMessage `json:"incarnation"`
		Revision    json.RawMessage `json:"revision"`
	}
	var f Fence
	if json.Unmarshal(raw, &probe) != nil {
		return f
	}
	_ = json.Unmarshal(probe.Incarnation, &f.Incarnation)
	_ = json.Unmarshal(probe.Revision, &f.Revision)
	return f
}
