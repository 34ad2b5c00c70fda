package fairness

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/salvo-game/salvo/fairness/fairnesstest"
)

// A seat whose process stops mid-match resumes from its transcript and its
// secrets file, and the match ends clean on both sides.
func TestRefereeResumesFromTranscriptAndSecrets(t *testing.T) {
	for _, stopAt := range []int{1, 3, 5, 7} {
		keys := testKeys(t, 2)
		h := testHeader(t, peekSpec, keys)
		dir := t.TempDir()
		a, b := fairnesstest.Pipe()
		ends := [2]*fairnesstest.PipeEnd{a, b}
		paths := [2]string{filepath.Join(dir, "0.jsonl"), filepath.Join(dir, "1.jsonl")}
		secrets := filepath.Join(dir, "1.secrets")
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()

		var wg sync.WaitGroup
		var res0 *Result
		var err0 error
		m0, _ := NewMatch(peekSpec, h)
		tw0, _ := CreateTranscript(paths[0], h)
		sent0 := &sentFrames{Transport: ends[0]}
		ref0, err := NewReferee(Config{Match: m0, Seat: 0, Key: keys[0], Agent: &peekBot{r: rand.New(rand.NewPCG(1, 0))}, Transport: sent0, Transcript: tw0, Timeout: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() { defer wg.Done(); res0, err0 = ref0.Run(ctx); tw0.Close() }()

		// Seat 1 runs until it has waited stopAt times, then its process
		// "dies": its context ends while it waits for seat 0.
		m1, _ := NewMatch(peekSpec, h)
		tw1, _ := CreateTranscript(paths[1], h)
		ctx1, kill := context.WithCancel(ctx)
		waits := 0
		ref1, err := NewReferee(Config{Match: m1, Seat: 1, Key: keys[1], Agent: &peekBot{r: rand.New(rand.NewPCG(1, 1))}, Transport: ends[1], Transcript: tw1,
			SecretsPath: secrets, Observe: func(n Note) {
				if n.Dir == DirWait {
					if waits++; waits == stopAt {
						kill()
					}
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ref1.Run(ctx1); !errors.Is(err, context.Canceled) {
			t.Fatalf("stop at wait %d: first run of seat 1 ended with %v", stopAt, err)
		}
		tw1.Close()

		// The restarted seat 1 rebuilds the match from disk and goes on.
		m1, envs, err := LoadMatch(peekSpecs, paths[1])
		if err != nil {
			t.Fatal(err)
		}
		if uint64(len(envs)) != m1.Seq() {
			t.Fatalf("LoadMatch returned %d envelopes at seq %d", len(envs), m1.Seq())
		}
		// What a resume handshake does: each side sends again what it
		// sent after the other's last message (the killed process may have
		// read a frame and died before applying it, or written its own
		// message and died before sending it); the other side's sent
		// frames include its members, numbered ahead of its record. A copy
		// already got is dropped.
		for _, b := range sent0.after(m1.Seq()) {
			ends[1].Deliver(b)
		}
		for _, e := range envs {
			if e.From == h.Players[1].Peer {
				b, _ := EncodeEnvelope(e)
				ends[0].Deliver(b)
			}
		}
		tw1, err = AppendTranscript(paths[1])
		if err != nil {
			t.Fatal(err)
		}
		ref1, err = NewReferee(Config{Match: m1, Seat: 1, Key: keys[1], Agent: &peekBot{r: rand.New(rand.NewPCG(2, 1))}, Transport: ends[1], Transcript: tw1, SecretsPath: secrets, Timeout: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		res1, err1 := ref1.Run(ctx)
		tw1.Close()
		ends[1].Close()
		wg.Wait()
		if err0 != nil || err1 != nil {
			t.Fatalf("stop at wait %d: %v / %v", stopAt, err0, err1)
		}
		if res0.Closing != nil || res1.Closing != nil || !res0.Outcome.Done || !res1.Outcome.Done {
			t.Fatalf("stop at wait %d: results %+v / %+v", stopAt, res0, res1)
		}
		for _, p := range paths {
			if rep := auditFile(t, p); rep.Verdict != Clean {
				t.Fatalf("stop at wait %d: %s: %s", stopAt, p, rep.Summary())
			}
		}
		x, _ := os.ReadFile(paths[0])
		y, _ := os.ReadFile(paths[1])
		if string(x) != string(y) {
			t.Fatalf("stop at wait %d: transcripts differ after the resume", stopAt)
		}
	}
}

func TestResumeRefusesLostOrForeignSecrets(t *testing.T) {
	keys := testKeys(t, 2)
	h := testHeader(t, peekSpec, keys)
	dir := t.TempDir()
	a, _ := fairnesstest.Pipe()
	m, _ := NewMatch(peekSpec, h)
	path := filepath.Join(dir, "s")
	if _, err := NewReferee(Config{Match: m, Seat: 0, Key: keys[0], Agent: &peekBot{}, Transport: a, SecretsPath: path}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("secrets file: %v %v", fi, err)
	}
	if _, err := NewReferee(Config{Match: m, Seat: 1, Key: keys[1], Agent: &peekBot{}, Transport: a, SecretsPath: path}); err == nil {
		t.Fatal("seat 1 resumed from seat 0's secrets")
	}
	other, _ := NewMatch(peekSpec, testHeader(t, peekSpec, keys))
	if _, err := NewReferee(Config{Match: other, Seat: 0, Key: keys[0], Agent: &peekBot{}, Transport: a, SecretsPath: path}); err == nil {
		t.Fatal("resumed another match from these secrets")
	}
}

// sentFrames is a transport that keeps every frame sent through it, as
// the reconnecting transport keeps what it sent by number for a resume.
type sentFrames struct {
	Transport
	mu     sync.Mutex
	frames [][]byte
}

func (s *sentFrames) Send(ctx context.Context, b []byte) error {
	s.mu.Lock()
	s.frames = append(s.frames, append([]byte(nil), b...))
	s.mu.Unlock()
	return s.Transport.Send(ctx, b)
}

// after returns the frames sent so far numbered after seq.
func (s *sentFrames) after(seq uint64) [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out [][]byte
	for _, b := range s.frames {
		if e, err := DecodeEnvelope(b); err == nil && e.Seq > seq {
			out = append(out, b)
		}
	}
	return out
}
