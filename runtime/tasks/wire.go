// Package tasks is the server side of the MCP Tasks extension
// (io.modelcontextprotocol/tasks, SEP-2663) without any SDK: the wire shapes,
// the task record and its state machine, the store contract with an
// in-memory store, and the three tasks/* methods.
//
// A task here is a record, not a parked goroutine: the record holds the
// tool, a digest of its arguments, the principal that created it, the input
// requests still outstanding, the answers so far, its status and its result.
// An answer that leaves nothing outstanding hands the record to
// Server.Resume, which runs the tool again from the top with the answers so
// far, on whichever instance received the answer.
package tasks

import (
	"encoding/json"
	"fmt"
	"time"
)

// Extension is the extension's identifier: the key a client declares in a
// request's client capabilities and a server lists in its own.
const Extension = "io.modelcontextprotocol/tasks"

// The methods of the extension.
const (
	MethodGet    = "tasks/get"
	MethodUpdate = "tasks/update"
	MethodCancel = "tasks/cancel"
)

// JSON-RPC error codes the extension uses.
const (
	CodeMethodNotFound    = -32601
	CodeInvalidParams     = -32602
	CodeInternal          = -32603
	CodeMissingCapability = -32021
)

// Status is where a task stands.
type Status string

// The statuses of a task. Completed, failed and cancelled are terminal.
const (
	StatusWorking       Status = "working"
	StatusInputRequired Status = "input_required"
	StatusCompleted     Status = "completed"
	StatusFailed        Status = "failed"
	StatusCancelled     Status = "cancelled"
)

// Terminal reports whether s is final: completed, failed or cancelled.
func (s Status) Terminal() bool {
	return s == StatusCompleted || s == StatusFailed || s == StatusCancelled
}

// Valid reports whether s is one of the five statuses.
func (s Status) Valid() bool {
	return s == StatusWorking || s == StatusInputRequired || s.Terminal()
}

// Error is a JSON-RPC error object, as a tasks/* call answers with and as a
// failed task carries.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message) }

// missingCapabilityData is the data of a -32021 error naming the extension.
var missingCapabilityData = json.RawMessage(`{"requiredCapabilities":{"extensions":{"` + Extension + `":{}}}}`)

// MissingCapability returns the -32021 error for a request that needs the
// extension but did not declare it, with data.requiredCapabilities naming
// the extension (the core schema requires data).
func MissingCapability(message string) *Error {
	return &Error{Code: CodeMissingCapability, Message: message, Data: missingCapabilityData}
}

// Task is the task object on the wire.
type Task struct {
	TaskID        string `json:"taskId"`
	Status        Status `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt"`
	LastUpdatedAt string `json:"lastUpdatedAt"`
	// TTLMs is the task's life in milliseconds from CreatedAt; nil (null on
	// the wire, never absent) is unlimited.
	TTLMs          *int64 `json:"ttlMs"`
	PollIntervalMs int64  `json:"pollIntervalMs,omitempty"`
}

// Detailed is a task with what its status carries: every outstanding input
// request while input_required, the tool's result once completed, the
// JSON-RPC error once failed.
type Detailed struct {
	Task
	InputRequests map[string]json.RawMessage `json:"inputRequests,omitempty"`
	Result        json.RawMessage            `json:"result,omitempty"`
	Error         *Error                     `json:"error,omitempty"`
}

// CreateResult is the result of a tools/call answered with a task
// (resultType "task").
type CreateResult struct {
	ResultType string `json:"resultType"`
	Task
}

// GetResult is the result of tasks/get (resultType "complete").
type GetResult struct {
	ResultType string `json:"resultType"`
	Detailed
}

// ackResult is the empty result of tasks/update and tasks/cancel.
var ackResult = json.RawMessage(`{"resultType":"complete"}`)

// Ack returns the empty result that acknowledges tasks/update and
// tasks/cancel: exactly {"resultType":"complete"}.
func Ack() json.RawMessage { return append(json.RawMessage(nil), ackResult...) }

// timeText is how timestamps go on the wire: RFC 3339 in UTC, to the
// millisecond.
func timeText(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// getParams are the params of tasks/get and tasks/cancel.
type getParams struct {
	TaskID *string `json:"taskId"`
}

// updateParams are the params of tasks/update.
type updateParams struct {
	TaskID         *string                    `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
}
