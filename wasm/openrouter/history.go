package openrouter

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/webcoding/studio/wasm/mcp"
)

// Restoring a conversation (issue 16: chats survive a reload; docs/design.md §5.20). The
// browser keeps Conversation.Messages in IndexedDB and gives them back after a reload, so a
// follow-up prompt continues the same provider history. What comes back from storage is
// checked as strictly as a provider answer: a history that the loop could not have built is
// refused whole, never half used.

// MaxHistoryMessages bounds a restored history (a run adds at most 2 + 2·MaxToolCalls
// messages; this keeps several runs).
const MaxHistoryMessages = 400

// ValidateHistory reports whether msgs is a history the loop could have built:
//   - empty, or the system message first and only there;
//   - roles system, user, assistant or tool only; user and system messages with string
//     content, no tool calls, no tool_call_id and no reasoning_details;
//   - an assistant message's tool calls have non-blank, unique ids, type "function", a
//     non-blank name and arguments that are a JSON object; its reasoning_details are objects
//     within MaxReasoningDetails and MaxReasoningBytes;
//   - each tool message answers, in order, a call of the assistant message just before it
//     (tool_call_id set, string content), and every call is answered before the next
//     user or assistant message;
//   - at most MaxHistoryMessages messages.
//
// The error names the first message that breaks a rule (index and reason).
func ValidateHistory(msgs []Message) error {
	if len(msgs) > MaxHistoryMessages {
		return fmt.Errorf("openrouter: history has %d messages, more than %d", len(msgs), MaxHistoryMessages)
	}
	var pending []string // call ids of the last assistant message not yet answered
	for i, m := range msgs {
		bad := func(format string, a ...any) error {
			return fmt.Errorf("openrouter: history message %d (%s): %s", i, m.Role, fmt.Sprintf(format, a...))
		}
		if m.Role != RoleTool && len(pending) > 0 {
			return bad("calls %s are not answered", strings.Join(pending, ", "))
		}
		if m.Role != RoleAssistant && (len(m.ToolCalls) > 0 || len(m.ReasoningDetails) > 0) {
			return bad("only assistant messages carry tool_calls or reasoning_details")
		}
		if m.Role != RoleTool && m.ToolCallID != "" {
			return bad("only tool messages carry tool_call_id")
		}
		switch m.Role {
		case RoleSystem:
			if i != 0 || m.Content == nil {
				return bad("the system message comes first, once, with text")
			}
		case RoleUser:
			if i == 0 || m.Content == nil {
				return bad("a user message follows the system message and has text")
			}
		case RoleAssistant:
			if i == 0 {
				return bad("the history starts with the system message")
			}
			seen := map[string]bool{}
			for j, tc := range m.ToolCalls {
				if strings.TrimSpace(tc.ID) == "" || seen[tc.ID] {
					return bad("tool_calls[%d] has a blank or repeated id", j)
				}
				seen[tc.ID] = true
				if tc.Type != "function" || strings.TrimSpace(tc.Function.Name) == "" {
					return bad("tool_calls[%d] is not a named function call", j)
				}
				if mcp.CheckJSON([]byte(tc.Function.Arguments)) != nil || mcp.JSONKind([]byte(tc.Function.Arguments)) != "object" {
					return bad("tool_calls[%d].function.arguments is not a JSON object", j)
				}
				pending = append(pending, tc.ID)
			}
			if len(m.ReasoningDetails) > MaxReasoningDetails || detailsSize(m.ReasoningDetails) > MaxReasoningBytes {
				return bad("reasoning_details exceed %d blocks or %d bytes", MaxReasoningDetails, MaxReasoningBytes)
			}
			for j, d := range m.ReasoningDetails {
				if mcp.CheckJSON(d) != nil || mcp.JSONKind(d) != "object" {
					return bad("reasoning_details[%d] is not a JSON object", j)
				}
			}
		case RoleTool:
			if len(pending) == 0 || m.ToolCallID != pending[0] || m.Content == nil {
				return bad("a tool message answers the next call of the assistant message before it")
			}
			pending = pending[1:]
		default:
			return bad("unknown role")
		}
	}
	if len(pending) > 0 {
		return fmt.Errorf("openrouter: history ends with unanswered calls %s", strings.Join(pending, ", "))
	}
	return nil
}

// Restore replaces the conversation with msgs after ValidateHistory accepts them; on an error
// the conversation is left unchanged. The system message is replaced by the current
// SystemPrompt (a history saved by an older studio continues under today's rules), and the
// messages are deep-copied.
func (c *Conversation) Restore(msgs []Message) error {
	if err := ValidateHistory(msgs); err != nil {
		return err
	}
	raw, err := json.Marshal(msgs)
	if err != nil {
		return fmt.Errorf("openrouter: history: %w", err)
	}
	var cp []Message
	if err := json.Unmarshal(raw, &cp); err != nil {
		return fmt.Errorf("openrouter: history: %w", err)
	}
	if len(cp) > 0 {
		cp[0].Content = text(SystemPrompt)
	}
	c.messages = cp
	return nil
}
