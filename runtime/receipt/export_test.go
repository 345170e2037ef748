package receipt

// SetFile makes s write through f: a test's faulty file.
func SetFile(s *FileSink, f interface {
	Write([]byte) (int, error)
	Sync() error
	Truncate(int64) error
}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.w = f
}

// EvictionRisk is evictionRisk.
var EvictionRisk = evictionRisk

// QueueLen returns how many appends wait for l's next batch.
func QueueLen(l *Log) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.queue)
}
