package gen

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// The raw-input cache keys a run's Result by what the typed load and the
// analysis read, as the go command keys a build action by its inputs, so
// that an unchanged package costs one go list and a file read: no
// parsing, type-checking or analysis. The key (rawKey) digests
//
//   - the generator: CacheSalt, and the Config fields that select the
//     work (Dir, Patterns, Types, Tags); GODEBUG, which go/types reads;
//   - each root package as go list reports it with the load's own flags
//     (so GOOS, GOARCH, build tags, GOFLAGS and the go version have
//     already chosen its files): ID, name, path, directory, module path
//     and go version (the type checker's language version), the types
//     sizes (GOARCH and compiler), the go list errors, the Go files, and
//     for each compiled file its path, contents and whether Load stubs
//     it out (an old elicit_gen.go); the names and contents of the
//     translation catalogs (elicit.<tag>.json) in its directory;
//   - the import graph below the roots: each package's ID, path, name,
//     imports and export data file. The type checker reads the direct
//     imports' export data and nothing else of them; export data files
//     live in the go build cache under the SHA-256 of their contents, so
//     the path names the bytes. A dependency with errors, without such
//     an export file, or importing a root (go/packages would then
//     type-check it from source) makes the run uncacheable.
//
// Whether a package compiles an elicit_gen.go of ours (and so which
// generated files are orphans) is not in the key: a hit recomputes it
// from the files on disk, as a full run does.
//
// The lookup computes the key from go list and the files on disk before
// the typed load. A miss stores its Result under the key of what the
// typed load itself read (the bytes its ParseFile hook saw, the export
// files its go list named, the catalogs LoadLocales read), never of an
// earlier listing: a file edited during the run cannot file the output
// of one version under the key of another.

const rawMagic = "elicitgen-raw-v1\n"

// rawMode lists packages with the go list command LoadMode runs (the same
// -compiled, -export and -deps flags, and the sizes query), without
// parsing or type-checking anything.
const rawMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedExportFile | packages.NeedModule |
	packages.NeedTypesSizes

// goRead is a Go file as read: the digest of its contents, and whether
// Load reads it as a stub.
type goRead struct {
	sum     [sha256.Size]byte
	stubbed bool
}

// localeRead is one translation catalog entry of a directory: a file
// (with the digest of its contents) or a directory of that name.
type localeRead struct {
	name string
	dir  bool
	sum  [sha256.Size]byte
}

// rawReads says what the files the key covers hold.
type rawReads interface {
	goFile(path string) (goRead, bool)
	locales(dir string) ([]localeRead, bool)
}

// diskReads reads the files now: the lookup's view.
type diskReads struct{ stub map[string]bool }

func (r diskReads) goFile(path string) (goRead, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return goRead{}, false
	}
	return goRead{sha256.Sum256(b), r.stub[path]}, true
}

func (diskReads) locales(dir string) ([]localeRead, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, false
	}
	var reads []localeRead
	for _, e := range entries {
		if _, ok := localeTag(e.Name()); !ok {
			continue
		}
		r := localeRead{name: e.Name(), dir: e.IsDir()}
		if !r.dir {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				return nil, false
			}
			r.sum = sha256.Sum256(b)
		}
		reads = append(reads, r)
	}
	return reads, true
}

// readLog records what a typed load (load) and LoadLocales read: the
// store's view. Its methods do nothing on a nil log.
type readLog struct {
	mu       sync.Mutex
	goFiles  map[string]goRead
	dirs     map[string][]localeRead
	conflict bool // a file or directory read twice
}

func newReadLog() *readLog {
	return &readLog{goFiles: map[string]goRead{}, dirs: map[string][]localeRead{}}
}

func (l *readLog) goFileRead(path string, src []byte, stubbed bool) {
	r := goRead{sha256.Sum256(src), stubbed}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.goFiles[path]; ok {
		l.conflict = true
	}
	l.goFiles[path] = r
}

func (l *readLog) localesListed(dir string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.dirs[dir]; ok {
		l.conflict = true
	}
	l.dirs[dir] = []localeRead{}
}

func (l *readLog) localeRead(dir, name string, isDir bool, data []byte) {
	if l == nil {
		return
	}
	r := localeRead{name: name, dir: isDir}
	if !isDir {
		r.sum = sha256.Sum256(data)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.dirs[dir] = append(l.dirs[dir], r)
}

func (l *readLog) goFile(path string) (goRead, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.goFiles[path]
	return r, ok && !l.conflict
}

func (l *readLog) locales(dir string) ([]localeRead, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.dirs[dir]
	return r, ok && !l.conflict
}

// rawKey digests the raw inputs of a run of cfg over the root packages
// roots, reading files through reads; false means the inputs cannot be
// vouched for (the run is not cached).
func rawKey(cfg *Config, roots []*packages.Package, reads rawReads) (string, bool) {
	_, patterns := packagesConfig(context.Background(), *cfg)
	d := newDigest()
	d.str(rawMagic)
	d.str(cfg.CacheSalt)
	d.str(absDir(cfg.Dir))
	d.strs(patterns)
	d.strs(cfg.Types)
	d.strs(cfg.Tags)
	d.str(os.Getenv("GODEBUG")) // go/types reads it (gotypesalias, ...)
	isRoot := map[string]bool{}
	for _, p := range roots {
		isRoot[p.ID] = true
	}
	d.num(uint64(len(roots)))
	for _, p := range roots {
		if !d.rawRoot(p, reads) {
			return "", false
		}
	}
	deps := map[string]*packages.Package{}
	var walk func(p *packages.Package)
	walk = func(p *packages.Package) {
		for _, imp := range p.Imports {
			if !isRoot[imp.ID] && deps[imp.ID] == nil {
				deps[imp.ID] = imp
				walk(imp)
			}
		}
	}
	for _, p := range roots {
		walk(p)
	}
	ids := make([]string, 0, len(deps))
	for id := range deps {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	d.num(uint64(len(ids)))
	for _, id := range ids {
		p := deps[id]
		if len(p.Errors) > 0 || p.PkgPath == "" || (p.PkgPath != "unsafe" && !contentAddressed(p.ExportFile)) {
			return "", false
		}
		for _, imp := range p.Imports {
			if isRoot[imp.ID] {
				return "", false // go/packages would type-check p from source
			}
		}
		d.str(p.ID)
		d.str(p.PkgPath)
		d.str(p.Name)
		d.str(p.ExportFile)
		d.imports(p)
	}
	return hex.EncodeToString([]byte(d.sum())), true
}

// rawRoot digests a root package: see rawKey.
func (d *digest) rawRoot(p *packages.Package, reads rawReads) bool {
	if p.Module == nil || p.Module.GoVersion == "" {
		return false // the type checker's language version would come from elsewhere
	}
	for _, s := range []string{p.ID, p.Name, p.PkgPath, p.Dir, p.ExportFile, p.Module.Path, p.Module.GoVersion} {
		d.str(s)
	}
	d.str(fmt.Sprintf("%T%+v", p.TypesSizes, p.TypesSizes))
	d.strs(p.GoFiles)
	d.num(uint64(len(p.CompiledGoFiles)))
	for _, f := range p.CompiledGoFiles {
		r, ok := reads.goFile(f)
		if !ok {
			return false
		}
		d.str(f)
		d.boolean(r.stubbed)
		d.str(string(r.sum[:]))
	}
	var errs []string
	for _, e := range p.Errors {
		if e.Kind == packages.ListError { // the others come from parsing and type-checking
			errs = append(errs, e.Pos, e.Msg)
		}
	}
	d.strs(errs)
	if len(p.GoFiles) > 0 {
		locales, ok := reads.locales(filepath.Dir(p.GoFiles[0]))
		if !ok {
			return false
		}
		d.num(uint64(len(locales)))
		for _, l := range locales {
			d.str(l.name)
			d.boolean(l.dir)
			d.str(string(l.sum[:]))
		}
	}
	d.imports(p)
	return true
}

func (d *digest) imports(p *packages.Package) {
	paths := make([]string, 0, len(p.Imports))
	for path := range p.Imports {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	d.num(uint64(len(paths)))
	for _, path := range paths {
		d.str(path)
		d.str(p.Imports[path].ID)
	}
}

// contentAddressed reports whether path is an output file of the go build
// cache, named by the SHA-256 of its contents: DIR/xx/xx...-d.
func contentAddressed(path string) bool {
	sum, ok := strings.CutSuffix(filepath.Base(path), "-d")
	if !ok || len(sum) != 2*sha256.Size || !filepath.IsAbs(path) || filepath.Base(filepath.Dir(path)) != sum[:2] {
		return false
	}
	_, err := hex.DecodeString(sum)
	return err == nil && strings.ToLower(sum) == sum
}

// lookupRaw returns the Result stored under the raw inputs of cfg, or nil
// on a miss (no entry, a corrupt one, inputs rawKey cannot vouch for, or
// anything the full run will report).
func lookupRaw(ctx context.Context, cfg *Config) *Result {
	if checkGOFLAGS(cfg.Env) != nil {
		return nil
	}
	pcfg, patterns := packagesConfig(ctx, *cfg)
	pcfg.Mode = rawMode
	own, err := ownOutput(pcfg.Dir, patterns, cfg.Tags)
	if err != nil {
		return nil
	}
	roots, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return nil
	}
	key, ok := rawKey(cfg, roots, diskReads{own.stub})
	if !ok {
		return nil
	}
	sections, ok := readCache(cfg.CacheDir, key)
	if !ok || len(sections) == 0 {
		return nil
	}
	pkgs, err := decodeModels(sections[0])
	if err != nil {
		return nil
	}
	compiled := map[string][]string{}
	for _, p := range roots {
		if len(p.GoFiles) > 0 {
			compiled[filepath.Dir(p.GoFiles[0])] = p.CompiledGoFiles
		}
	}
	for _, pkg := range pkgs {
		pkg.HasGenerated = own.builds[pkg.Dir] || compilesOwnOutput(compiled[pkg.Dir])
	}
	files := sections[1:]
	res, err := assemble(cfg, pkgs, func(*Package) (goSrc, schema []byte, err error) {
		if len(files) < 2 {
			return nil, nil, errModelCodec
		}
		goSrc, schema, files = files[0], files[1], files[2:]
		return goSrc, schema, nil
	})
	if err != nil || len(files) != 0 {
		return nil
	}
	return res
}

// storeRaw files res under the raw inputs the typed load of roots read
// (log). Failing to is not an error.
func storeRaw(cfg *Config, roots []*packages.Package, log *readLog, res *Result) {
	key, ok := rawKey(cfg, roots, log)
	if !ok {
		return
	}
	models, err := encodeModels(res.Packages)
	if err != nil {
		return
	}
	sections := [][]byte{models}
	for _, f := range res.Files {
		sections = append(sections, f.Content)
	}
	_ = writeCache(cfg.CacheDir, key, sections...) // best effort
}
