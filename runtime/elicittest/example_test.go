package elicittest_test

import (
	"context"
	"fmt"

	"github.com/elicitgen/elicitgen/runtime/elicittest"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

// A unit test of a handler scripts the user's answers with the generated
// AcceptT, DeclineT and CancelT functions, then checks what was asked.
func ExampleNew() {
	ctx := context.Background()
	ask := elicittest.New(
		elicittest.Respond(testforms.DeclineDeploy()),
		elicittest.Respond(testforms.AcceptDeploy(testforms.Deploy{Branch: "fix", Env: testforms.EnvStaging, Replicas: 1})),
	)
	for range 2 {
		out, err := testforms.AskDeploy(ctx, ask, "Deploy?")
		if err != nil {
			fmt.Println(err)
			return
		}
		if v, ok := out.Accepted(); ok {
			fmt.Printf("%s %q\n", out.Action, v.Branch)
			continue
		}
		fmt.Println(out.Action)
	}
	fmt.Println(len(ask.Requests()), "questions;", ask.Requests()[0].Schema.Name)
	// Output:
	// decline
	// accept "fix"
	// 2 questions; Deploy
}
