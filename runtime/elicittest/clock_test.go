package elicittest_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/elicittest"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/tasks"
)

func TestClock(t *testing.T) {
	start := time.Date(2026, 7, 28, 9, 0, 0, 0, time.UTC)
	c := elicittest.NewClock(start)
	if got := c.Now(); !got.Equal(start) {
		t.Fatalf("Now = %v, want %v", got, start)
	}
	if got := c.Advance(72 * time.Hour); !got.Equal(start.Add(72*time.Hour)) || !c.Now().Equal(got) {
		t.Fatalf("Advance(72h) = %v, Now = %v; want %v", got, c.Now(), start.Add(72*time.Hour))
	}
	c.Set(start)
	if !c.Now().Equal(start) {
		t.Fatalf("after Set, Now = %v", c.Now())
	}

	// Drive points every field at the clock, and they move with it.
	var pc page.Config
	var ps page.MemoryStore
	var ts tasks.Server
	c.Drive(&pc.Now, &ps.Now, nil, &ts.Now)
	c.Advance(7 * 24 * time.Hour)
	for i, now := range []func() time.Time{pc.Now, ps.Now, ts.Now} {
		if now == nil || !now().Equal(start.Add(7*24*time.Hour)) {
			t.Fatalf("field %d does not follow the clock", i)
		}
	}

	// Safe for concurrent use (run with -race).
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				c.Advance(time.Second)
				_ = c.Now()
			}
		}()
	}
	wg.Wait()
	if got := c.Now().Sub(start); got != 7*24*time.Hour+400*time.Second {
		t.Fatalf("after 400 concurrent one-second advances the clock moved %v", got)
	}
}

// clockAccessors are the only functions of the packages in clockDirs
// that read the wall clock (time.Now, time.Since, time.Until), with why:
// each component's one accessor of its Now field, and reads that are not
// a question's deadline. Any other read escapes elicittest.Clock.
var clockAccessors = map[string]string{
	"adapter/record.go:(*Exchange).now":            "the sealer's clock (Options.Now)",
	"adapter/settings.go:(*Options).clock":         "Options.Now",
	"seal/seal.go:(*Sealer).now":                   "Sealer.Now",
	"seal/replay.go:NewMemoryReplayStore":          "the default of SetClock",
	"seal/replay.go:(*MemoryReplayStore).SetClock": "SetClock(nil)",
	"page/page.go:(*Pages).now":                    "Config.Now",
	"page/store.go:(*MemoryStore).now":             "MemoryStore.Now",
	"tasks/server.go:(*Server).now":                "Server.Now",
	"redisstore/redisstore.go:(*Store).now":        "Store.Now, compared with Redis's TIME",
	"redisstore/pages.go:(*PageStore).Put":         "a Redis key TTL, counted on Redis's clock",
	"redisstore/pages.go:(*PageStore).now":         "PageStore.Now",
	"gosdk/sessions.go:newSessionTable":            "a transport session's lifetime, not a question's",
	"mcpgo/sessions.go:withSessionBudgets":         "a transport session's lifetime, not a question's",
	"./observe_log.go:(*logObserver).Observe":      "the time of an event reported without one",
}

// clockDirs are the packages (relative to runtime/) whose components keep
// deadlines: the exchange, the adapters, sealed state and replay, pages,
// tasks, their Redis stores, and the runtime itself.
var clockDirs = []string{".", "adapter", "gosdk", "mcpgo", "deliver", "seal", "page", "tasks", "redisstore", "receipt"}

// TestNoDirectClock fails when a non-test source file of clockDirs reads
// time.Now, time.Since or time.Until outside clockAccessors: a component
// that keeps a deadline must read its Now field, so that one
// elicittest.Clock drives them all.
func TestNoDirectClock(t *testing.T) {
	var found []string
	fset := token.NewFileSet()
	for _, dir := range clockDirs {
		files, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files in runtime/%s (%v)", dir, err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(fset, path, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			timeName := ""
			for _, im := range f.Imports {
				if p, _ := strconv.Unquote(im.Path.Value); p == "time" {
					timeName = "time"
					if im.Name != nil {
						timeName = im.Name.Name
					}
				}
			}
			if timeName == "" {
				continue
			}
			for _, decl := range f.Decls {
				where := dir + "/" + filepath.Base(path) + ":" + declName(decl)
				ast.Inspect(decl, func(n ast.Node) bool {
					sel, ok := n.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == timeName {
						switch sel.Sel.Name {
						case "Now", "Since", "Until":
							if _, ok := clockAccessors[where]; !ok {
								found = append(found, fset.Position(sel.Pos()).String()+" time."+sel.Sel.Name+" in "+where)
							}
						}
					}
					return true
				})
			}
		}
	}
	if len(found) > 0 {
		sort.Strings(found)
		t.Errorf("the wall clock is read outside a component's clock accessor (read the Now field, or list the accessor in clockAccessors):\n%s", strings.Join(found, "\n"))
	}
}

// declName names a declaration as clockAccessors does: "F", "(*T).M",
// "(T).M", or "var" for a package-level declaration.
func declName(d ast.Decl) string {
	fd, ok := d.(*ast.FuncDecl)
	if !ok {
		return "var"
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	star := ""
	if s, ok := typ.(*ast.StarExpr); ok {
		star, typ = "*", s.X
	}
	if ix, ok := typ.(*ast.IndexExpr); ok { // generic receiver
		typ = ix.X
	}
	if ix, ok := typ.(*ast.IndexListExpr); ok {
		typ = ix.X
	}
	id, _ := typ.(*ast.Ident)
	name := "?"
	if id != nil {
		name = id.Name
	}
	return "(" + star + name + ")." + fd.Name.Name
}
