package answer_test

import (
	"context"
	"fmt"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/answer"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

// A Go MCP client answers a form with a typed function that returns the
// same Outcome[*T] the server's AskT does; the generated AcceptT turns
// the value into content (and refuses an invalid one).
func ExampleFor() {
	answers := answer.New(answer.For(testforms.DeploySchema(), testforms.AcceptDeploy,
		func(ctx context.Context, message string) (runtime.Outcome[*testforms.Deploy], error) {
			fmt.Println("asked:", message)
			return runtime.Outcome[*testforms.Deploy]{Action: runtime.ActionAccept,
				Value: &testforms.Deploy{Branch: "main", Env: testforms.EnvStaging, Replicas: 2}}, nil
		}))
	// The schema as a server sends it (gosdk.ElicitationHandler and
	// mcpgo.ElicitationHandler pass it on).
	schema, _ := testforms.DeploySchema().JSON(runtime.LatestVersion)
	resp, err := answers.Answer(context.Background(), "Deploy?", schema)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Action, resp.Content["branch"], resp.Content["replicas"])
	// Output:
	// asked: Deploy?
	// accept main 2
}

// A missing-arguments ask sends only what the model left out; AnswerMissing
// matches it, and only the asked properties are sent.
func ExampleForMissing() {
	answers := answer.New(answer.ForMissing(testforms.BookArgsSchema(), testforms.AcceptBookArgs,
		func(ctx context.Context, message string) (runtime.Outcome[*testforms.BookArgs], error) {
			return runtime.Outcome[*testforms.BookArgs]{Action: runtime.ActionAccept,
				Value: &testforms.BookArgs{Org: "acme", Date: "2026-12-24", PartySize: 4}}, nil
		}))
	resp, err := answers.Answer(context.Background(), "For how many people?",
		`{"type":"object","properties":{"party_size":{"type":"integer","minimum":1,"maximum":12}},"required":["party_size"]}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Action, resp.Content)
	// Output:
	// accept map[party_size:4]
}
