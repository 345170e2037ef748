package seal_test

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/elicitgen/elicitgen/runtime/seal"
)

// Every instance of a deployment reads the same ring from one secret,
// for example ELICIT_STATE_KEYS="k2:<base64>,k1:<base64>": the first key
// seals, every key opens, so a key is rotated by putting a new one first
// and dropping the old one after the state lifetime.
func ExampleParseKeyRing() {
	k2 := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("2", seal.MinKeySize)))
	k1 := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("1", seal.MinKeySize)))
	ring, err := seal.ParseKeyRing("k2:" + k2 + ",k1:" + k1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ring.CurrentID())
	// Output: k2
}

// A sealed state opens only for the call it was issued to.
func ExampleSealer() {
	s := &seal.Sealer{Keys: seal.NewRandomKeyRing()}
	call := seal.BindCall("deploy", []byte(`{"service":"billing"}`), "alice")
	state, err := s.Seal(call, &seal.State{})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = s.Open(call, state)
	fmt.Println("same call:", err)
	_, err = s.Open(seal.BindCall("deploy", []byte(`{"service":"web"}`), "alice"), state)
	fmt.Println("other arguments:", err)
	// Output:
	// same call: <nil>
	// other arguments: elicit: request state issued for another call
}
