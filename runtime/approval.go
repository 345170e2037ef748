package runtime

// WithAskedFirst makes this question count an answer only if the server
// itself asked it earlier in the call: on 2026-07-28 the answer must come
// with a requestState this server sealed when it put the question in
// inputRequests. A first call that arrives already carrying an answer
// (inputResponses without requestState, or with a state that did not
// ask this question) is asked instead, with input_required. Push-era
// (2025) questions are always asked by the server, so there the option
// changes nothing.
//
// This is what the adapters do for every ask by default; the option
// matters only on a server whose Config sets AcceptUnasked, to keep it
// for approvals (deploy, pay, send, delete) there. It cannot tell who
// answered once asked: a person, a client hook or a model.
func WithAskedFirst() AskOption {
	return func(c *askConfig) { c.askedFirst = true }
}
