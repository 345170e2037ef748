package elicittest_test

import (
	"context"
	"fmt"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/answer"
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

// Respond takes what the generated client-side functions return, as it
// is: AcceptT's (answer, error) pair, DeclineT() and CancelT().
func ExampleRespond() {
	ask := elicittest.New(
		elicittest.Respond(testforms.AcceptDeploy(testforms.Deploy{Branch: "main", Env: testforms.EnvProd, Replicas: 3})),
		elicittest.Respond(testforms.DeclineDeploy()),
		elicittest.Respond(testforms.CancelDeploy()),
	)
	for range 3 {
		out, err := testforms.AskDeploy(context.Background(), ask, "Deploy?")
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(out.Action)
	}
	// Output:
	// accept
	// decline
	// cancel
}

// Client answers with an answer.Answerer, as a Go MCP client would: here
// a missing-arguments ask, which asks only what the model left out.
func ExampleClient() {
	answers := answer.New(answer.ForMissing(testforms.BookArgsSchema(), testforms.AcceptBookArgs,
		func(ctx context.Context, message string) (runtime.Outcome[*testforms.BookArgs], error) {
			return runtime.Outcome[*testforms.BookArgs]{Action: runtime.ActionAccept,
				Value: &testforms.BookArgs{Org: "acme", Date: "2026-12-31", PartySize: 4}}, nil
		}))
	ask := elicittest.New(elicittest.Client(answers))
	in := testforms.BookArgs{Org: "acme", Date: "2026-12-24"}
	if _, err := testforms.AskMissingBookArgs(context.Background(), ask, &in, "For how many people?"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(in.Date, in.PartySize, ask.Requests()[0].Schema.Properties[0].Name)
	// Output:
	// 2026-12-24 4 party_size
}
