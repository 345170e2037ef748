package wiretest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// malformedLines are the lines a stdio server must survive, each a
// tools/call with its own id; 50 MB is written in pieces.
var malformedLines = []struct {
	name string
	id   int
	line func(w io.Writer)
}{
	{"NaN", 2, func(w io.Writer) {
		io.WriteString(w, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"x":NaN}}}`+"\n")
	}},
	{"20,000-deep nesting", 3, func(w io.Writer) {
		io.WriteString(w, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"x":`+strings.Repeat("[", 20000)+strings.Repeat("]", 20000)+"}}}\n")
	}},
	{"50 MB line", 4, func(w io.Writer) {
		io.WriteString(w, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"x":"`)
		chunk := strings.Repeat("x", 1<<20)
		for range 50 {
			io.WriteString(w, chunk)
		}
		io.WriteString(w, "\"}}}\n")
	}},
	{"not a message", 5, func(w io.Writer) { io.WriteString(w, `{"id":5,"hello":"world"}`+"\n") }},
	{"a batch", 6, func(w io.Writer) {
		io.WriteString(w, `[{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":{}}}]`+"\n")
	}},
	{"case-variant method", 7, func(w io.Writer) {
		io.WriteString(w, `{"jsonrpc":"2.0","id":7,"Method":"tools/call","params":{"name":"echo","arguments":{}}}`+"\n")
	}},
}

// CheckMalformedLines drives a stdio server through malformedLines and
// fails unless it answers each with an error carrying the line's id, then
// answers a tools/call after them, then ends when its input does. serve
// runs the server (with a tool "echo" taking any arguments) on in and out,
// with a line limit of 1 MiB.
func CheckMalformedLines(t *testing.T, serve func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- serve(ctx, inR, outW) }()
	replies := make(chan map[string]any, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				replies <- m
			}
		}
		close(replies)
	}()
	// byID collects the replies until each of ids has one (replies may
	// come in any order).
	byID := map[string]map[string]any{}
	wait := func(ids ...int) {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for _, id := range ids {
			for byID[fmt.Sprint(id)] == nil {
				select {
				case m, ok := <-replies:
					if !ok {
						t.Fatalf("no reply to id %d: the server closed its output", id)
					}
					byID[fmt.Sprint(m["id"])] = m
				case <-timeout:
					t.Fatalf("no reply to id %d within 10s", id)
				}
			}
		}
	}
	go func() {
		io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"v0"}}}`+"\n")
		io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		for _, m := range malformedLines {
			m.line(inW)
		}
		io.WriteString(inW, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{}}}`+"\n")
	}()
	ids := []int{1, 9}
	for _, m := range malformedLines {
		ids = append(ids, m.id)
	}
	wait(ids...)
	for _, m := range malformedLines {
		if r := byID[fmt.Sprint(m.id)]; r["error"] == nil {
			t.Errorf("%s: reply %v, want an error", m.name, r)
		}
	}
	if r := byID["9"]; r["result"] == nil {
		t.Errorf("the call after the malformed lines: %v", r)
	}
	inW.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Error("the server did not end on EOF")
	}
}
