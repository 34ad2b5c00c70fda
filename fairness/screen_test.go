package fairness

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
)

// ring is a test game for group matches: seats 1 and up move in turn, seat
// 0 only watches, so a watcher's referee can be fed frames one by one with
// nothing of its own to send.
type ring struct{ seats, moves, limit int }

var ringSpec = engine.Spec{
	Name: "ring", Title: "Ring (test game)", Rules: "ring/1", Variants: []string{"standard"},
	MinSeats: 3, MaxSeats: 4,
	New: func(s engine.Setup) (engine.Game, error) { return &ring{seats: s.Seats, limit: 12}, nil },
}

func ringSpecs(name string) (engine.Spec, bool) { return ringSpec, name == "ring" }

func (g *ring) Next() engine.Need {
	if g.moves >= g.limit {
		return engine.Need{}
	}
	return engine.Need{Kind: engine.NeedMove, Seat: engine.Seat(1 + g.moves%(g.seats-1))}
}

func (g *ring) Apply(in engine.Input) ([]engine.Event, error) {
	if n := g.Next(); n.Kind != engine.NeedMove || in.Kind != engine.NeedMove {
		return nil, engine.Illegal("got %s, want %s", in.Kind, n.Kind)
	}
	g.moves++
	return nil, nil
}

func (g *ring) MustOpen(engine.Seat, []byte) ([]engine.Slot, error) { return nil, nil }
func (g *ring) Hash() engine.Digest                                 { return engine.NewHasher("ring").Int(g.moves).Sum() }
func (g *ring) Clone() engine.Game                                  { c := *g; return &c }

func (g *ring) Outcome() engine.Outcome {
	if g.moves < g.limit {
		return engine.Outcome{}
	}
	return engine.Outcome{Done: true, Winners: []engine.Seat{1}, Reason: "the ring closed"}
}

// table plays a ring match honestly, as the moving seats would, and keeps
// every message they send.
type table struct {
	t      testing.TB
	keys   []crypto.PrivKey
	m      *Match
	chains map[engine.Seat]*Dice
	sent   []*Envelope
}

func newTable(t testing.TB, keys []crypto.PrivKey) *table {
	t.Helper()
	m, err := NewMatch(ringSpec, testHeader(t, ringSpec, keys))
	if err != nil {
		t.Fatal(err)
	}
	return &table{t: t, keys: keys, m: m, chains: map[engine.Seat]*Dice{}}
}

// playAll plays the match to its end and returns every message.
func (tb *table) playAll() []*Envelope {
	for !tb.m.Done() {
		tb.next()
	}
	return tb.sent
}

// next seals the message of the seat the match waits for.
func (tb *table) next() *Envelope {
	tb.t.Helper()
	st, _ := tb.m.Next()
	seat := st.Seat
	var inputs []WireInput
	for st.Seat == seat && (st.Kind == InHello || st.Kind == InMove) {
		in := WireInput{T: InMove, Move: []byte(`{"n":1}`)}
		if st.Kind == InHello {
			c, err := NewChain(tb.m.ID(), seat)
			if err != nil {
				tb.t.Fatal(err)
			}
			tb.chains[seat] = c
			in = WireInput{T: InHello, Tip: hexDigest(c.Tip()), Links: c.Len()}
		}
		if _, err := tb.m.Stage(seat, in); err != nil {
			tb.t.Fatal(err)
		}
		inputs = append(inputs, in)
		if in.T == InMove {
			break
		}
		st, _ = tb.m.Next()
	}
	e, err := tb.m.Seal(seat, inputs, tb.keys[seat])
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.sent = append(tb.sent, e)
	return e
}

// watcher is seat 0's referee of a ring match, fed frames by hand.
type watcher struct {
	*Referee
	path string
	tw   *TranscriptWriter
}

type nopTransport struct{}

func (nopTransport) Send(context.Context, []byte) error { return nil }
func (nopTransport) Recv(ctx context.Context) ([]byte, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func newWatcher(t testing.TB, tb *table) *watcher {
	t.Helper()
	m, err := NewMatch(ringSpec, tb.m.Header())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "watcher.jsonl")
	tw, err := CreateTranscript(path, tb.m.Header())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tw.Close() })
	r, err := NewReferee(Config{Match: m, Seat: 0, Key: tb.keys[0], Agent: &peekBot{}, Transport: nopTransport{}, Transcript: tw})
	if err != nil {
		t.Fatal(err)
	}
	return &watcher{Referee: r, path: path, tw: tw}
}

// feed hands the watcher an envelope whose pubsub author is seat by.
func (w *watcher) feed(t testing.TB, e *Envelope, by engine.Seat) {
	t.Helper()
	b, err := EncodeEnvelope(e)
	if err != nil {
		t.Fatal(err)
	}
	w.feedRaw(t, b, by)
}

func (w *watcher) feedRaw(t testing.TB, b []byte, by engine.Seat) {
	t.Helper()
	err := w.handleFrame(context.Background(), frame{b: b, from: w.m.Header().Players[by].Peer})
	if err != nil && !errors.Is(err, errIgnored) {
		t.Fatalf("frame by seat %d: %v", by, err)
	}
}

// innocent fails the test if the watcher blamed anyone but guilty (NoSeat:
// anyone at all).
func (w *watcher) innocent(t testing.TB, guilty engine.Seat) {
	t.Helper()
	if v := w.res.Violation; v != nil && v.Seat != guilty {
		t.Fatalf("the watcher blames seat %d: %v", v.Seat, v)
	}
	if c := w.res.Closing; c != nil && engine.Seat(c.Seat) != guilty {
		t.Fatalf("the watcher's closing blames seat %d: %+v", c.Seat, c)
	}
}

// finished checks that the watcher accepted every message of the match
// and that its transcript audits clean.
// playOn feeds the match's messages from all[from] on, each from its
// signer, and checks that the match then ends with nobody blamed.
func (w *watcher) playOn(t testing.TB, tb *table, all []*Envelope, from int) {
	t.Helper()
	for _, e := range all[from:] {
		w.feed(t, e, tb.m.Header().Seat(e.From))
	}
	w.finished(t, all)
}

func (w *watcher) finished(t testing.TB, all []*Envelope) {
	t.Helper()
	w.innocent(t, engine.NoSeat)
	if w.m.Seq() != uint64(len(all)) || !w.m.Done() {
		t.Fatalf("the watcher is at message %d of %d (held: %s)", w.m.Seq(), len(all), &w.early)
	}
	if err := w.tw.Close(); err != nil {
		t.Fatal(err)
	}
	rep := auditRing(t, w.path)
	if rep.Verdict != Clean {
		t.Fatalf("audit: %s", rep.Summary())
	}
}

func auditRing(t testing.TB, path string) *Report {
	t.Helper()
	rep, err := AuditFile(path, ringSpecs)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// forge is what a player (key) writes in another seat's name: a copy of e,
// numbered seq, that claims to come from the seat e comes from, with a
// signature by key, which therefore does not verify.
func forge(t testing.TB, e *Envelope, seq uint64, key crypto.PrivKey) *Envelope {
	t.Helper()
	f := *e
	f.Seq, f.verified = seq, false
	if err := f.Sign(key); err != nil {
		t.Fatal(err)
	}
	f.From = e.From
	return &f
}

// otherMatch is e as its signer (key) would have signed it in another
// match among the same players.
func otherMatch(t testing.TB, e *Envelope, key crypto.PrivKey) *Envelope {
	t.Helper()
	f := *e
	f.Match, f.verified = strings.Repeat("ab", 32), false
	if err := f.Sign(key); err != nil {
		t.Fatal(err)
	}
	return &f
}

// Class 4 of issue 12, framing in a group match: a player publishes, in
// the name of the seat that moves next, an envelope whose signature does
// not verify, once ahead of that seat's message (held early on main,
// first one winning) and once at its place. On main every honest referee
// blamed the innocent seat; now the forgeries are dropped, the innocent
// seat's real messages are accepted, and the match ends clean.
func TestRegressionClass4GroupFraming(t *testing.T) {
	for _, n := range []int{3, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			keys := testKeys(t, n)
			tb := newTable(t, keys)
			all := tb.playAll()
			w := newWatcher(t, tb)
			const framer = 1
			forged := 0
			for _, e := range all {
				seat := tb.m.Header().Seat(e.From)
				if seat != framer {
					// Before another seat's message: a forgery in its name
					// at its place, and one a message ahead.
					w.feed(t, forge(t, e, e.Seq, keys[framer]), framer)
					w.feed(t, forge(t, e, e.Seq+1, keys[framer]), framer)
					forged += 2
				}
				w.feed(t, e, seat)
				if seat != framer {
					// And a late one, once the real one is in.
					w.feed(t, forge(t, e, e.Seq, keys[framer]), framer)
					forged++
				}
			}
			w.finished(t, all)
			if w.res.Dropped != forged {
				t.Fatalf("dropped %d frames, the framer sent %d forgeries", w.res.Dropped, forged)
			}
		})
	}
}

// A seat that replays envelopes, this match's old ones and others' from
// another match among the same players (validly signed by their seats),
// gets nobody blamed and breaks nothing: copies are ignored, other
// matches' envelopes dropped.
func TestGroupReplaysBlameNobody(t *testing.T) {
	keys := testKeys(t, 3)
	tb := newTable(t, keys)
	all := tb.playAll()
	w := newWatcher(t, tb)
	const replayer = 1
	for i, e := range all {
		for _, old := range all[:i] {
			w.feed(t, old, replayer)
		}
		// Another match's messages, validly signed by the seats that
		// send this match's next one and the one after (a replayer's own
		// would be its own fault).
		for _, x := range all[i:min(i+2, len(all))] {
			if signer := tb.m.Header().Seat(x.From); signer != replayer {
				w.feed(t, otherMatch(t, x, keys[signer]), replayer)
			}
		}
		w.feed(t, e, tb.m.Header().Seat(e.From))
	}
	w.finished(t, all)
	if w.res.Dropped == 0 {
		t.Fatal("no replay from another match was dropped")
	}
}

// The seat whose envelope it is may still be blamed for its own bad
// frame: a badly signed envelope it authored, in its own name.
func TestGroupOwnBadFrameIsBlamedOnItsAuthor(t *testing.T) {
	keys := testKeys(t, 3)
	tb := newTable(t, keys)
	all := tb.playAll()
	w := newWatcher(t, tb)
	w.feed(t, all[0], 1)
	bad := forge(t, all[1], all[1].Seq, keys[1]) // seat 2's message, signed by seat 1
	w.feed(t, bad, 2)                            // but published by seat 2 itself
	if v := w.res.Violation; v == nil || v.Seat != 2 || !errors.Is(v, ErrSignature) {
		t.Fatalf("violation %v, want seat 2's bad signature", w.res.Violation)
	}
}

// Of two validly signed envelopes of one number that arrive ahead of their
// turn, the first does not block the second: the seat the match waits for
// goes first, and the other, out of turn, is blamed on its own signer.
func TestGroupEarlyValidMessageIsNotBlocked(t *testing.T) {
	keys := testKeys(t, 3)
	tb := newTable(t, keys)
	all := tb.playAll()
	w := newWatcher(t, tb)
	w.feed(t, all[0], 1)
	// Messages 1 and 3 are seat 1's, 2 and 4 seat 2's. Seat 1 also signs
	// a message 4 of its own, right after its message 3, out of turn.
	rival := &Envelope{Match: all[3].Match, Seq: 4, Prev: all[3].Prev, Body: all[3].Body}
	if err := rival.Sign(keys[1]); err != nil {
		t.Fatal(err)
	}
	w.feed(t, all[1], 2)
	w.feed(t, rival, 1)  // ahead: held
	w.feed(t, all[3], 2) // ahead: held too, not blocked
	w.feed(t, all[2], 1) // message 3: then 4 in order
	if w.m.Seq() < 4 {
		t.Fatalf("the watcher is at message %d: the real message 4 was blocked", w.m.Seq())
	}
	if v := w.res.Violation; v == nil || v.Seat != 1 || !errors.Is(v, ErrOutOfTurn) {
		t.Fatalf("violation %v, want seat 1's message out of turn", w.res.Violation)
	}
}

// A signer's envelopes held ahead of their turn are bounded in count and
// bytes; the ones numbered furthest ahead go first; the other seats' share
// is untouched; a copy or a third version of one number is refused; and
// the seat the match waits for is taken first.
func TestEarlyBufferBounds(t *testing.T) {
	env := func(seq uint64, tag string) *Envelope {
		return &Envelope{Seq: seq, Body: []byte(`"` + tag + `"`), Sig: tag}
	}
	var b earlyBuffer
	if !b.hold(env(5, "other"), 2, 1000, "p2") {
		t.Fatal("the other seat's envelope was refused")
	}
	for i := range 100 {
		b.hold(env(uint64(10+i), "flood"), 1, 300<<10, "p1")
	}
	if b.count[1] > maxEarlyPerSeat || b.bytes[1] > maxEarlyBytesPerSeat {
		t.Fatalf("seat 1 holds %d envelopes, %d bytes", b.count[1], b.bytes[1])
	}
	if got := b.total; got > maxEarlyBytesPerSeat+1000 {
		t.Fatalf("%d bytes held in all", got)
	}
	if low, _ := b.lowest(); low != 5 {
		t.Fatalf("lowest %d, want 5", low)
	}
	if b.count[2] != 1 {
		t.Fatal("the flood evicted another seat's envelope")
	}
	for i := range b.count[1] {
		if len(b.held[uint64(10+i)]) != 1 {
			t.Fatalf("message %d is not held: the lowest numbers must stay", 10+i)
		}
	}
	// Over the byte bound the largest go first: a small one ahead of
	// large ones stays.
	var big earlyBuffer
	big.hold(env(50, "small"), 1, 2000, "p1")
	for i := range 10 {
		big.hold(env(uint64(10+i), "large"), 1, 600<<10, "p1")
	}
	if len(big.held[50]) != 1 || big.bytes[1] > maxEarlyBytesPerSeat {
		t.Fatalf("the small envelope went first (%s)", &big)
	}
	for i := range 100 { // many small ones: the count bound
		b.hold(env(uint64(200+i), "small"), 3, 10, "p3")
	}
	if b.count[3] != maxEarlyPerSeat {
		t.Fatalf("seat 3 holds %d envelopes, want %d", b.count[3], maxEarlyPerSeat)
	}
	var c earlyBuffer
	if !c.hold(env(7, "a"), 1, 10, "p1") || !c.hold(env(7, "a"), 1, 10, "p1") || c.count[1] != 1 {
		t.Fatal("a copy was held twice")
	}
	for i := range 2 * maxEarlyPerSeat {
		c.hold(env(7, fmt.Sprint("v", i)), 1, 10, "p1")
	}
	if !c.hold(env(7, "d"), 2, 10, "p2") {
		t.Fatal("a seat's versions blocked another seat's envelope of the same number")
	}
	got := c.take(7, 2)
	if len(got) != maxEarlyPerSeat+1 || got[0].seat != 2 || got[1].e.Sig != "a" || c.total != 0 || len(c.count) != 0 {
		t.Fatalf("take: %d envelopes, first from seat %d, %d bytes left", len(got), got[0].seat, c.total)
	}
}

// Frames that carry no valid signature of the seat they name are never held.
func TestGroupNothingHeldBeforeItsSignatureVerifies(t *testing.T) {
	keys := testKeys(t, 3)
	tb := newTable(t, keys)
	all := tb.playAll()
	w := newWatcher(t, tb)
	for i := range 8 {
		big := forge(t, all[1], uint64(3+i), keys[1])
		big.Body = []byte(`{"inputs":[{"t":"move","move":"` + strings.Repeat("x", 900<<10) + `"}],"state":""}`)
		w.feed(t, big, 1)
	}
	if w.res.HeldPeak != 0 || w.early.total != 0 {
		t.Fatalf("held %d bytes of forgeries (peak %d)", w.early.total, w.res.HeldPeak)
	}
	for _, e := range all {
		w.feed(t, e, tb.m.Header().Seat(e.From))
	}
	w.finished(t, all)
}

func init() {
	// -long runs the adversary suites for minutes. It is registered here
	// unless another test file of the package already has (package-level
	// variables are initialised before any init runs).
	if flag.Lookup("long") == nil {
		flag.Bool("long", false, "run the adversary suites for minutes")
	}
}

// longRun reports whether -long was given; without it, the CI budget
// applies.
func longRun() bool {
	f := flag.Lookup("long")
	return f != nil && f.Value.String() == "true"
}

// The adversary suite for group matches, at the referee: one player (seat
// 1 at three seats) or two colluding (seats 1 and 3 at four, sharing their
// keys), holding every message seen so far, with the messages of the
// others arriving in a random order, send at random forgeries in any other
// seat's name (the watcher's too), copies of old messages (also with their
// signature spelled another way), the others' validly signed messages of
// another match, and junk validly signed by themselves at places of the
// chain they cannot know. The watcher never blames anyone, holds at most
// its bounds, and accepts every real message (or, if the adversaries made
// it lose one of their own, waits for them: see earlyBuffer.hold).
func TestGroupAdversaryNeverFramesAnother(t *testing.T) {
	runs := 40
	if longRun() {
		runs = 3000
	}
	tries, stalls := 0, 0
	tables := map[int]*table{} // one match of each size: dice chains are slow to make
	for run := range runs {
		r := rand.New(rand.NewPCG(uint64(run), 12))
		n := 3 + r.IntN(2)
		if tables[n] == nil {
			tables[n] = newTable(t, testKeys(t, n))
			tables[n].playAll()
		}
		tb := tables[n]
		adv := &adversaries{tb: tb, seats: []engine.Seat{1, 3}[:n-2], r: r}
		w := newWatcher(t, tb)
		order := r.Perm(len(tb.sent))
		// Real messages arrive out of order, but never more than a few
		// ahead of each other (as on a topic).
		for i := range order {
			j := min(len(order)-1, i+r.IntN(3))
			order[i], order[j] = order[j], order[i]
		}
		for _, k := range order {
			for range r.IntN(4) {
				tries++
				adv.send(t, w)
			}
			e := tb.sent[k]
			w.feed(t, e, tb.m.Header().Seat(e.From))
		}
		if st, _ := w.m.Next(); w.m.Seq() < uint64(len(tb.sent)) {
			w.innocent(t, engine.NoSeat)
			if !slices.Contains(adv.seats, st.Seat) {
				t.Fatalf("run %d: stalled at %d/%d waiting for seat %d (held: %s)", run, w.m.Seq(), len(tb.sent), st.Seat, &w.early)
			}
			stalls++
			continue
		}
		w.finished(t, tb.sent)
		if w.res.HeldPeak > int64(n)*maxEarlyBytesPerSeat {
			t.Fatalf("run %d: held %d bytes", run, w.res.HeldPeak)
		}
	}
	t.Logf("%d runs, %d adversary frames; %d runs stalled on an adversary's own message", runs, tries, stalls)
}

// adversaries are the dishonest seats of TestGroupAdversaryNeverFramesAnother.
type adversaries struct {
	tb    *table
	seats []engine.Seat
	r     *rand.Rand
}

// send feeds the watcher one frame published by one of the adversaries.
func (a *adversaries) send(t testing.TB, w *watcher) {
	r, h, all := a.r, a.tb.m.Header(), a.tb.sent
	author := a.seats[r.IntN(len(a.seats))]
	key := a.tb.keys[a.seats[r.IntN(len(a.seats))]]
	e := all[r.IntN(len(all))]
	signer := h.Seat(e.From)
	seq := uint64(1 + r.IntN(len(all)+2))
	switch r.IntN(6) {
	case 0: // a forgery, signed by the author, in another seat's name
		named := engine.Seat(r.IntN(len(h.Players)))
		if named == author {
			return
		}
		f := &Envelope{Match: e.Match, Seq: e.Seq, From: h.Players[named].Peer, Prev: e.Prev, Body: e.Body}
		w.feed(t, forge(t, f, seq, a.tb.keys[author]), author)
	case 1: // an old message of this match, or one not yet sent
		w.feed(t, e, author)
	case 2: // another match's message, validly signed by another seat
		if signer != author {
			w.feed(t, otherMatch(t, e, a.tb.keys[signer]), author)
		}
	case 3: // junk an adversary signed, at a place whose Prev it cannot know
		j := &Envelope{Match: e.Match, Seq: max(seq, w.m.Seq()+1), Prev: strings.Repeat("0", 64), Body: e.Body}
		if err := j.Sign(key); err != nil {
			t.Fatal(err)
		}
		w.feed(t, j, author)
	case 4: // bytes that claim another seat but carry no signature at all
		named := engine.Seat(r.IntN(len(h.Players)))
		if named == author {
			return
		}
		b := fmt.Appendf(nil, `{"match":%q,"seq":%d,"from":%q,"prev":%q,"body":{"inputs":[{"t":"resign"}],"state":""},"sig":""}`,
			e.Match, seq, h.Players[named].Peer, e.Prev)
		w.feedRaw(t, b, author)
	case 5: // a message of this match, its signature spelled another way
		b, err := EncodeEnvelope(e)
		if err != nil {
			t.Fatal(err)
		}
		w.feedRaw(t, []byte(strings.Replace(string(b), e.Sig, e.Sig[:20]+`\n`+e.Sig[20:], 1)), author)
	}
}

// A validly signed envelope proves its signer, whoever relays it: a seat
// that signs two versions of one message (equivocation) is blamed for it,
// though another seat relayed the second, whether the versions arrive in
// their place or ahead of it.
func TestGroupEquivocationIsBlamedOnItsSigner(t *testing.T) {
	for _, ahead := range []bool{false, true} {
		t.Run(fmt.Sprint("ahead=", ahead), func(t *testing.T) {
			keys := testKeys(t, 3)
			tb := newTable(t, keys)
			all := tb.playAll()
			w := newWatcher(t, tb)
			twin := *all[2] // message 3, seat 1's, in a second version
			twin.Body = []byte(`{"inputs":[{"t":"move","move":{"n":2}}],"state":"00"}`)
			if err := twin.Sign(keys[1]); err != nil {
				t.Fatal(err)
			}
			w.feed(t, all[0], 1)
			if !ahead {
				w.feed(t, all[1], 2)
			}
			w.feed(t, all[2], 1)
			w.feed(t, &twin, 2) // relayed by seat 2
			if ahead {
				w.feed(t, all[1], 2)
			}
			if v := w.res.Violation; v == nil || v.Seat != 1 || !v.Signed || !errors.Is(v, ErrSequence) {
				t.Fatalf("violation %v, want seat 1's signed equivocation", w.res.Violation)
			}
		})
	}
}

// BenchmarkGroupWatcher feeds a watcher a whole four-seat ring match, the
// messages a few places out of order (honest), and also each with a
// forgery in its seat's name published by another seat (forged): the cost
// of screening and holding. The transcript's writes (each synced) are most
// of it.
func BenchmarkGroupWatcher(b *testing.B) {
	keys := testKeys(b, 4)
	tb := newTable(b, keys)
	all := tb.playAll()
	r := rand.New(rand.NewPCG(1, 2))
	order := make([]int, len(all))
	for i := range order {
		order[i] = i
	}
	for i := range order {
		j := min(len(order)-1, i+r.IntN(3))
		order[i], order[j] = order[j], order[i]
	}
	for _, forged := range []bool{false, true} {
		type fed struct {
			b  []byte
			by engine.Seat
		}
		var frames []fed
		for _, k := range order {
			e := all[k]
			seat := tb.m.Header().Seat(e.From)
			if forged {
				other := 1 + seat%3
				fb, _ := EncodeEnvelope(forge(b, e, e.Seq, keys[other]))
				frames = append(frames, fed{fb, other})
			}
			eb, _ := EncodeEnvelope(e)
			frames = append(frames, fed{eb, seat})
		}
		b.Run(map[bool]string{false: "honest", true: "forged"}[forged], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				w := newWatcher(b, tb)
				b.StartTimer()
				for _, f := range frames {
					w.feedRaw(b, f.b, f.by)
				}
				if !w.m.Done() {
					b.Fatalf("the watcher is at %d", w.m.Seq())
				}
			}
		})
	}
}

// A relayed copy of an accepted message whose signature is spelled another
// way (a line break inside, other padding bits) is a copy, not a second
// version: its signer is not called an equivocator.
func TestGroupRespelledCopyIsACopy(t *testing.T) {
	keys := testKeys(t, 3)
	tb := newTable(t, keys)
	all := tb.playAll()
	w := newWatcher(t, tb)
	w.feed(t, all[0], 1)
	w.feed(t, all[1], 2)
	sig := all[1].Sig
	last := strings.IndexByte(sig, '=') - 1
	for _, spelled := range []string{
		sig[:40] + `\r\n` + sig[40:],
		sig[:last] + string(sig[last]+1) + sig[last+1:],
	} {
		b, err := EncodeEnvelope(all[1])
		if err != nil {
			t.Fatal(err)
		}
		b = []byte(strings.Replace(string(b), `"sig":"`+sig+`"`, `"sig":"`+spelled+`"`, 1))
		w.feedRaw(t, b, 1)
	}
	w.playOn(t, tb, all, 2)
}

// FuzzGroupFrame: whatever frame a seat publishes in the middle of a group
// match, the watcher never panics and blames nobody but that seat; if it
// blames nobody, the match goes on to its end.
func FuzzGroupFrame(f *testing.F) {
	keys := testKeys(f, 3)
	tb := newTable(f, keys)
	all := tb.playAll()
	for i, e := range all {
		b, _ := EncodeEnvelope(e)
		f.Add(b, uint8(i))
		fb, _ := EncodeEnvelope(forge(f, e, e.Seq, keys[1+i%2]))
		f.Add(fb, uint8(i))
	}
	f.Add([]byte(`{"match":"","seq":3,"from":"","prev":"","body":{},"sig":""}`), uint8(0))
	f.Add([]byte("not an envelope"), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, by uint8) {
		author := engine.Seat(1 + by%2)
		w := newWatcher(t, tb)
		w.feed(t, all[0], 1)
		w.feed(t, all[1], 2)
		w.feedRaw(t, b, author)
		w.innocent(t, author)
		if w.res.Closing != nil {
			return
		}
		w.playOn(t, tb, all, 2)
	})
}

// A seat that shows two versions of its message to different peers
// (equivocation) cannot get the honest seat after it blamed: that seat's
// message, built on the other version, is dropped here, not called out of
// sequence; the equivocator is blamed once both versions are in.
func TestGroupSignerFollowingAnotherVersionIsNotBlamed(t *testing.T) {
	keys := testKeys(t, 3)
	tb := newTable(t, keys)
	all := tb.playAll()
	w := newWatcher(t, tb)
	other := *all[0] // seat 1's message 1, in a second version this peer sees first
	other.Body = []byte(strings.Replace(string(other.Body), `"move":{"n":1}`, `"move":{"n":2}`, 1))
	if string(other.Body) == string(all[0].Body) {
		t.Fatalf("body %s has no move to change", all[0].Body)
	}
	if err := other.Sign(keys[1]); err != nil {
		t.Fatal(err)
	}
	w.feed(t, &other, 1)
	if w.m.Seq() != 1 {
		t.Fatalf("the other version was not accepted: %v", w.res.Violation)
	}
	w.feed(t, all[1], 2) // seat 2's message 2, built on the version seat 2 saw
	w.innocent(t, engine.NoSeat)
	w.feed(t, all[0], 1) // the version seat 2 saw, relayed at last
	if v := w.res.Violation; v == nil || v.Seat != 1 || !errors.Is(v, ErrSequence) {
		t.Fatalf("violation %v, want seat 1's equivocation", w.res.Violation)
	}
}
