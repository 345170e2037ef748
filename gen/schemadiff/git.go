package schemadiff

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNotExist is wrapped by ReadAtRevision's error when the revision exists
// but has no file at the path. Callers treat such a file as empty (every form
// added). The same error also matches fs.ErrNotExist.
var ErrNotExist = errors.New("file does not exist at revision")

// ErrUnknownRevision is wrapped by ReadAtRevision's error when git
// resolves the revision to no commit or tree of the repository.
var ErrUnknownRevision = errors.New("revision does not exist")

// ReadAtRevision returns the content of path at the git revision rev, as
// `git -C dir show REV:./path` prints it. path is relative to dir, which may
// be any directory inside the work tree. When rev is valid but has no such
// file, the error wraps ErrNotExist (and fs.ErrNotExist); any other failure
// (no git, not a repository, unknown revision) is returned as is.
func ReadAtRevision(ctx context.Context, dir, rev, path string) ([]byte, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("git revision %q: not a revision", rev)
	}
	if filepath.IsAbs(path) {
		return nil, fmt.Errorf("git show %s:%s: path must be relative to %s", rev, path, dir)
	}
	spec := rev + ":./" + filepath.ToSlash(filepath.Clean(path))
	out, showErr := git(ctx, dir, "show", spec)
	if showErr == nil {
		return out, nil
	}
	// Tell a missing file apart from a bad revision without parsing git's
	// (localised) messages: the revision must resolve to a commit, and the
	// object must then be missing.
	if _, err := git(ctx, dir, "rev-parse", "--git-dir"); err != nil {
		return nil, fmt.Errorf("%s is not inside a git repository", dir)
	}
	if err := ResolveRevision(ctx, dir, rev); err != nil {
		return nil, err
	}
	if _, err := git(ctx, dir, "cat-file", "-e", spec); err != nil {
		return nil, fmt.Errorf("%s at %s: %w (%w)", path, rev, ErrNotExist, fs.ErrNotExist)
	}
	return nil, showErr
}

// git runs git -C dir args... and returns its standard output; an error
// carries the command and git's standard error.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			return nil, fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
		}
		// git's own message says what went wrong; its exit status adds
		// nothing for a person.
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return stdout.Bytes(), nil
}

// ResolveRevision checks that git resolves rev, in the repository holding
// dir, to a commit or a tree (a branch, a tag, HEAD~1, HEAD^{tree}). An
// unresolvable revision is an error that wraps ErrUnknownRevision.
func ResolveRevision(ctx context.Context, dir, rev string) error {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return fmt.Errorf("git revision %q: %w (not a revision)", rev, ErrUnknownRevision)
	}
	if _, err := git(ctx, dir, "rev-parse", "--git-dir"); err != nil {
		return fmt.Errorf("%s is not inside a git repository: %w", dir, err)
	}
	if _, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", rev+"^{tree}"); err != nil {
		return fmt.Errorf("git revision %q: %w (git resolves it to no commit or tree)", rev, ErrUnknownRevision)
	}
	return nil
}
