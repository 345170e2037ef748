package receipt

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
)

// file is what FileSink writes through: an *os.File, or a test's.
type file interface {
	io.Writer
	Sync() error
	Truncate(size int64) error
}

// FileSink appends receipts to a JSONL file, one line each, and syncs
// the file (fdatasync on Linux, fsync elsewhere) before Log.Append
// returns: it is a BatchSink, so the receipts of a batch go out in one
// write and share one sync. It holds an exclusive lock on the file (flock, where the
// system has it) while open, so a second process cannot write the same
// log and fork its chain; within a process it is safe for concurrent
// use. After a failed write or sync it takes back the lines not known
// durable and refuses every later Append (the file's state is then
// unknown): open it again once the cause is fixed.
type FileSink struct {
	path string
	f    *os.File

	// syncMu lets one Sync at a time run fsync.
	syncMu sync.Mutex

	mu     sync.Mutex
	w      file
	size   int64 // bytes written
	head   Head  // last receipt written
	failed error
	closed bool
	// synced is the last receipt known durable, and syncedSize the
	// file's size then.
	synced     uint64
	syncedSize int64
	// buf is the lines of the batch being written, kept for the next.
	buf []byte
}

var (
	_ Syncer    = (*FileSink)(nil)
	_ BatchSink = (*FileSink)(nil)
)

// maxKeptBuf bounds the buffer a FileSink keeps between batches.
const maxKeptBuf = 1 << 20

// OpenFile opens the JSONL log at path for appending, creating it (mode
// 0600) when missing, and reads its last receipt. It fails with an error
// matching ErrSink when the file cannot be opened or locked, when another
// process holds it, or when its last line is cut short or not a receipt
// (a crash mid-write, an edit): such a file needs a person's look, and
// elicitgen verify names the line.
func OpenFile(path string) (*FileSink, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSink, err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: %s: %w", ErrSink, path, err)
	}
	size, last, err := lastLine(f)
	var h Head
	if err == nil && last != nil {
		if h, err = lineHead(last); err != nil {
			err = fmt.Errorf("last line: %w", err)
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: %s: %w", ErrSink, path, err)
	}
	return &FileSink{path: path, f: f, w: dataFile{f}, size: size, head: h, synced: h.Seq, syncedSize: size}, nil
}

// tailChunk is how much of a file lastLine reads at a time, from the end.
const tailChunk = 64 << 10

// lastLine returns the size of f and its last line without the line
// break (nil for an empty file). A file whose last byte is not a line
// break ends in a cut line, an error.
func lastLine(f *os.File) (size int64, last []byte, err error) {
	st, err := f.Stat()
	if err != nil {
		return 0, nil, err
	}
	size = st.Size()
	if size == 0 || !st.Mode().IsRegular() {
		return 0, nil, nil
	}
	var buf []byte
	off := size
	for {
		chunk := int64(tailChunk)
		if chunk > off {
			chunk = off
		}
		off -= chunk
		b := make([]byte, chunk)
		if _, err := f.ReadAt(b, off); err != nil {
			return 0, nil, err
		}
		buf = append(b, buf...)
		if len(buf) > 0 && buf[len(buf)-1] != '\n' {
			return 0, nil, fmt.Errorf("the file ends in a cut line (%d bytes after the last line break)", len(buf)-bytes.LastIndexByte(buf, '\n')-1)
		}
		body := buf[:len(buf)-1]
		if i := bytes.LastIndexByte(body, '\n'); i >= 0 {
			return size, body[i+1:], nil
		}
		if off == 0 {
			return size, body, nil
		}
	}
}

// lineHead returns the head of a log whose last line is ln: the line's
// sequence number and the digest of its JWS. It checks the line's form,
// not its signature.
func lineHead(ln []byte) (Head, error) {
	var fl flattened
	if err := json.Unmarshal(ln, &fl); err != nil {
		return Head{}, fmt.Errorf("not a receipt: %w", err)
	}
	p, err := decodePayload(fl.Payload)
	if err != nil {
		return Head{}, err
	}
	return Head{Seq: p.Seq, Digest: Digest([]byte(fl.Protected + "." + fl.Payload + "." + fl.Signature))}, nil
}

// Path returns the file's path.
func (s *FileSink) Path() string { return s.path }

// Head implements Sink.
func (s *FileSink) Head(ctx context.Context) (Head, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Head{}, ErrClosed
	}
	return s.head, nil
}

// Append implements Sink: one write of the line and its line break;
// Sync makes it durable.
func (s *FileSink) Append(ctx context.Context, prev Head, r *Receipt) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return ErrClosed
	case s.failed != nil:
		return fmt.Errorf("%s: an earlier write failed: %w", s.path, s.failed)
	case prev != s.head:
		return ErrConflict
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	buf := make([]byte, 0, len(r.Line)+1)
	buf = append(append(buf, r.Line...), '\n')
	n, err := s.w.Write(buf)
	if err != nil {
		s.fail(err)
		return fmt.Errorf("%s: %w", s.path, err)
	}
	s.size += int64(n)
	s.head = r.Head()
	return nil
}

// AppendBatch implements BatchSink: one write of every line of rs, each
// with its line break, then one sync (Sync). A failed write or sync
// takes back the lines of rs and fails the whole batch.
func (s *FileSink) AppendBatch(ctx context.Context, prev Head, rs []*Receipt) error {
	if len(rs) == 0 {
		return nil
	}
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return ErrClosed
	case s.failed != nil:
		s.mu.Unlock()
		return fmt.Errorf("%s: an earlier write failed: %w", s.path, s.failed)
	case prev != s.head:
		s.mu.Unlock()
		return ErrConflict
	}
	buf := s.buf[:0]
	for _, r := range rs {
		buf = append(append(buf, r.Line...), '\n')
	}
	n, err := s.w.Write(buf)
	if cap(buf) <= maxKeptBuf {
		s.buf = buf
	}
	if err != nil {
		s.fail(err)
		s.mu.Unlock()
		return fmt.Errorf("%s: %w", s.path, err)
	}
	s.size += int64(n)
	last := rs[len(rs)-1].Head()
	s.head = last
	s.mu.Unlock()
	return s.Sync(ctx, last)
}

// Sync implements Syncer: one fsync covers every receipt written before
// it started.
func (s *FileSink) Sync(ctx context.Context, h Head) error {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	s.mu.Lock()
	switch {
	case s.synced >= h.Seq:
		s.mu.Unlock()
		return nil // an fsync that started after h was written covered it
	case s.failed != nil:
		s.mu.Unlock()
		return fmt.Errorf("%s: an earlier write failed: %w", s.path, s.failed)
	case s.closed:
		s.mu.Unlock()
		return ErrClosed
	}
	target, size := s.head.Seq, s.size
	s.mu.Unlock()
	err := s.w.Sync()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.fail(err)
		return fmt.Errorf("%s: %w", s.path, err)
	}
	s.synced, s.syncedSize = target, size
	return nil
}

// fail records the first failed write or sync, after which the sink
// refuses every Append and Sync, and takes back the lines not known
// durable, best effort: the file is not written again either way.
func (s *FileSink) fail(err error) {
	if s.failed == nil {
		s.failed = err
	}
	_ = s.w.Truncate(s.syncedSize)
}

// Close releases the lock and closes the file.
func (s *FileSink) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.f.Close() // closing the file releases its flock
}
