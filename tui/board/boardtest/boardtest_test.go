package boardtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/cards"
	"github.com/salvo-game/salvo/tui/board"
)

// recorder is a testing.TB that records failures instead of ending the
// test, so that the helpers' own failures can be checked.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed []string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatal(args ...any) { r.record(fmt.Sprint(args...)) }

func (r *recorder) Fatalf(f string, args ...any) { r.record(fmt.Sprintf(f, args...)) }

func (r *recorder) Errorf(f string, args ...any) { r.record(fmt.Sprintf(f, args...)) }

func (r *recorder) record(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = append(r.failed, s)
}

func (r *recorder) failures() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.failed...)
}

func TestLinesAndText(t *testing.T) {
	t.Parallel()
	scr := NewSim(t, 4, 2)
	scr.SetContent(1, 0, 'a', nil, tcell.StyleDefault)
	scr.SetContent(3, 1, '★', nil, tcell.StyleDefault)
	scr.Show()
	if got, want := Text(scr), " a  \n   ★\n"; got != want {
		t.Fatalf("Text = %q, want %q", got, want)
	}
	cells, w, h := scr.GetContents()
	if l := Lines(cells, w, h); len(l) != 2 || l[1] != "   ★" {
		t.Fatalf("Lines = %q", l)
	}
	// A short or empty grid gives what it holds, without panicking.
	if l := Lines(cells[:5], 4, 2); len(l) != 1 {
		t.Fatalf("Lines of a short grid = %q", l)
	}
	if l := Lines(nil, 0, 3); l != nil {
		t.Fatalf("Lines of nothing = %q", l)
	}
	if x, y, ok := Find(Lines(cells, w, h), "★"); !ok || x != 3 || y != 1 {
		t.Fatalf("Find = %d, %d, %v", x, y, ok)
	}
	if _, _, ok := Find(nil, "x"); ok {
		t.Fatal("found text in no lines")
	}
}

func TestColouredAndMono(t *testing.T) {
	t.Parallel()
	scr := NewSim(t, 3, 2)
	scr.SetContent(0, 0, 'x', nil, tcell.StyleDefault)
	scr.Show()
	cells, w, _ := scr.GetContents()
	if c := Coloured(cells, w); c != "" {
		t.Fatalf("a default screen is coloured: %s", c)
	}
	r := &recorder{TB: t}
	Mono(r, scr)
	if f := r.failures(); len(f) != 0 {
		t.Fatalf("Mono failed a default screen: %q", f)
	}
	scr.SetContent(2, 1, 'y', nil, tcell.StyleDefault.Foreground(tcell.ColorRed))
	scr.Show()
	cells, w, _ = scr.GetContents()
	if c := Coloured(cells, w); !strings.Contains(c, `"y" at 2,1`) {
		t.Fatalf("Coloured = %q", c)
	}
	Mono(r, scr)
	if f := r.failures(); len(f) != 1 {
		t.Fatalf("Mono passed a coloured cell: %q", f)
	}
}

func TestScreenLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s, prompt, bar string
	}{
		{"title\nYour turn\nenter fire\n", "Your turn", "enter fire"},
		{"only\n", "", "only"},
		{"", "", ""},
	} {
		if got := PromptLine(tc.s); got != tc.prompt {
			t.Errorf("PromptLine(%q) = %q, want %q", tc.s, got, tc.prompt)
		}
		if got := KeyBar(tc.s); got != tc.bar {
			t.Errorf("KeyBar(%q) = %q, want %q", tc.s, got, tc.bar)
		}
	}
	if !Ended("… you won …") || !Ended("CHEATING DETECTED") || Ended("Your turn") {
		t.Fatal("Ended misreads the end of a match")
	}
}

// keyBox records the keys and clicks it is sent.
type keyBox struct {
	*tview.Box
	got []string
}

func (b *keyBox) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return func(ev *tcell.EventKey, _ func(tview.Primitive)) {
		if ev.Key() == tcell.KeyRune {
			b.got = append(b.got, string(ev.Rune()))
		} else {
			b.got = append(b.got, tcell.KeyNames[ev.Key()])
		}
	}
}

func (b *keyBox) MouseHandler() func(tview.MouseAction, *tcell.EventMouse, func(tview.Primitive)) (bool, tview.Primitive) {
	return func(a tview.MouseAction, ev *tcell.EventMouse, _ func(tview.Primitive)) (bool, tview.Primitive) {
		x, y := ev.Position()
		b.got = append(b.got, fmt.Sprintf("mouse %d at %d,%d", a, x, y))
		return true, b
	}
}

func TestPressAndClick(t *testing.T) {
	t.Parallel()
	b := &keyBox{Box: tview.NewBox()}
	Press(t, b, "ab", tcell.KeyEnter)
	Click(b, 3, 4)
	want := []string{"a", "b", "Enter", fmt.Sprintf("mouse %d at 3,4", tview.MouseLeftDown), fmt.Sprintf("mouse %d at 3,4", tview.MouseLeftClick)}
	if strings.Join(b.got, "|") != strings.Join(want, "|") {
		t.Fatalf("sent %q, want %q", b.got, want)
	}
	r := &recorder{TB: t}
	Press(r, b, 42)
	if f := r.failures(); len(f) != 1 || f[0] != "keys: int" {
		t.Fatalf("Press of an int: %q", f)
	}
}

func TestPickHand(t *testing.T) {
	t.Parallel()
	b := &keyBox{Box: tview.NewBox()}
	tabs := func() int {
		n := 0
		for _, k := range b.got {
			if k == "Tab" {
				n++
			}
		}
		return n
	}
	PickHand(t, b, 2, tabs)
	PickHand(t, b, 11, func() int { return 9 + tabs() })
	if strings.Join(b.got, "|") != "3|Tab|Tab" {
		t.Fatalf("sent %q, want the digit 3 then tab to card 11", b.got)
	}
	r := &recorder{TB: t}
	PickHand(r, b, 12, func() int { return 0 })
	if len(r.failures()) != 1 {
		t.Fatal("a hand that tab never moves did not fail")
	}
}

func TestFixture(t *testing.T) {
	t.Parallel()
	tv := tview.NewTextView().SetText("hello\nworld")
	f := NewFixture(t, tv, 10, 3)
	if x, y, ok := f.Find("world"); !ok || x != 0 || y != 1 {
		t.Fatalf("Find = %d, %d, %v\n%s", x, y, ok, f.Text())
	}
	f.Must("hello", "world")
	r := &recorder{TB: t}
	(&Fixture{T: r, P: tv, Sim: f.Sim}).Must("nowhere")
	if len(r.failures()) != 1 {
		t.Fatal("Must passed without the text on screen")
	}
	if s := Text(Render(t, tv, 5, 1)); s != "hello\n" {
		t.Fatalf("Render = %q", s)
	}
}

func TestTermWaits(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	lines := []string(nil)
	set := func(l ...string) { mu.Lock(); lines = l; mu.Unlock() }
	sim := NewSim(t, 10, 2)
	m := &Term{T: t, Sim: sim, Read: func() []string { mu.Lock(); defer mu.Unlock(); return lines }, Timeout: 2 * time.Second}
	go func() {
		time.Sleep(20 * time.Millisecond)
		set("seq 41", "ready")
	}()
	if s := m.WaitFor("ready", "seq"); s != "seq 41\nready\n" {
		t.Fatalf("WaitFor = %q", s)
	}
	if sub := m.WaitRe(regexp.MustCompile(`seq (\d+)`)); len(sub) != 2 || sub[1] != "41" {
		t.Fatalf("WaitRe = %q", sub)
	}
	go func() {
		time.Sleep(20 * time.Millisecond)
		set("gone")
	}()
	m.WaitGone("ready")
	r := &recorder{TB: t}
	slow := &Term{T: r, Sim: sim, Read: m.Read, Timeout: 20 * time.Millisecond}
	slow.WaitFor("never")
	slow.WaitRe(nil)
	if f := r.failures(); len(f) != 2 || !strings.Contains(f[0], `waited 20ms for ["never"]`) || !strings.Contains(f[0], "screen:\ngone\n") {
		t.Fatalf("failures %q", f)
	}
	slow.Keys(1.5)
	if f := r.failures(); len(f) != 3 || f[2] != "keys: float64" {
		t.Fatalf("Keys of a float: %q", f)
	}
}

// drawer is an App that draws a line on its screen until stopped.
type drawer struct {
	scr  tcell.Screen
	fail error
	stop chan struct{}
	once sync.Once
}

func (d *drawer) Run() error {
	if d.fail != nil {
		return d.fail
	}
	if err := d.scr.Init(); err != nil {
		return err
	}
	defer d.scr.Fini()
	draw := func() {
		d.scr.Clear()
		w, h := d.scr.Size()
		for i, r := range fmt.Sprintf("%dx%d", w, h) {
			d.scr.SetContent(i, 0, r, nil, tcell.StyleDefault)
		}
		d.scr.Show()
	}
	draw()
	evs := make(chan tcell.Event, 8)
	quit := make(chan struct{})
	go d.scr.ChannelEvents(evs, quit)
	defer close(quit)
	for {
		select {
		case <-d.stop:
			return nil
		case ev := <-evs:
			switch ev := ev.(type) {
			case *tcell.EventResize:
				draw()
			case *tcell.EventKey:
				if ev.Key() == tcell.KeyRune {
					d.scr.SetContent(0, 1, ev.Rune(), nil, tcell.StyleDefault)
					d.scr.Show()
				}
			}
		}
	}
}

func (d *drawer) Stop() { d.once.Do(func() { close(d.stop) }) }

func TestStartRunsAndStops(t *testing.T) {
	t.Parallel()
	scr := NewScreen()
	d := &drawer{scr: scr, stop: make(chan struct{})}
	u := Start(t, d, scr, 12, 3, Options{Wait: 5 * time.Second})
	u.WaitFor("12x3")
	u.Keys("k")
	u.WaitFunc("the key", 5*time.Second, func(s string) bool { return strings.Contains(s, "\nk") })
	u.Resize(20, 4)
	u.WaitFor("20x4")
	if cells, w := u.Cells(); w != 20 || len(cells) != 80 {
		t.Fatalf("cells %d wide %d", len(cells), w)
	}
	u.Stop()
	u.Stop()

	r := &recorder{TB: t}
	bad := NewScreen()
	Start(r, &drawer{scr: bad, fail: errors.New("no terminal"), stop: make(chan struct{})}, bad, 10, 2, Options{})
	if f := r.failures(); len(f) == 0 || !strings.Contains(f[0], "stopped before drawing: no terminal") {
		t.Fatalf("failures %q", f)
	}
	Start(r, nil, nil, 1, 1, Options{})
	if f := r.failures(); len(f) != 2 {
		t.Fatalf("Start without an application: %q", f)
	}
}

// fakeGame is the least engine.Game a view request needs.
type fakeGame struct {
	engine.Game
	need engine.Need
	hash engine.Digest
}

func (g *fakeGame) Next() engine.Need   { return g.need }
func (g *fakeGame) Hash() engine.Digest { return g.hash }
func (g *fakeGame) Clone() engine.Game  { c := *g; return &c }

// fakeView records what it is shown and asked.
type fakeView struct {
	board.View
	shown  board.Snapshot
	asked  *board.Request
	prompt string
}

func (v *fakeView) Prompt() string { return v.prompt }

func (v *fakeView) Show(s board.Snapshot) { v.shown = s }
func (v *fakeView) Ask(r *board.Request)  { v.asked = r }

func TestReferee(t *testing.T) {
	t.Parallel()
	k := board.Known{}
	k.Add(0, "grid", [][]byte{{1}, {2}})
	k.Add(1, "grid", [][]byte{{3}})
	if own := Own(k, 1); len(own) != 1 || own[engine.Slot{Owner: 1, Name: "grid"}][0] != 3 {
		t.Fatalf("Own = %v", own)
	}
	op := Open(t, k, []engine.Slot{{Owner: 0, Name: "grid", Index: 1}})
	if len(op) != 1 || op[0].Value[0] != 2 {
		t.Fatalf("Open = %v", op)
	}
	r := &recorder{TB: t}
	Open(r, k, []engine.Slot{{Owner: 1, Name: "grid", Index: 5}})
	if len(r.failures()) != 1 {
		t.Fatal("Open of an unknown slot did not fail")
	}
	rng, again := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	in := Roll(rng, engine.Need{Kind: engine.NeedRandom, Count: 3, Bound: 6})
	if in.Kind != engine.NeedRandom || in.Seat != engine.NoSeat || len(in.Random) != 3 {
		t.Fatalf("Roll = %+v", in)
	}
	for i, v := range in.Random {
		if w := again.IntN(6); v != w {
			t.Fatalf("roll %d is %d, want %d (drawn in order)", i, v, w)
		}
	}
	if in := Roll(rng, engine.Need{Count: -1}); len(in.Random) != 0 {
		t.Fatalf("Roll of a bad need = %v", in.Random)
	}
	g := &fakeGame{need: engine.Need{Kind: engine.NeedMove, Seat: 1}}
	v := &fakeView{}
	req := Ask(v, g, 1, Own(k, 1), "ann", "bob")
	if v.asked != req || req.Seat != 1 || req.Need.Kind != engine.NeedMove || v.shown.Seat != 1 || v.shown.Name(1) != "bob" {
		t.Fatalf("Ask: shown %+v, asked %+v", v.shown, req)
	}
	Answer(r, req)
	if len(r.failures()) != 2 {
		t.Fatal("Answer of an unanswered request did not fail")
	}
	Move(r, req, func([]byte) (int, error) { return 0, errors.New("not a move") })
	if f := r.failures(); len(f) != 4 || !strings.Contains(f[3], "does not decode") {
		t.Fatalf("Move of an unanswered request that does not decode: %q", f)
	}
	// A refusal that says why and changes nothing passes; one that does
	// not say why, or changes the game, fails.
	Refuses(t, v, req, g, "", func() { v.prompt = "refused: no such card" })
	Refuses(r, v, req, g, "out of the cone", func() { g.hash[0]++ })
	if f := r.failures(); len(f) != 6 || !strings.Contains(f[4], "lacks") || !strings.Contains(f[5], "changed the game") {
		t.Fatalf("Refuses of a silent refusal that changed the game: %q", f)
	}
}

func TestSettleWaitFileAndAlternate(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	lines := []string{"seq 1"}
	set := func(l ...string) { mu.Lock(); lines = l; mu.Unlock() }
	read := func() []string { mu.Lock(); defer mu.Unlock(); return lines }
	sim := NewSim(t, 10, 1)
	m := &Term{T: t, Sim: sim, Read: read}
	go func() {
		time.Sleep(20 * time.Millisecond)
		set("seq 2")
	}()
	if !m.Settle(5*time.Second, func(l []string) bool { return l[0] == "seq 2" }) {
		t.Fatal("Settle missed the change")
	}
	if m.Settle(20*time.Millisecond, func(l []string) bool { return l[0] == "seq 3" }) {
		t.Fatal("Settle saw a change that never came")
	}

	path := filepath.Join(t.TempDir(), "invite")
	go func() {
		time.Sleep(20 * time.Millisecond)
		_ = os.WriteFile(path, []byte("  code-1\n"), 0o644)
	}()
	if got := m.WaitFile(path, 5*time.Second); got != "code-1" {
		t.Fatalf("WaitFile = %q", got)
	}
	r := &recorder{TB: t}
	(&Term{T: r, Sim: sim, Read: read}).WaitFile(filepath.Join(t.TempDir(), "none"), 20*time.Millisecond)
	if f := r.failures(); len(f) != 1 || !strings.Contains(f[0], "screen:\nseq 2\n") {
		t.Fatalf("WaitFile of a missing file: %q", f)
	}

	turns := []int{}
	Alternate(t, "four turns", 5*time.Second, []*Term{m, m}, func() bool { return len(turns) == 4 }, func(i int) bool {
		turns = append(turns, i)
		return true
	})
	if fmt.Sprint(turns) != "[0 1 0 1]" {
		t.Fatalf("turns %v", turns)
	}
	Alternate(r, "a turn", 20*time.Millisecond, []*Term{m, m}, func() bool { return false }, func(int) bool { return false })
	if f := r.failures(); len(f) != 2 || !strings.Contains(f[1], "waited 20ms for a turn\nplayer 0 screen:\nseq 2\n\nplayer 1 screen:") {
		t.Fatalf("Alternate with nobody acting: %q", f)
	}
}

// TestTable plays a whole coordinate-card match on a Table, one
// commitment answered through a view's request, and checks the table
// fails on a need it cannot meet.
func TestTable(t *testing.T) {
	t.Parallel()
	g, err := cards.New(engine.Setup{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	tb := NewTable(t, g, rand.New(rand.NewPCG(3, 4)), cards.NewStrongBot(rand.New(rand.NewPCG(3, 0))), cards.NewStrongBot(rand.New(rand.NewPCG(3, 1))))
	tb.Names = []string{"ann", "bot"}
	n := tb.G.Next()
	if n.Kind != engine.NeedCommit {
		t.Fatalf("the match starts with %s", n.Kind)
	}
	v := &fakeView{}
	req := tb.Ask(v, n.Seat)
	d, err := tb.Bots[n.Seat].Decide(context.Background(), tb.G.Clone(), n.Seat, tb.Own(n.Seat), n)
	if err != nil {
		t.Fatal(err)
	}
	if err := req.Reply(d); err != nil {
		t.Fatal(err)
	}
	tb.Answer(req)
	if got := len(tb.Own(n.Seat)); got != n.Size {
		t.Fatalf("the table keeps %d of the %d committed values", got, n.Size)
	}
	if v.shown.Name(1) != "bot" {
		t.Fatalf("the view was shown %v", v.shown.Names)
	}
	if tb.Until(func(g *cards.Game) bool { return false }) {
		t.Fatal("Until reports a stop that never held")
	}
	if !tb.G.Outcome().Done {
		t.Fatal("Until stopped before the end")
	}

	r := &recorder{TB: t}
	over := NewTable(r, tb.G, tb.Rng)
	over.Step()
	if f := r.failures(); len(f) != 1 || !strings.Contains(f[0], "no input for") {
		t.Fatalf("a step after the end: %q", f)
	}
	fresh, _ := cards.New(engine.Setup{Seats: 2})
	NewTable(r, fresh, tb.Rng).Step()
	if f := r.failures(); len(f) != 2 || !strings.Contains(f[1], "no bot for") {
		t.Fatalf("a step with no bots: %q", f)
	}
}

// TestBadInputFailsWithoutPanicking hands the helpers nothing where they
// expect something: they fail the test or do nothing, never panic.
func TestBadInputFailsWithoutPanicking(t *testing.T) {
	t.Parallel()
	r := &recorder{TB: t}
	Press(r, nil, "x")
	Mouse(nil, tview.MouseLeftClick, 1, 1)
	Click(nil, 1, 1)
	Render(r, nil, 2, 2)
	if s := (&Fixture{T: r}).Text(); s != "" {
		t.Fatalf("an empty fixture drew %q", s)
	}
	(&Term{T: r}).Keys("x")
	(&Term{T: r}).Click(1, 1)
	if l := (&Term{T: r}).Lines(); l != nil {
		t.Fatalf("a terminal without a reader read %q", l)
	}
	if req := Ask(nil, nil, 0, nil); req != nil {
		t.Fatal("Ask without a view made a request")
	}
	Show(nil, nil, 0, nil)
	Answer(r, nil)
	if in := Roll(nil, engine.Need{Count: 2, Bound: 6}); len(in.Random) != 2 || in.Random[0] != 0 {
		t.Fatalf("Roll without a source = %v", in.Random)
	}
	Mono(r, nil)
	if got := len(r.failures()); got != 5 {
		t.Fatalf("%d failures, want 5 (Press, Render, Keys, Answer, Mono): %q", got, r.failures())
	}
}
