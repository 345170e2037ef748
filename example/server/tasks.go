package main

import (
	"net/http"
	"time"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/serve"
	"github.com/elicitgen/elicitgen/runtime/tasks"
)

// withTasks returns lim with the front of the MCP Tasks extension
// mounted (serve.Options.Tasks): tasks kept in store, the page store the
// hosted pages use (in memory, or the Redis of ELICIT_REPLAY_STORE so
// that every instance serves every task), under the same budgets. The
// person of a task is the one the tool calls name (identity), so only
// they can read, answer or cancel it. now is the tasks' clock (nil: the
// wall clock); a task in Redis expires on Redis's clock.
func withTasks(lim *serve.Options, store page.Store, identity func(*http.Request) (string, bool), now func() time.Time) *serve.Options {
	opts := tasks.HTTPOptions{Tools: app.TaskPolicy, TTL: app.TaskTTL}
	if identity != nil {
		opts.Principal = func(r *http.Request) string {
			who, _ := identity(r)
			return who
		}
	}
	o := *lim
	o.Tasks = (&tasks.Server{Store: tasks.NewStore(store), Now: now}).Front(opts)
	return &o
}
