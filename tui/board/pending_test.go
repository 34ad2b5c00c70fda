package board

import (
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/ubuild"
)

// TestPendingLifecycle walks the request lifecycle every board shares:
// what is drawn, which request is pending, and whether the referee got an
// answer after each step.
func TestPendingLifecycle(t *testing.T) {
	shown, _ := ubuild.New(engine.Setup{Seats: 2})
	asked := shown.Clone().(*ubuild.Game)
	later := shown.Clone().(*ubuild.Game)
	need := engine.Need{Kind: engine.NeedCommit, Name: ubuild.GridName, Size: 1}
	good := engine.Decision{Leaves: make([][]byte, 1)}
	bad := engine.Decision{Leaves: make([][]byte, 2)}

	type world struct {
		p    *Pending[*ubuild.Game]
		r, o *Request // the request asked, and another one
	}
	tests := []struct {
		name     string
		steps    func(w world)
		drawn    *ubuild.Game // the game drawn at the end
		pending  bool         // w.r still pending in the view
		answered bool         // the referee got an answer to w.r
		msg      bool         // the message line says something
	}{
		{"show only", func(w world) {}, shown, false, false, false},
		{"ask draws the request's game", func(w world) { w.p.Ask(w.r) }, asked, true, false, false},
		{"a show after ask draws the newer snapshot", func(w world) {
			w.p.Ask(w.r)
			w.p.Show(Snapshot{Game: later, Seat: 0})
		}, later, true, false, false},
		{"withdraw drops the request", func(w world) {
			w.p.Ask(w.r)
			if !w.p.Withdraw(w.r) {
				t.Error("Withdraw of the pending request said no")
			}
		}, asked, false, false, false},
		{"withdraw of another request keeps it", func(w world) {
			w.p.Ask(w.r)
			if w.p.Withdraw(w.o) || w.p.Withdraw(nil) {
				t.Error("Withdraw of a request not pending said yes")
			}
		}, asked, true, false, false},
		{"a good reply answers once", func(w world) {
			w.p.Ask(w.r)
			if !w.p.Reply(good) {
				t.Error("good reply refused")
			}
			if w.p.Reply(good) {
				t.Error("second reply taken")
			}
		}, asked, false, true, false},
		{"a refused reply keeps the request and says why", func(w world) {
			w.p.Ask(w.r)
			if w.p.Reply(bad) {
				t.Error("bad reply taken")
			}
		}, asked, true, false, true},
		{"a reply after withdraw is refused", func(w world) {
			w.p.Ask(w.r)
			w.p.Withdraw(w.r)
			if w.p.Reply(good) {
				t.Error("stale reply taken")
			}
		}, asked, false, false, false},
		{"a key after the referee withdrew is refused", func(w world) {
			w.p.Ask(w.r)
			w.r.close() // the referee moved on before the view heard
			if w.p.Reply(good) {
				t.Error("reply to a closed request taken")
			}
		}, asked, true, false, true},
		{"a new ask clears the message", func(w world) {
			w.p.Ask(w.r)
			w.p.Reply(bad)
			w.p.Ask(w.r)
		}, asked, true, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := world{p: &Pending[*ubuild.Game]{}, r: NewRequest(need, 1, asked, nil), o: NewRequest(need, 1, asked, nil)}
			if g, ok := w.p.Show(Snapshot{Game: shown, Seat: 0}); !ok || g != shown {
				t.Fatal("Show did not return the game shown")
			}
			tc.steps(w)
			if g, _ := w.p.Snap.Game.(*ubuild.Game); g != tc.drawn {
				t.Errorf("drawn game: got %p, want %p", g, tc.drawn)
			}
			if got := w.p.Req == w.r; got != tc.pending {
				t.Errorf("pending = %v, want %v", got, tc.pending)
			}
			if _, got := w.r.Answer(); got != tc.answered {
				t.Errorf("answered = %v, want %v", got, tc.answered)
			}
			if got := w.p.Msg != ""; got != tc.msg {
				t.Errorf("message %q, want one: %v", w.p.Msg, tc.msg)
			}
			wantSeat := engine.Seat(0)
			if tc.pending {
				wantSeat = 1
			}
			if s := w.p.Seat(); s != wantSeat {
				t.Errorf("seat %v, want %v", s, wantSeat)
			}
			d, _ := w.p.Decide()
			if tc.pending && d != asked || !tc.pending && d != tc.drawn {
				t.Errorf("checked against %p, want the request's while pending, else the drawn", d)
			}
		})
	}
}
