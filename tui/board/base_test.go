package board

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// probe is a view's stand-in: a Base recording what its handlers did.
type probe struct {
	Base
	msg    string
	ran    int
	clicks []string
}

func newProbe(right bool) *probe {
	p := &probe{}
	p.Base = NewBase(Handlers{Self: p, Msg: &p.msg, Right: right,
		Bindings: func() []keys.Binding {
			return []keys.Binding{{Keys: keys.Enter, Run: func() { p.ran++ }}, {Keys: []keys.Key{keys.R('x')}}}
		},
		Click: func(x, y int, right bool) { p.clicks = append(p.clicks, fmt.Sprint(x, y, right)) },
	})
	p.SetRect(10, 5, 20, 10)
	return p
}

func (p *probe) mouse(action tview.MouseAction, x, y int) (consumed bool, focused bool) {
	ev := tcell.NewEventMouse(x, y, tcell.ButtonNone, tcell.ModNone)
	ok, _ := p.MouseHandler()(action, ev, func(q tview.Primitive) { focused = q == tview.Primitive(p) })
	return ok, focused
}

func TestBaseKeysRunBindingsAndClearTheMessage(t *testing.T) {
	p := newProbe(true)
	p.msg = "refused"
	p.InputHandler()(tcell.NewEventKey(tcell.KeyRune, 'q', tcell.ModNone), nil)
	if p.msg != "refused" || p.ran != 0 {
		t.Fatalf("an unbound key cleared %q or ran %d", p.msg, p.ran)
	}
	p.InputHandler()(tcell.NewEventKey(tcell.KeyRune, 'x', tcell.ModNone), nil)
	if p.msg != "refused" {
		t.Fatal("a binding without Run cleared the message")
	}
	p.InputHandler()(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone), nil)
	if p.msg != "" || p.ran != 1 {
		t.Fatalf("enter: message %q, ran %d", p.msg, p.ran)
	}
}

func TestBaseMouse(t *testing.T) {
	for _, right := range []bool{false, true} {
		p := newProbe(right)
		if ok, _ := p.mouse(tview.MouseLeftClick, 0, 0); ok || len(p.clicks) > 0 {
			t.Fatal("a click outside the view was taken")
		}
		if ok, focused := p.mouse(tview.MouseLeftDown, 12, 6); !ok || !focused {
			t.Fatalf("left press: consumed %v, focused %v", ok, focused)
		}
		p.msg = "refused"
		if ok, _ := p.mouse(tview.MouseLeftClick, 12, 6); !ok || p.msg != "" {
			t.Fatalf("left click: consumed %v, message %q", ok, p.msg)
		}
		if ok, _ := p.mouse(tview.MouseMove, 12, 6); ok {
			t.Fatal("a move was consumed")
		}
		okDown, focused := p.mouse(tview.MouseRightDown, 13, 7)
		okClick, _ := p.mouse(tview.MouseRightClick, 13, 7)
		if okDown != right || focused != right || okClick != right {
			t.Fatalf("Right %v: right press consumed %v focused %v, right click consumed %v", right, okDown, focused, okClick)
		}
		want := []string{"12 6 false"}
		if right {
			want = append(want, "13 7 true")
		}
		if fmt.Sprint(p.clicks) != fmt.Sprint(want) {
			t.Fatalf("Right %v: clicks %v, want %v", right, p.clicks, want)
		}
	}
}

func TestBaseWithoutHandlersDoesNotPanic(t *testing.T) {
	b := NewBase(Handlers{})
	b.SetRect(0, 0, 5, 5)
	b.InputHandler()(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone), nil)
	if ok, _ := b.MouseHandler()(tview.MouseLeftClick, tcell.NewEventMouse(1, 1, tcell.Button1, tcell.ModNone), nil); !ok {
		t.Fatal("a click inside was not consumed")
	}
	scr := tcell.NewSimulationScreen("")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(20, 5)
	if _, _, _, _, ok := b.Begin(scr, style.New(true), false); ok {
		t.Fatal("Begin drew a game that has not started")
	}
}

func TestPromptAndRefusal(t *testing.T) {
	for _, c := range [][3]string{{"", "", ""}, {"m", "", "m"}, {"", "p", "p"}, {"m", "p", "m — p"}} {
		if got := Prompt(c[0], c[1]); got != c[2] {
			t.Errorf("Prompt(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
	s := Snapshot{Names: []string{"ann", "bob"}}
	err := fmt.Errorf("reply: %w", engine.Illegal("C-4 was shot at already"))
	if got, want := s.Refusal(err), "refused: C-4 was shot at already"; got != want {
		t.Errorf("Refusal = %q, want %q", got, want)
	}
	// The reason is the engine's typed one, whatever its text quotes: a
	// search for the last "illegal input: " cut this one in the middle.
	err = fmt.Errorf("reply: %w", engine.Illegal("no ship is named %q", "illegal input: x"))
	if got, want := s.Refusal(err), `refused: no ship is named "illegal input: x"`; got != want {
		t.Errorf("Refusal = %q, want %q", got, want)
	}
	if got := s.Refusal(errors.New("gone")); got != "refused: gone" {
		t.Errorf("Refusal = %q", got)
	}
}

func TestSnapshotSeatsAndSecrets(t *testing.T) {
	s := Snapshot{Seat: 1, Names: []string{"ann", "bot"}, Secrets: Known{{Name: "a"}: {1}}}
	r := NewRequest(engine.Need{}, 0, nil, nil)
	if s.Deciding(nil) != 1 || s.Deciding(r) != 0 {
		t.Fatal("Deciding does not prefer the pending request's seat")
	}
	if s.Who(1, 1) != "you" || s.Who(0, 1) != "ann" {
		t.Fatal("Who in a live match")
	}
	s.Spectator = true
	if s.Who(1, 1) != "bot" {
		t.Fatal("Who in the audit viewer")
	}
	if _, ok := s.SecretsFor(nil).Value(engine.Slot{Name: "a"}); !ok {
		t.Fatal("SecretsFor without a request lost the snapshot's")
	}
	if _, ok := s.SecretsFor(r).Value(engine.Slot{Name: "a"}); ok {
		t.Fatal("SecretsFor did not prefer the request's")
	}
	if (Snapshot{}).SecretsFor(nil) == nil {
		t.Fatal("SecretsFor returned nil")
	}
}

func TestEnvWithDefaults(t *testing.T) {
	e := Env{}.WithDefaults()
	if e.Theme == nil || e.Rand == nil {
		t.Fatal("defaults missing")
	}
	th := style.New(true)
	if (Env{Theme: th}).WithDefaults().Theme != th {
		t.Fatal("a theme given was replaced")
	}
}

func TestYouWords(t *testing.T) {
	if Possessive("you") != "your" || Possessive("bot") != "bot's" {
		t.Fatal("Possessive")
	}
	if Verb("you", "place", "places") != "place" || Verb("bot", "place", "places") != "places" {
		t.Fatal("Verb")
	}
}
