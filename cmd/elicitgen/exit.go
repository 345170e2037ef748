package main

import "fmt"

// exitError carries a process exit status out of a cobra RunE. A nil err
// means the command already printed what it had to say.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// withCode wraps err so that the command exits with code. withCode(1, nil)
// exits 1 without printing anything more.
func withCode(code int, err error) error { return &exitError{code: code, err: err} }
