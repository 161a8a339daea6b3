package mcp

// Code is a stable, machine-readable error code carried by a failed tools/call result
// (ToolError.Code). Every wire string the studio emits is declared once in this file.
//
// Source: REFERENCE §3.1 (TOOL_*), §3.2 (WORKSPACE_*, PREVIEW_*), §3.3 (OPENROUTER_*).
type Code string

// Canonical tool-call codes emitted by the registry pipeline (REFERENCE §3.1).
const (
	CodeToolValidationFailed          Code = "TOOL_VALIDATION_FAILED"
	CodeToolInvalidOptions            Code = "TOOL_INVALID_OPTIONS"
	CodeToolNotFound                  Code = "TOOL_NOT_FOUND"
	CodeToolNotAllowed                Code = "TOOL_NOT_ALLOWED"
	CodeToolPolicyFailed              Code = "TOOL_POLICY_FAILED"
	CodeToolPolicyDenied              Code = "TOOL_POLICY_DENIED"
	CodeToolApprovalRequired          Code = "TOOL_APPROVAL_REQUIRED"
	CodeToolCancelled                 Code = "TOOL_CANCELLED"
	CodeToolTimeout                   Code = "TOOL_TIMEOUT"
	CodeToolRegistryNotReady          Code = "TOOL_REGISTRY_NOT_READY"
	CodeToolExecutionAborted          Code = "TOOL_EXECUTION_ABORTED"
	CodeToolExecutionUnknown          Code = "TOOL_EXECUTION_UNKNOWN"
	CodeToolExecutionFailed           Code = "TOOL_EXECUTION_FAILED"
	CodeToolOutputValidationFailed    Code = "TOOL_OUTPUT_VALIDATION_FAILED"
	CodeToolOutputLimitExceeded       Code = "TOOL_OUTPUT_LIMIT_EXCEEDED"
	CodeToolResultValidationFailed    Code = "TOOL_RESULT_VALIDATION_FAILED"
	CodeToolResultSerializationFailed Code = "TOOL_RESULT_SERIALIZATION_FAILED"
	CodeToolIdempotencyConflict       Code = "TOOL_IDEMPOTENCY_CONFLICT"
	CodeToolIdempotencyPending        Code = "TOOL_IDEMPOTENCY_PENDING"
	CodeToolIdempotencyUnknown        Code = "TOOL_IDEMPOTENCY_UNKNOWN"
	CodeToolIdempotencyStoreFailed    Code = "TOOL_IDEMPOTENCY_STORE_FAILED"
	// CodeToolIdempotencyNotApplied (issue 14, not in the original): the key's durable record is
	// completed, but the effect it recorded is not in this workspace instance (it ran in another
	// one and was not saved where this one reads). Not retryable with the same key: reconcile
	// (open the workspace it ran in, or apply the change here under a new key).
	CodeToolIdempotencyNotApplied Code = "TOOL_IDEMPOTENCY_NOT_APPLIED"
)

// Workspace and preview codes (REFERENCE §3.2).
const (
	CodeWorkspaceRevisionConflict        Code = "WORKSPACE_REVISION_CONFLICT"
	CodeWorkspaceSourceLimit             Code = "WORKSPACE_SOURCE_LIMIT"
	CodeWorkspacePathInvalid             Code = "WORKSPACE_PATH_INVALID"
	CodeWorkspaceFileNotFound            Code = "WORKSPACE_FILE_NOT_FOUND"
	CodeWorkspaceFileConflict            Code = "WORKSPACE_FILE_CONFLICT"
	CodeWorkspaceFileTypeConflict        Code = "WORKSPACE_FILE_TYPE_CONFLICT"
	CodeWorkspacePatchNotFound           Code = "WORKSPACE_PATCH_NOT_FOUND"
	CodeWorkspaceNoSupportedFiles        Code = "WORKSPACE_NO_SUPPORTED_FILES"
	CodeWorkspaceEmpty                   Code = "WORKSPACE_EMPTY"
	CodeWorkspaceActiveFileNotFound      Code = "WORKSPACE_ACTIVE_FILE_NOT_FOUND"
	CodeWorkspacePreviewEntryRequired    Code = "WORKSPACE_PREVIEW_ENTRY_REQUIRED"
	CodeWorkspaceFolderStateConflict     Code = "WORKSPACE_FOLDER_STATE_CONFLICT"
	CodeWorkspaceHistoryEmpty            Code = "WORKSPACE_HISTORY_EMPTY"
	CodeWorkspaceFolderNotConnected      Code = "WORKSPACE_FOLDER_NOT_CONNECTED"
	CodeWorkspaceFolderPermissionDenied  Code = "WORKSPACE_FOLDER_PERMISSION_DENIED"
	CodeWorkspaceFolderStale             Code = "WORKSPACE_FOLDER_STALE"
	CodeWorkspaceSideEffectUnknown       Code = "WORKSPACE_SIDE_EFFECT_UNKNOWN"
	CodeWorkspaceDurableStateUnavailable Code = "WORKSPACE_DURABLE_STATE_UNAVAILABLE"
	CodePreviewRuntimeError              Code = "PREVIEW_RUNTIME_ERROR"
	CodePreviewAckTimeout                Code = "PREVIEW_ACK_TIMEOUT"
	CodePreviewRevisionSuperseded        Code = "PREVIEW_REVISION_SUPERSEDED"
	CodePreviewTargetNotFound            Code = "PREVIEW_TARGET_NOT_FOUND"
)

// CodePreviewNeedsBrowser (issue 17, ours): the tool needs a page that really runs — a browser
// preview — and this host compiles the preview without running it (headless: the CLI and the
// MCP server under wazero). Not retryable on this host.
const CodePreviewNeedsBrowser Code = "PREVIEW_NEEDS_BROWSER"

// CodeWorkspaceReadOnly: the workspace is open read-only (another browser tab holds the
// workspace lock, issue 14): no edit of any kind is accepted.
const CodeWorkspaceReadOnly Code = "WORKSPACE_READ_ONLY"

// OpenRouter provider codes (REFERENCE §3.3).
const (
	CodeOpenRouterConfigurationError   Code = "OPENROUTER_CONFIGURATION_ERROR"
	CodeOpenRouterAuthenticationFailed Code = "OPENROUTER_AUTHENTICATION_FAILED"
	CodeOpenRouterAccessDenied         Code = "OPENROUTER_ACCESS_DENIED"
	CodeOpenRouterRateLimited          Code = "OPENROUTER_RATE_LIMITED"
	CodeOpenRouterProviderError        Code = "OPENROUTER_PROVIDER_ERROR"
	CodeOpenRouterNetworkError         Code = "OPENROUTER_NETWORK_ERROR"
	CodeOpenRouterTimeout              Code = "OPENROUTER_TIMEOUT"
	CodeOpenRouterInvalidResponse      Code = "OPENROUTER_INVALID_RESPONSE"
	CodeOpenRouterInvalidToolCall      Code = "OPENROUTER_INVALID_TOOL_CALL"
	CodeOpenRouterNoAssistantMessage   Code = "OPENROUTER_NO_ASSISTANT_MESSAGE"
	CodeOpenRouterToolLoopLimit        Code = "OPENROUTER_TOOL_LOOP_LIMIT"
	CodeOpenRouterToolCallLimit        Code = "OPENROUTER_TOOL_CALL_LIMIT"
	// CodeOpenRouterBudgetExceeded: the usage reported so far reached the run's budget
	// (tokens or cost, openrouter.Budget); the loop stopped before its next request. Not
	// retryable (issue 16).
	CodeOpenRouterBudgetExceeded Code = "OPENROUTER_BUDGET_EXCEEDED"
)

// ToolCodes lists every TOOL_* code in REFERENCE §3.1 order. Conformance uses it to prove coverage.
var ToolCodes = []Code{
	CodeToolValidationFailed, CodeToolInvalidOptions, CodeToolNotFound, CodeToolNotAllowed,
	CodeToolPolicyFailed, CodeToolPolicyDenied, CodeToolApprovalRequired, CodeToolCancelled,
	CodeToolTimeout, CodeToolRegistryNotReady, CodeToolExecutionAborted, CodeToolExecutionUnknown,
	CodeToolExecutionFailed, CodeToolOutputValidationFailed, CodeToolOutputLimitExceeded,
	CodeToolResultValidationFailed, CodeToolResultSerializationFailed, CodeToolIdempotencyConflict,
	CodeToolIdempotencyPending, CodeToolIdempotencyUnknown, CodeToolIdempotencyStoreFailed,
}
