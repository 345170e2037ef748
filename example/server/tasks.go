package main

import (
	"fmt"
	"net/http"
	"strings"

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
// they can read, answer or cancel it. It returns a func that closes the
// store.
func withTasks(lim *serve.Options, spec string, identity func(*http.Request) (string, bool)) (*serve.Options, func(), error) {
	var store tasks.Store = tasks.NewMemoryStore()
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
	o.Tasks = (&tasks.Server{Store: store}).Front(opts)
	return &o, closeStore, nil
}
