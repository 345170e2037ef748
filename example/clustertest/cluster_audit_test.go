package clustertest

import (
	"bufio"
	"encoding/json"
	"strings"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"
)

// auditRecord is one line of an instance's audit log (the JSON lines the
// server writes beside its plain log lines).
type auditRecord struct {
	Instance string `json:"instance"`
	Event    string `json:"event"`
	Tool     string `json:"tool"`
	CallID   string `json:"call_id"`
	Round    int    `json:"round"`
}

// auditEnds returns the call_end records of tool the instances wrote
// after marks, waiting up to 10 s for at least n of them (the lines reach
// the test through the processes' pipes).
func auditEnds(instances []*instance, marks map[string]int, tool string, n int) []auditRecord {
	var out []auditRecord
	for deadline := time.Now().Add(exampletest.Timeout(10 * time.Second)); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		out = out[:0]
		for _, in := range instances {
			sc := bufio.NewScanner(strings.NewReader(in.log.String()[marks[in.name]:]))
			for sc.Scan() {
				var r auditRecord
				if line := sc.Text(); strings.HasPrefix(line, "{") && json.Unmarshal([]byte(line), &r) == nil && r.Event == "call_end" && r.Tool == tool {
					out = append(out, r)
				}
			}
		}
		if len(out) >= n {
			break
		}
	}
	return out
}
