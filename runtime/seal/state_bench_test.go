package seal_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// BenchmarkSealOpen10Answers seals and opens a state with ten answers of
// five fields each: "aead" is today's Sealer (AES-256-GCM, binary
// payload); "hmac-json" is the signed JSON format of earlier releases,
// kept here only as the baseline, run side by side.
func BenchmarkSealOpen10Answers(b *testing.B) {
	s := &seal.Sealer{Keys: stateRing(b, stateKey("k1", 1))}
	bind := seal.BindCall("deploy", []byte(`{"project":"alpha"}`), "alice")
	st := &seal.State{Answers: map[string]*runtime.Response{}}
	for i := range 10 {
		st.Answers[fmt.Sprintf("Form%d", i)] = &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{
			"branch": "main", "env": "prod", "replicas": 3.0, "confirm": true, "note": "ship it",
		}}
	}
	sealed, _ := s.Seal(bind, st)
	b.Logf("state: %d bytes", len(sealed))
	b.Run("aead/seal+open", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			x, err := s.Seal(bind, st)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.Open(bind, x); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("aead/seal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Seal(bind, st); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("aead/open", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Open(bind, sealed); err != nil {
				b.Fatal(err)
			}
		}
	})
	old := &legacySealer{key: stateKey("k1", 1).Secret, kid: "k1"}
	oldSealed, _ := old.seal(bind, st)
	b.Logf("baseline state: %d bytes", len(oldSealed))
	b.Run("hmac-json/seal+open", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			x, err := old.seal(bind, st)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := old.open(bind, x); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// reportCPU starts measuring the process's CPU time; the func it returns
// reports it per op as cpu-ns/op (with -cpu 1 or -cpu 2 it includes the
// garbage collector's work, which the benchmark causes).
func reportCPU(b *testing.B) func() {
	start := processCPU()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

// legacySealer is the request-state format of earlier releases (signed
// JSON: base64url(payload) "." kid "." base64url(HMAC-SHA256)), kept only
// as the benchmark's baseline.
type legacySealer struct {
	key []byte
	kid string
}

type legacyPayload struct {
	V         int                       `json:"v"`
	Issued    int64                     `json:"iat"`
	Expires   int64                     `json:"exp"`
	Tool      string                    `json:"tool"`
	Args      string                    `json:"args"`
	Principal string                    `json:"sub"`
	Answers   map[string]legacyResponse `json:"a,omitempty"`
	Flows     map[string]string         `json:"f,omitempty"`
}

type legacyResponse struct {
	Action  runtime.Action `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

var legacyB64 = base64.RawURLEncoding.Strict()

func legacyPrincipal(p string) string {
	sum := sha256.Sum256([]byte("principal\x00" + p))
	return legacyB64.EncodeToString(sum[:16])
}

func (s *legacySealer) mac(payload string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte("elicitgen/request-state/v1"))
	m.Write([]byte{0})
	m.Write([]byte(s.kid))
	m.Write([]byte{0})
	m.Write([]byte(payload))
	return m.Sum(nil)
}

func (s *legacySealer) seal(b seal.Binding, st *seal.State) (string, error) {
	now := time.Now()
	p := legacyPayload{V: 1, Issued: now.Unix(), Expires: now.Add(seal.DefaultStateTTL).Unix(), Tool: b.Tool,
		Args: legacyB64.EncodeToString(b.ArgsDigest[:]), Principal: legacyPrincipal(b.Principal)}
	p.Answers = make(map[string]legacyResponse, len(st.Answers))
	for k, r := range st.Answers {
		p.Answers[k] = legacyResponse{Action: r.Action, Content: r.Content}
	}
	raw, err := json.Marshal(&p)
	if err != nil {
		return "", err
	}
	payload := legacyB64.EncodeToString(raw)
	return payload + "." + s.kid + "." + legacyB64.EncodeToString(s.mac(payload)), nil
}

func (s *legacySealer) open(b seal.Binding, state string) (*seal.State, error) {
	payload, rest, _ := strings.Cut(state, ".")
	_, macText, _ := strings.Cut(rest, ".")
	mac, err := legacyB64.DecodeString(macText)
	if err != nil || !hmac.Equal(mac, s.mac(payload)) {
		return nil, errors.New("bad mac")
	}
	raw, err := legacyB64.DecodeString(payload)
	if err != nil {
		return nil, err
	}
	var p legacyPayload
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	if time.Now().Unix() > p.Expires || p.Tool != b.Tool || p.Principal != legacyPrincipal(b.Principal) {
		return nil, errors.New("expired or foreign")
	}
	st := &seal.State{Answers: make(map[string]*runtime.Response, len(p.Answers)), Flows: p.Flows}
	for k, r := range p.Answers {
		st.Answers[k] = &runtime.Response{Action: r.Action, Content: r.Content}
	}
	return st, nil
}
