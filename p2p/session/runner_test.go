package session

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// A Runner suspends a match (the referee stops, the match stays
// resumable), resumes it with one replay note per message of its
// transcript before the referee's own notes, and leaves it with our signed
// forfeit in both sides' records.
func TestRunnerSuspendsResumesAndLeaves(t *testing.T) {
	a, b, ma, mb := newPair(t, "ubuild")
	id := ma.Header.Match
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	ra := StartMatch(ctx, a.res, ma, false, NetPlayConfig{Key: a.key, Agent: Paced(bot(t, "ubuild", 1), 20*time.Millisecond), Store: a.store, Timeout: 20 * time.Second})
	reached := make(chan struct{})
	var once sync.Once
	rb := StartMatch(ctx, b.res, mb, true, NetPlayConfig{Key: b.key, Agent: bot(t, "ubuild", 2), Store: b.store, Timeout: 20 * time.Second,
		Observe: func(n fairness.Note) {
			if n.Seq >= 4 {
				once.Do(func() { close(reached) })
			}
		}})
	<-reached
	rb.Suspend()
	if _, err := rb.Result(); !errors.Is(err, context.Canceled) {
		t.Fatalf("a suspended match ends with %v", err)
	}
	sv, err := b.store.Load(id)
	if err != nil || !sv.InProgress() {
		t.Fatalf("the suspended match in the store: %+v, %v", sv, err)
	}

	var mu sync.Mutex
	var notes []fairness.Note
	rb = ResumeMatch(ctx, b.res, id, NetPlayConfig{Key: b.key, Agent: Paced(bot(t, "ubuild", 3), time.Hour), Store: b.store, Timeout: 20 * time.Second,
		Observe: func(n fairness.Note) { mu.Lock(); notes = append(notes, n); mu.Unlock() }})
	for {
		mu.Lock()
		n := len(notes)
		mu.Unlock()
		if n >= int(sv.Seq) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	me := mb.Header.Players[mb.Seat].Peer
	for i, n := range notes[:sv.Seq] {
		from := ma.Header.Players[n.Seat].Peer
		want := map[bool]fairness.Dir{true: fairness.DirOut, false: fairness.DirIn}[from == me]
		if n.Seq != uint64(i+1) || n.Dir != want || !strings.Contains(n.Text, ReplayText) || n.Game == nil {
			t.Fatalf("replay note %d: %+v", i+1, n)
		}
	}
	mu.Unlock()
	if err := rb.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := ra.Wait()
	if err != nil || res == nil || res.Closing == nil || res.Closing.Closing != fairness.CloseLeft {
		t.Fatalf("the stayer's match ended with %+v, %v", res, err)
	}
	for name, st := range map[string]Store{"stayer": a.store, "leaver": b.store} {
		if rep := audit(t, st.Transcript(id)); rep.Verdict != fairness.Forfeit || rep.Closing == nil || *rep.Closing != *res.Closing {
			t.Fatalf("audit of the %s's transcript: %s", name, rep.Summary())
		}
	}
	if sv, err := b.store.Load(id); err != nil || sv.InProgress() {
		t.Fatalf("the left match is still offered for resuming: %+v, %v", sv, err)
	}
}

// BenchmarkReplayNotes is what a resume adds to loading the transcript:
// the notes of a whole U-Build match, checked again message by message.
func BenchmarkReplayNotes(b *testing.B) {
	fm, envs, err := fairness.LoadMatch(games.Spec, filepath.Join("..", "..", "fairness", "testdata", "ubuild-standard.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for b.Loop() {
		if err := replayNotes(fm.Header(), envs, "", func(fairness.Note) { n++ }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(envs)), "messages")
}

// BenchmarkLoadMatch is loading the same transcript, for comparison.
func BenchmarkLoadMatch(b *testing.B) {
	path := filepath.Join("..", "..", "fairness", "testdata", "ubuild-standard.jsonl")
	for b.Loop() {
		if _, _, err := fairness.LoadMatch(games.Spec, path); err != nil {
			b.Fatal(err)
		}
	}
}
