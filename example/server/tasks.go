package main

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/runtime/redisstore"
	"github.com/elicitgen/elicitgen/runtime/serve"
	"github.com/elicitgen/elicitgen/runtime/tasks"
)

// withTasks returns lim with the front of the MCP Tasks extension
// mounted (serve.Options.Tasks): tasks kept in memory, or in the Redis of
// spec (ELICIT_REPLAY_STORE) so that every instance serves every task.
// The person of a task is the one the tool calls name (identity), so only
// they can read, answer or cancel it. now is the tasks' clock (nil: the
// wall clock); a task in Redis expires on Redis's clock. It returns a
// func that closes the store.
func withTasks(lim *serve.Options, spec string, identity func(*http.Request) (string, bool), now func() time.Time) (*serve.Options, func(), error) {
	mem := tasks.NewMemoryStore()
	mem.Now = now
	var store tasks.Store = mem
	closeStore := func() {}
	if strings.HasPrefix(spec, "redis://") || strings.HasPrefix(spec, "rediss://") {
		opt, err := redis.ParseURL(spec)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", ReplayStoreEnv, err)
		}
		client := redis.NewClient(opt)
		store, closeStore = redisstore.NewTaskStore(client), func() { client.Close() }
	}
	opts := tasks.HTTPOptions{Tools: app.TaskPolicy}
	if identity != nil {
		opts.Principal = func(r *http.Request) string {
			who, _ := identity(r)
			return who
		}
	}
	o := *lim
	o.Tasks = (&tasks.Server{Store: store, Now: now}).Front(opts)
	return &o, closeStore, nil
}
