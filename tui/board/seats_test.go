package board_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/fairnesstest"
	"github.com/salvo-game/salvo/tui/board"
)

// hostile are players' names that read like seats, each another seat's:
// a board that searched a text for "seat N" would name the wrong player,
// or rewrite a name it had put in.
var hostile = []string{"seat 2", "seat 0 bob", "seat 3", "seat 1"}

// seatTexts is what the interface shows, for each kind of text that names
// a seat, in one game: the words as an engine or the referee wrote them
// (seats "seat N") and as the snapshot tells them.
type seatTexts struct {
	kind  string
	plain string // the text, seats written "seat N"
	said  string // the text as the board shows it
	kept  string // a peer's words in the text, shown as they are whatever they say
}

// TestSeatsAreNamedFromTheirWords checks, in each of the five games, that
// every kind of text naming a seat (an error, an outcome's reason, a
// prompt, a referee's note) is told with the players' names from the seats
// it keeps apart: each seat by its own player's name even when the names
// read like other seats, and the names never rewritten.
func TestSeatsAreNamedFromTheirWords(t *testing.T) {
	for _, e := range games.All() {
		t.Run(e.Spec.Name, func(t *testing.T) {
			seats := e.Spec.MinSeats
			s := board.Snapshot{Names: hostile[:seats]}
			for _, c := range textsOf(t, e.Spec, seats, s) {
				want := namedByHand(c.plain, seats)
				if c.kept != "" {
					const stand = "\x01"
					want = strings.Replace(namedByHand(strings.Replace(c.plain, c.kept, stand, 1), seats), stand, c.kept, 1)
				}
				if c.said != want {
					t.Errorf("%s: %q is told %q, want %q", c.kind, c.plain, c.said, want)
				}
				if !strings.Contains(c.plain, "seat ") {
					t.Errorf("%s: %q names no seat: the case checks nothing", c.kind, c.plain)
				}
			}
		})
	}
}

// namedByHand is text with each "seat N" (N < seats) replaced by the
// hostile name of seat N, in one pass: what the board must show.
func namedByHand(text string, seats int) string {
	var b strings.Builder
	for {
		i := strings.Index(text, "seat ")
		if i < 0 || i+5 >= len(text) || text[i+5] < '0' || text[i+5] >= byte('0'+seats) {
			if i < 0 {
				b.WriteString(text)
				return b.String()
			}
			b.WriteString(text[:i+5])
			text = text[i+5:]
			continue
		}
		b.WriteString(text[:i] + hostile[text[i+5]-'0'])
		text = text[i+6:]
	}
}

// textsOf gathers one text of each kind from a match of spec: an error
// (an input out of turn), an outcome (a resignation), the game's first
// prompt that names a seat, and the referee's note while it waits.
func textsOf(t *testing.T, spec engine.Spec, seats int, s board.Snapshot) []seatTexts {
	t.Helper()
	keys, h := header(t, spec, seats)
	var out []seatTexts

	// A prompt: the first need of the engine's that names a seat, as the
	// waiting line shows it; else the fairness layer's error for the
	// wrong seat's input, which every game has.
	m, err := fairness.NewMatch(spec, h)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := m.Next()
	_, err = m.Stage(st.Seat+1, fairness.WireInput{T: st.Kind})
	if err == nil {
		t.Fatal("an input out of turn was taken")
	}
	out = append(out, seatTexts{"error", err.Error(), s.SayError(err), ""})
	out = append(out, seatTexts{"refusal", "refused: " + err.Error(), s.Refusal(err), ""})
	// A peer's own words quoted in an error are no seat, whatever they say.
	_, err = m.Stage(st.Seat, fairness.WireInput{T: "seat 1"})
	if err == nil {
		t.Fatal("an input of no kind was taken")
	}
	out = append(out, seatTexts{"quoted", err.Error(), s.SayError(err), `"seat 1"`})
	if p, ok := promptNamingASeat(t, spec, seats); ok {
		out = append(out, seatTexts{"prompt", p.String(), s.Say(p), ""})
	}
	if ill := illegalNamingASeat(t, spec, seats); ill != nil {
		err := fmt.Errorf("reply: %w", ill)
		out = append(out, seatTexts{"engine error", err.Error(), s.SayError(err), ""})
		reason, _ := errors.AsType[*engine.IllegalError](ill)
		out = append(out, seatTexts{"engine refusal", "refused: " + reason.Reason, s.Refusal(err), ""})
	}

	// An outcome: the seat on turn resigns.
	if _, err := m.Stage(st.Seat, fairness.WireInput{T: fairness.InResign}); err != nil {
		t.Fatalf("resign: %v", err)
	}
	o := m.Outcome()
	out = append(out, seatTexts{"outcome", o.Reason, s.Say(o.Why()), ""})

	// A note: the referee of the last seat waits for another's first
	// message.
	n := waitNote(t, spec, h, keys, seats)
	out = append(out, seatTexts{"note", n.Text, s.Say(n.Words()), ""})
	return out
}

// promptNamingASeat returns the engine's first prompt when it names a
// seat (not every game's does: then false).
func promptNamingASeat(t *testing.T, spec engine.Spec, seats int) (engine.Words, bool) {
	t.Helper()
	g, err := spec.New(engine.Setup{Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	n := g.Next()
	if strings.Contains(n.Prompt, "seat ") {
		return n.Asks(), true
	}
	return engine.Words{}, false
}

// illegalNamingASeat returns the engine's error for its first need
// answered by another seat, when it names a seat.
func illegalNamingASeat(t *testing.T, spec engine.Spec, seats int) error {
	t.Helper()
	g, err := spec.New(engine.Setup{Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	n := g.Next()
	from := (n.Seat + 1) % engine.Seat(seats)
	_, err = g.Apply(engine.Input{Kind: n.Kind, Seat: from, Commitment: &engine.Commitment{Owner: from, Name: n.Name, Size: n.Size}})
	if _, ok := errors.AsType[*engine.IllegalError](err); !ok || !strings.Contains(err.Error(), "seat ") {
		return nil
	}
	return err
}

// header makes a match header for seats players, with keys.
func header(t *testing.T, spec engine.Spec, seats int) ([]crypto.PrivKey, fairness.Header) {
	t.Helper()
	keys := make([]crypto.PrivKey, seats)
	players := make([]fairness.Player, seats)
	for i := range keys {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		nonce, err := fairness.NewNonce()
		if err != nil {
			t.Fatal(err)
		}
		keys[i], players[i] = k, fairness.Player{Peer: id.String(), Name: hostile[i], Nonce: nonce}
	}
	h, err := fairness.NewHeader(spec, "", players)
	if err != nil {
		t.Fatal(err)
	}
	return keys, h
}

// waitNote runs the referee of the last seat, alone, until it notes that
// it waits for another seat's message.
func waitNote(t *testing.T, spec engine.Spec, h fairness.Header, keys []crypto.PrivKey, seats int) fairness.Note {
	t.Helper()
	m, err := fairness.NewMatch(spec, h)
	if err != nil {
		t.Fatal(err)
	}
	tw, err := fairness.CreateTranscript(filepath.Join(t.TempDir(), "t.jsonl"), h)
	if err != nil {
		t.Fatal(err)
	}
	defer tw.Close()
	end, other := fairnesstest.Pipe()
	defer end.Close()
	defer other.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	notes := make(chan fairness.Note, 64)
	seat := engine.Seat(seats - 1)
	bot, _ := games.Bot(spec.Name, "random", rand.New(rand.NewPCG(1, 2)))
	ref, err := fairness.NewReferee(fairness.Config{Match: m, Seat: seat, Key: keys[seat], Agent: bot, Transport: end, Transcript: tw,
		Observe: func(n fairness.Note) {
			if n.Dir == fairness.DirWait {
				select {
				case notes <- n:
				default:
				}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		ref.Run(ctx) //nolint:errcheck // stopped once the note is in
	}()
	defer func() { cancel(); <-done }()
	select {
	case n := <-notes:
		return n
	case <-ctx.Done():
		t.Fatal("the referee noted no wait")
	}
	return fairness.Note{}
}
