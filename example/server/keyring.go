package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/redisstore"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// AllowKeyDropEnv names the environment variable that lets the server
// start with an ELICIT_STATE_KEYS that drops a key still sealing open
// questions (their answers will be refused): its value is the reason,
// logged at start.
const AllowKeyDropEnv = "ELICIT_ALLOW_KEY_DROP"

// longestWait is how long a question of the example's tools can stay
// open, so how long a key stays needed after it stopped sealing: the
// adapters' MaxWait, which the example leaves at its default (the
// deploy tool asks with WithWait(app.DeployWait)).
const longestWait = adapter.DefaultMaxWait

// checkKeyRing checks the key ring from ELICIT_STATE_KEYS against the
// record of the ring the deployment used before, kept in the Redis of the
// replay store (redisstore.Store.CheckKeyRing): a ring that drops a key
// under which questions still open were sealed is refused, unless
// ELICIT_ALLOW_KEY_DROP gives the reason. With the in-memory replay store
// there is no record: the operator keeps each key for longestWait after
// it stopped sealing (docs/deployment.md). quiet logs only refusals and
// allowed drops (a CGI invocation starts per request).
func checkKeyRing(ctx context.Context, keys *seal.KeyRing, replay seal.ReplayStore, quiet bool) error {
	st, ok := replay.(*redisstore.Store)
	if !ok {
		if !quiet {
			log.Printf("%s: no record of the previous key ring (%s is not Redis): keep a key in the ring for %s after it stops sealing, or questions still open are refused (docs/deployment.md)", KeysEnv, ReplayStoreEnv, longestWait)
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	reason := os.Getenv(AllowKeyDropEnv)
	rec, err := st.CheckKeyRing(ctx, keys, longestWait, reason != "")
	switch {
	case errors.Is(err, seal.ErrKeyStillNeeded) && reason != "":
		log.Printf("%s: %v; starting anyway (%s=%q)", KeysEnv, err, AllowKeyDropEnv, reason)
	case errors.Is(err, seal.ErrKeyStillNeeded):
		return fmt.Errorf("%s: %w; to start anyway, and refuse the answers to those questions, set %s to the reason", KeysEnv, err, AllowKeyDropEnv)
	case err != nil:
		return fmt.Errorf("%s: checking the key ring against its record: %w", KeysEnv, err)
	}
	if quiet {
		return nil
	}
	now := time.Now
	if st.Now != nil {
		now = st.Now // the test hook's clock (ELICIT_TEST_CLOCK)
	}
	for _, k := range rec.Needed(now(), longestWait) {
		if !k.Until.IsZero() {
			log.Printf("%s: key %q stopped sealing; keep it in the ring until %s", KeysEnv, k.ID, k.Until.UTC().Format(time.RFC3339))
		}
	}
	return nil
}
