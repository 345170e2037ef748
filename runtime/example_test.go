package runtime_test

import (
	"context"
	"fmt"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

// A tool handler asks a generated form (testforms.Deploy stands for any
// elicitgen form) and gets a typed answer, or learns that the user said
// no. Here the asker is scripted; in a server it is the one the gosdk or
// mcpgo adapter hands the handler.
func Example_form() {
	ctx := context.Background()
	ask := elicittest.New(elicittest.Respond(testforms.AcceptDeploy(testforms.Deploy{Branch: "main", Env: testforms.EnvProd, Replicas: 3})))

	out, err := testforms.AskDeploy(ctx, ask, "Deploy which branch, where?")
	if err != nil {
		fmt.Println("could not ask:", err)
		return
	}
	if v, ok := out.Accepted(); ok {
		fmt.Printf("deploying %s to %s x%d\n", v.Branch, v.Env, v.Replicas)
	} else {
		fmt.Println("not deployed:", out.Action)
	}
	// Output: deploying main to prod x3
}

// A yes/no question needs no struct. Declining is not an error: the
// outcome says what the user did.
func ExampleAskConfirm() {
	ctx := context.Background()
	ask := elicittest.New(elicittest.Decline())

	out, err := runtime.AskConfirm(ctx, ask, "Send 214 e-mails now?")
	if err != nil {
		fmt.Println("could not ask:", err)
		return
	}
	ok, accepted := out.Accepted()
	fmt.Println(ok, accepted, out.Action == runtime.ActionDecline)
	// Output: false false true
}

// AskChoice offers options the server knows at run time; an answer
// outside them is never accepted.
func ExampleAskChoice() {
	ctx := context.Background()
	ask := elicittest.New(elicittest.Accept(map[string]any{runtime.ChoiceField: "kr-2"}))

	out, err := runtime.AskChoice(ctx, ask, "Which key result?", []runtime.Option{
		{Value: "kr-1", Title: "Grow revenue 20%"},
		{Value: "kr-2", Title: "Keep churn under 2%"},
	})
	if err != nil {
		fmt.Println("could not ask:", err)
		return
	}
	kr, _ := out.Accepted()
	fmt.Println(kr)
	// Output: kr-2
}

// An invalid answer is an error that names each field; it never reaches
// the handler as a value.
func ExampleValidationError() {
	ctx := context.Background()
	ask := elicittest.New(elicittest.Accept(map[string]any{"branch": "main", "env": "prod", "replicas": 1000}))

	_, err := testforms.AskDeploy(ctx, ask, "Deploy?")
	fmt.Println(err)
	// Output: elicit: invalid Deploy: replicas: must be at most 10
}

// EraOf tells what a client's protocol version allows.
func ExampleEraOf() {
	for _, v := range []string{"", runtime.Version20250618, runtime.Version20251125, runtime.Version20260728} {
		e := runtime.EraOf(v)
		fmt.Printf("%q: elicit=%v url=%v multi-round-trip=%v legacy-schema=%v\n", v, e.CanElicit(), e.URLMode(), e.MultiRoundTrip(), e.LegacySchema())
	}
	// Output:
	// "": elicit=true url=false multi-round-trip=false legacy-schema=true
	// "2025-06-18": elicit=true url=false multi-round-trip=false legacy-schema=true
	// "2025-11-25": elicit=true url=true multi-round-trip=false legacy-schema=false
	// "2026-07-28": elicit=true url=true multi-round-trip=true legacy-schema=false
}
