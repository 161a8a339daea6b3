package provider

import (
	"errors"
	"fmt"
	"strings"
)

// MaxNameChars is the longest provider-legal function name (OpenAI, Anthropic, OpenRouter).
const MaxNameChars = 64

// Errors returned by ProviderName and NewNameMap, wrapped in a *NameError.
var (
	// ErrNameNotRepresentable: the canonical name has a character other than ASCII letters,
	// digits, '_', '-' and '.', or is empty, or maps to more than MaxNameChars characters.
	ErrNameNotRepresentable = errors.New("provider: tool name cannot be mapped to a provider-legal name")
	// ErrNameCollision: two canonical names map to the same provider name (a.b and a_b).
	ErrNameCollision = errors.New("provider: tool names collide after provider name mapping")
	// ErrDuplicateName: the same canonical name was given twice.
	ErrDuplicateName = errors.New("provider: duplicate tool name")
)

// NameError names the tool (and, for a collision, the other tool) behind a mapping error.
type NameError struct {
	Err      error
	Name     string // canonical name
	Provider string // its provider name, when it has one
	Other    string // the canonical name it collides with
}

func (e *NameError) Error() string {
	switch {
	case e.Other != "":
		return fmt.Sprintf("%v: %q and %q both map to %q", e.Err, e.Other, e.Name, e.Provider)
	default:
		return fmt.Sprintf("%v: %q", e.Err, e.Name)
	}
}

func (e *NameError) Unwrap() error { return e.Err }

// ValidName reports whether s is a provider-legal function name: ^[A-Za-z0-9_-]{1,64}$.
func ValidName(s string) bool {
	if len(s) == 0 || len(s) > MaxNameChars {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !legal(s[i]) {
			return false
		}
	}
	return true
}

func legal(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// ProviderName maps one canonical name to its provider name by replacing every '.' with '_'.
// It does not detect collisions; NewNameMap does.
//
// # Errors
//   - ErrNameNotRepresentable (in a *NameError): the result would not be ValidName.
func ProviderName(canonical string) (string, error) {
	p := strings.ReplaceAll(canonical, ".", "_")
	if !ValidName(p) {
		return "", &NameError{Err: ErrNameNotRepresentable, Name: canonical}
	}
	return p, nil
}

// NameMap is the reversible mapping between canonical tool names and provider names, built
// once from the registered names. It is immutable and safe for concurrent use.
type NameMap struct {
	canonical  []string          // registration order
	toProvider map[string]string // canonical → provider
	toCanon    map[string]string // provider → canonical
}

// NewNameMap builds the mapping of the given canonical names, in order.
//
// # Errors
//
// Every error is a *NameError wrapping one of:
//   - ErrNameNotRepresentable: a name cannot be mapped (ProviderName);
//   - ErrDuplicateName: a name appears twice;
//   - ErrNameCollision: two names map to the same provider name, e.g. "a.b" and "a_b".
//
// The registry calls it at registration and refuses the tool on error (SPEC §2.1).
func NewNameMap(canonical []string) (*NameMap, error) {
	m := &NameMap{
		canonical:  make([]string, 0, len(canonical)),
		toProvider: make(map[string]string, len(canonical)),
		toCanon:    make(map[string]string, len(canonical)),
	}
	for _, c := range canonical {
		p, err := ProviderName(c)
		if err != nil {
			return nil, err
		}
		if _, dup := m.toProvider[c]; dup {
			return nil, &NameError{Err: ErrDuplicateName, Name: c, Provider: p}
		}
		if other, clash := m.toCanon[p]; clash {
			return nil, &NameError{Err: ErrNameCollision, Name: c, Provider: p, Other: other}
		}
		m.canonical = append(m.canonical, c)
		m.toProvider[c] = p
		m.toCanon[p] = c
	}
	return m, nil
}

// ToProvider returns the provider name of a registered canonical name.
func (m *NameMap) ToProvider(canonical string) (string, bool) {
	if m == nil {
		return "", false
	}
	p, ok := m.toProvider[canonical]
	return p, ok
}

// ToCanonical maps the name in a provider's tool call back to the registered canonical name.
// It reports false for any name that is not the provider name of a registered tool,
// including a canonical dotted name sent by a provider (those are never provider names).
func (m *NameMap) ToCanonical(provider string) (string, bool) {
	if m == nil {
		return "", false
	}
	c, ok := m.toCanon[provider]
	return c, ok
}

// Len returns the number of mapped names.
func (m *NameMap) Len() int {
	if m == nil {
		return 0
	}
	return len(m.canonical)
}

// Canonical returns the canonical names in registration order (a copy).
func (m *NameMap) Canonical() []string {
	if m == nil {
		return nil
	}
	return append([]string(nil), m.canonical...)
}
