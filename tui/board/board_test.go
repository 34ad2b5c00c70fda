package board

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/ubuild"
)

// inline runs posted functions at once, standing in for the UI goroutine.
func inline(f func()) { go f() }

func TestHumanDecidesThroughTheView(t *testing.T) {
	asked := make(chan *Request, 1)
	h := NewHuman(inline, func(r *Request) { asked <- r }, func(*Request) {})
	g, err := ubuild.New(engine.Setup{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	need := g.Next()
	done := make(chan engine.Decision, 1)
	go func() {
		d, err := h.Decide(context.Background(), g, 0, nil, need)
		if err != nil {
			t.Error(err)
		}
		done <- d
	}()
	r := <-asked
	if r.Need.Name != ubuild.GridName || r.Game == g {
		t.Fatalf("request %+v: the game must be a clone", r.Need)
	}
	if err := r.Reply(engine.Decision{Leaves: make([][]byte, 3)}); err == nil {
		t.Fatal("a commitment of the wrong size was accepted")
	}
	var l ubuild.Layout
	for s := range ubuild.Ship(ubuild.NumShips) {
		l[s] = ubuild.Placement{Start: ubuild.CellAt(2*int(s), 0)}
	}
	if err := r.Reply(engine.Decision{Leaves: l.Leaves()}); err != nil {
		t.Fatal(err)
	}
	if err := r.Reply(engine.Decision{Leaves: l.Leaves()}); err == nil {
		t.Fatal("a second reply was accepted")
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Decide did not return")
	}
	if v, ok := h.Known().Value(ubuild.GridSlot(0, ubuild.CellAt(0, 0))); !ok || v[0] != 1 {
		t.Fatalf("the committed grid is not remembered: %v %v", v, ok)
	}
}

func TestHumanWithdrawsWhenTheContextEnds(t *testing.T) {
	asked := make(chan *Request, 1)
	withdrawn := make(chan *Request, 1)
	h := NewHuman(inline, func(r *Request) { asked <- r }, func(r *Request) { withdrawn <- r })
	g, _ := ubuild.New(engine.Setup{Seats: 2})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := h.Decide(ctx, g, 0, nil, g.Next())
		errc <- err
	}()
	r := <-asked
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Decide returned %v", err)
	}
	if w := <-withdrawn; w != r || r.Pending() {
		t.Fatal("the request was not withdrawn")
	}
	if err := r.Reply(engine.Decision{Leaves: make([][]byte, ubuild.NumCells)}); err == nil {
		t.Fatal("a withdrawn request took a reply")
	}
}

func TestRequestChecksMovesAgainstTheRules(t *testing.T) {
	g, _ := ubuild.New(engine.Setup{Seats: 2})
	for range 2 {
		n := g.Next()
		if _, err := g.Apply(engine.Input{Kind: engine.NeedCommit, Seat: n.Seat, Commitment: &engine.Commitment{Owner: n.Seat, Name: n.Name, Size: n.Size}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := g.Apply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{0}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		move string
		ok   bool
	}{
		{"five shots of the Battleship", `{"ship":"battleship","shots":["A-1","A-2","A-3","A-4","A-5"]}`, true},
		{"six shots of the Battleship", `{"ship":"battleship","shots":["A-1","A-2","A-3","A-4","A-5","A-6"]}`, false},
		{"no ship named", `{"shots":["A-1"]}`, false},
		{"not a move", `{"fire":1}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRequest(g.Next(), 0, g.Copy(), nil)
			err := r.Reply(engine.Decision{Move: []byte(tc.move)})
			if (err == nil) != tc.ok {
				t.Fatalf("reply: %v", err)
			}
			if _, answered := r.Answer(); answered != tc.ok {
				t.Fatalf("answered %v", answered)
			}
			// Send says the same, in the view's message line.
			msg := "an old message"
			if got := Send(NewRequest(g.Next(), 0, g.Copy(), nil), engine.Decision{Move: []byte(tc.move)}, Snapshot{}, &msg); got != tc.ok {
				t.Fatalf("Send = %v", got)
			}
			if tc.ok && msg != "" || !tc.ok && !strings.HasPrefix(msg, "refused: ") {
				t.Fatalf("message after Send: %q", msg)
			}
		})
	}
	msg := "kept"
	if Send(nil, engine.Decision{}, Snapshot{}, &msg) || msg != "kept" {
		t.Fatalf("Send with nothing asked: took it, or changed the message to %q", msg)
	}
}

func TestRegistry(t *testing.T) {
	Register("test-game", func(Env) View { return nil })
	if _, ok := Lookup("test-game"); !ok {
		t.Fatal("not registered")
	}
	if _, ok := Lookup("nope"); ok {
		t.Fatal("found an unregistered game")
	}
	found := false
	for _, n := range Registered() {
		found = found || n == "test-game"
	}
	if !found {
		t.Fatal("Registered misses the game")
	}
}

// slotPeeker names fixed slots.
type slotPeeker []engine.Slot

func (p slotPeeker) Peek(engine.Game, engine.Seat) []engine.Slot { return p }

func TestHumanCopiesWhatItsPeekerNames(t *testing.T) {
	asked := make(chan *Request, 1)
	h := NewHuman(inline, func(r *Request) { asked <- r }, func(*Request) {})
	dealt := engine.Slot{Owner: engine.NoSeat, Name: "deck", Index: 4}
	other := engine.Slot{Owner: engine.NoSeat, Name: "deck", Index: 5}
	h.SetPeeker(slotPeeker{dealt, other})
	g, err := ubuild.New(engine.Setup{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	sec := Known{dealt: {42}} // the referee knows only the card dealt to us
	go func() { _, _ = h.Decide(context.Background(), g, 0, sec, g.Next()) }()
	r := <-asked
	if v, ok := r.Secrets.Value(dealt); !ok || v[0] != 42 {
		t.Fatalf("the request does not know the dealt card: %v %v", v, ok)
	}
	if _, ok := r.Secrets.Value(other); ok {
		t.Fatal("a value the secrets do not hold was made up")
	}
	sec[dealt][0] = 7 // the copy is the Human's own
	if v, _ := h.Known().Value(dealt); v[0] != 42 {
		t.Fatalf("the known value changed with the referee's: %v", v)
	}
	_ = r.Reply(engine.Decision{Leaves: make([][]byte, r.Need.Size)})
	// A card dealt after the decision is copied when the referee's hook
	// refreshes the human.
	sec[other] = []byte{9}
	h.Refresh(g, 0, nil)
	if v, ok := h.Known().Value(other); !ok || v[0] != 9 {
		t.Fatalf("a card dealt later is not known after Refresh: %v %v", v, ok)
	}
}

// A card dealt before the player's first decision is known from the copy
// of the secrets a referee note carries, with no decision at all.
func TestHumanRefreshBeforeAnyDecision(t *testing.T) {
	h := NewHuman(inline, func(*Request) { t.Fatal("asked") }, func(*Request) {})
	dealt := engine.Slot{Owner: engine.NoSeat, Name: "deck", Index: 2}
	own := engine.Slot{Owner: 1, Name: "grid", Index: 3}
	h.SetPeeker(slotPeeker{dealt, own})
	g, err := ubuild.New(engine.Setup{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	h.Refresh(g, 1, nil) // no decision yet, no copy: nothing to copy from
	if len(h.Known()) != 0 {
		t.Fatalf("known %v before any secret", h.Known())
	}
	note := Known{dealt: {5}, own: {1}}
	h.Refresh(g, 1, note)
	for _, s := range []engine.Slot{dealt, own} {
		if v, ok := h.Known().Value(s); !ok || v[0] != note[s][0] {
			t.Fatalf("%s: %v %v after Refresh with the note's secrets", s, v, ok)
		}
	}
	note[dealt][0] = 6 // the human keeps its own copy
	if v, _ := h.Known().Value(dealt); v[0] != 5 {
		t.Fatalf("the known value follows the note's copy: %v", v)
	}
}
