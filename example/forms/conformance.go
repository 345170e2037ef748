package forms

// Fixture forms of the official MCP conformance suites. The suites compare
// property names, JSON types, defaults and enum shapes exactly; see
// example/conformance/run.sh.

// TestElicitation is the form of tool test_elicitation
// (@modelcontextprotocol/conformance 0.1.16, tools-call-elicitation).
type TestElicitation struct {
	// Username is the user's response.
	Username string `json:"username" elicit:"desc=User's response"`
	// Email is the user's email address.
	Email string `json:"email" elicit:"desc=User's email address"`
}

// SEP1034Defaults is the form of tool test_elicitation_sep1034_defaults
// (0.1.16, elicitation-sep1034-defaults): one default of every primitive
// type, nothing required.
type SEP1034Defaults struct {
	// Name is the user's name.
	Name *string `json:"name" elicit:"default='John Doe'"`
	// Age is the user's age.
	Age *int `json:"age" elicit:"default=30"`
	// Score is the user's score.
	Score *float64 `json:"score" elicit:"default=95.5"`
	// Status is the account status.
	Status *string `json:"status" elicit:"enum=active|inactive|pending,default=active"`
	// Whether the user is verified.
	Verified *bool `json:"verified" elicit:"default=true"`
}

// TitledOption is a titled single-select choice.
type TitledOption string

// Titled single-select choices.
const (
	TitledOption1 TitledOption = "value1" // First Option
	TitledOption2 TitledOption = "value2" // Second Option
	TitledOption3 TitledOption = "value3" // Third Option
)

// LegacyOption is a single-select choice written the 2025-06-18 way
// (enum + enumNames).
type LegacyOption string

// Legacy titled choices.
const (
	LegacyOption1 LegacyOption = "opt1" // Option One
	LegacyOption2 LegacyOption = "opt2" // Option Two
	LegacyOption3 LegacyOption = "opt3" // Option Three
)

// TitledChoice is a titled multi-select choice.
type TitledChoice string

// Titled multi-select choices.
const (
	TitledChoice1 TitledChoice = "value1" // First Choice
	TitledChoice2 TitledChoice = "value2" // Second Choice
	TitledChoice3 TitledChoice = "value3" // Third Choice
)

// SEP1330Enums is the form of tool test_elicitation_sep1330_enums (0.1.16,
// elicitation-sep1330-enums): all five enum shapes.
type SEP1330Enums struct {
	// UntitledSingle is an untitled single-select.
	UntitledSingle *string `json:"untitledSingle" elicit:"enum=option1|option2|option3"`
	// TitledSingle is a titled single-select.
	TitledSingle *TitledOption `json:"titledSingle"`
	// LegacyEnum is a legacy titled single-select.
	LegacyEnum *LegacyOption `json:"legacyEnum" elicit:"legacyTitles"`
	// UntitledMulti is an untitled multi-select.
	UntitledMulti []string `json:"untitledMulti,omitempty" elicit:"enum=option1|option2|option3,minItems=1,maxItems=3"`
	// TitledMulti is a titled multi-select.
	TitledMulti []TitledChoice `json:"titledMulti,omitempty" elicit:"minItems=1,maxItems=3"`
}

// UserName asks for the caller's name (0.2.0-alpha.12 input-required-result
// scenarios; inputRequests key "user_name").
//
//elicit:form
type UserName struct {
	// Name is the caller's name.
	Name string `json:"name"`
}

// Confirm asks for a yes/no confirmation (input-required-result
// request-state and tampered-state; key "confirm").
//
//elicit:form
type Confirm struct {
	// Go ahead?
	OK bool `json:"ok"`
}

// Step1 is the first round of the multi-round scenario (key "step1").
//
//elicit:form
type Step1 struct {
	// Name is the caller's name.
	Name string `json:"name"`
}

// Step2 is the second round of the multi-round scenario (key "step2").
//
//elicit:form
type Step2 struct {
	// Color is the caller's favourite colour.
	Color string `json:"color"`
}

// PromptContext asks what context a prompt should use (non-tool-request
// scenario, prompts/get; key "user_context").
//
//elicit:form
type PromptContext struct {
	// Context is the context the prompt uses.
	Context string `json:"context"`
}
