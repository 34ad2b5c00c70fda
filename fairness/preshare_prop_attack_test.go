package fairness

import (
	"bytes"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"regexp"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// The pre-share property: two seats play random scripts of joint and solo
// rolls, moves (automatic answers too), forced openings and hidden
// choices, with dice chains of random (often short) lengths, and close
// every message with random pre-shares, honest or mutated (a wrong link, a
// link again, a skipped link, the other seat's link, extra fields, a next
// chain where none may be named, a pre-share before the seat's own step,
// one too many). Throughout:
//
//   - every mutated pre-share is refused, live and by the audit, naming
//     its sender; an honest input is never refused (the match never
//     wedges), and every peer that replays the record holds the same
//     state, pending pre-shares and dice positions alike;
//   - nobody learns a roll before every decision before it is sealed: no
//     decision comes between the first reveal of a link a roll takes and
//     the roll;
//   - no seat names a dice chain after seeing the other seat's link that
//     goes into a roll with a link of that chain (it could pick the chain
//     to suit the roll);
//   - the record audits clean.

// propSpec plays a fixed script (see randomScript).
func propSpec(script []engine.Need) engine.Spec {
	return engine.Spec{
		Name: "rolls", Title: "Rolls (property)", Rules: "rolls/1", Variants: []string{"standard"},
		MinSeats: 2, MaxSeats: 2,
		New: func(engine.Setup) (engine.Game, error) { return &rolls{script: script}, nil },
	}
}

// randomScript draws a script of n steps.
func randomScript(r *mrand.Rand, n int) []engine.Need {
	var out []engine.Need
	for i := range n {
		s := engine.Seat(r.IntN(2))
		name := fmt.Sprintf("s%d", i)
		switch r.IntN(9) {
		case 0, 1:
			out = append(out, engine.Need{Kind: engine.NeedRandom, Seat: engine.NoSeat, Name: name, Count: 1, Bound: 6})
		case 2:
			out = append(out, engine.Need{Kind: engine.NeedRandom, Seat: s, Name: name, Count: 1, Bound: 6})
		case 3:
			out = append(out, engine.Need{Kind: engine.NeedRandom, Seat: s, Seats: []engine.Seat{s}, Name: name, Count: 1, Bound: 6})
		case 4:
			out = append(out, engine.Need{Kind: engine.NeedMove, Seat: s, Prompt: "decide"})
		case 5:
			out = append(out, engine.Need{Kind: engine.NeedMove, Seat: s, Prompt: "answer", Auto: true})
		case 6, 7:
			out = append(out, engine.Need{Kind: engine.NeedOpen, Seat: s, Prompt: "open"})
		default:
			out = append(out, engine.Need{Kind: engine.NeedChoice, Seats: []engine.Seat{0, 1}, Name: name, Prompt: "choose"})
		}
	}
	return out
}

// propPlay is one match of the property: the table, its script, the
// dice, and what the checker knows of who saw which link when.
type propPlay struct {
	*preTable
	r     *mrand.Rand
	spec  engine.Spec
	votes map[string]*Vector // choices by seat and name
	clock int                // inputs applied so far
	// seen[s][p]: when seat s's link p was first revealed; named[s][i]:
	// when seat s named its chain i (0: its hello).
	seen, named [2]map[int]int
	decided     []int             // when each decision was applied
	short       map[string][2]int // a link's short form: its seat and position
}

var rollLinks = regexp.MustCompile(`[0-9a-f]{8}`)

func newPropPlay(t *testing.T, r *mrand.Rand) *propPlay {
	script := randomScript(r, 6+r.IntN(18))
	spec := propSpec(script)
	lens := []int{1, 2, 3, 5, 64}
	keys := testKeys(t, 2)
	h, err := NewHeader(spec, "standard", testHeader(t, spec, keys).Players)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMatch(spec, h)
	if err != nil {
		t.Fatal(err)
	}
	p := &propPlay{preTable: &preTable{t: t, h: h, keys: keys, m: m}, r: r, spec: spec, votes: map[string]*Vector{}, short: map[string][2]int{}}
	for s := range 2 {
		d := newDice(m.ID(), engine.Seat(s), newHasher("prop seed").int(s).int(r.IntN(1<<30)).sum(), lens[r.IntN(len(lens))], true)
		p.dice = append(p.dice, d)
		for k := 1; k <= 4*len(script)+16; k++ {
			l, _, err := d.Share(k)
			if err != nil {
				t.Fatal(err)
			}
			p.short[l.Short()] = [2]int{s, k}
		}
		p.seen[s], p.named[s] = map[int]int{}, map[int]int{}
	}
	return p
}

// honest is the honest input for the step the match waits for.
func (p *propPlay) honest(st Step) WireInput {
	switch st.Kind {
	case InHello:
		return p.hello(st.Seat)
	case InShare:
		if st.Pos > 0 { // a later roll's place in a run of rolls
			return p.shareAt(st.Seat, st.Pos, st.Roll)
		}
		return p.share(st.Seat)
	case InMove:
		return move()
	case InOpen:
		return WireInput{T: InOpen}
	case InChoose:
		v, err := NewVector(p.m.ID(), st.Seat, st.Need.Name, [][]byte{{byte(p.r.IntN(3))}})
		if err != nil {
			p.t.Fatal(err)
		}
		p.votes[fmt.Sprint(st.Seat, st.Need.Name)] = v
		return WireInput{T: InChoose, Name: st.Need.Name, Root: hexDigest(v.Root())}
	case InReveal:
		o, err := p.votes[fmt.Sprint(st.Seat, st.Need.Name)].Open(0)
		if err != nil {
			p.t.Fatal(err)
		}
		return WireInput{T: InReveal, Open: []Opening{o}}
	}
	p.t.Fatalf("no honest input for %+v", st)
	return WireInput{}
}

// mutant is a pre-share of seat that must be refused: which, and how.
func (p *propPlay) mutant(seat engine.Seat) (WireInput, string) {
	pos, _ := p.m.preshareFrom(seat)
	in := p.preAt(seat, pos)
	switch p.r.IntN(8) {
	case 0:
		in.Link = hexDigest(newHasher("forged").int(p.r.IntN(1 << 30)).sum())
		return in, "a forged link"
	case 1:
		if pos < 2 {
			return p.preAt(seat, pos+1), "a skipped link"
		}
		return p.preAt(seat, pos-1), "a link again"
	case 2:
		return p.preAt(seat, pos+1), "a skipped link"
	case 3:
		op, _ := p.m.preshareFrom(other(seat))
		return p.preAt(other(seat), op), "the other seat's link"
	case 4:
		in.Roll = 1 + p.r.IntN(3)
		return in, "a roll number"
	case 5:
		in.Move = []byte(`{}`)
		return in, "a move"
	case 6:
		if in.Next == "" {
			in.Next = hexDigest(newHasher("tip").int(p.r.IntN(1 << 30)).sum())
			return in, "a next chain mid-chain"
		}
		in.Next = ""
		if p.m.Preshared(other(seat)) > 0 {
			return in, "a chain's last link without its next while the other has pre-shares pending"
		}
		return p.preAt(seat, pos+1), "a skipped link"
	default:
		in.T = InShare
		in.Roll = p.m.rolls
		if st, ok := p.m.Next(); ok && st.Seat != seat && st.Kind == InShare {
			return in, "a share out of turn"
		}
		in.T, in.Roll = InPreshare, 0
		in.Name = "x"
		return in, "a name"
	}
}

// stage applies seat's input to the table's match and feeds the checker.
func (p *propPlay) stage(seat engine.Seat, in WireInput) error {
	pos := p.linkPos(seat, in)
	evs, err := p.m.Stage(seat, in)
	if err != nil {
		return err
	}
	p.observe(seat, in, pos, evs)
	return nil
}

// linkPos is the position of the link in, from seat, would reveal.
func (p *propPlay) linkPos(seat engine.Seat, in WireInput) int {
	if in.T == InPreshare {
		pos, _ := p.m.preshareFrom(seat)
		return pos
	}
	return p.m.used[seat] + 1
}

// observe feeds the checker an input of seat applied at link position
// pos (for a share or pre-share), with its events.
func (p *propPlay) observe(seat engine.Seat, in WireInput, pos int, evs []engine.Event) {
	p.clock++
	now := p.clock
	switch {
	case in.T == InShare || in.T == InPreshare:
		if _, ok := p.seen[seat][pos]; !ok {
			p.seen[seat][pos] = now
		}
		if _, ok := p.named[seat][pos/p.dice[seat].Len()]; !ok && in.Next != "" {
			p.named[seat][pos/p.dice[seat].Len()] = now
		}
	case in.T == InHello:
		p.named[seat][0] = now
	case !undecided(in.T):
		p.decided = append(p.decided, now)
	}
	for _, ev := range evs {
		if ev.Kind == "roll" {
			p.checkRoll(ev.Text, now)
		}
	}
}

// member sends, now and then, the contribution of a seat owed to the
// parallel group the match is at as a member, at one of its places after
// a random one, before the messages of the places before it: it returns
// the member, to be applied when its number comes (deliver), and the
// member's input.
func (p *propPlay) member() (*Envelope, WireInput, bool) {
	g := p.m.group
	if g == nil || len(g.places) < 2 || p.r.IntN(2) == 0 {
		return nil, WireInput{}, false
	}
	i := 1 + p.r.IntN(len(g.places)-1) // a run of rolls has several places a seat
	seat := g.places[i].Seat
	seq, _, _, st, ok := p.m.MemberPlace(seat, g.seq+uint64(i))
	if !ok {
		return nil, WireInput{}, false
	}
	e, in := p.signMember(seat, seq, st)
	return e, in, true
}

// signMember signs seat's honest member for place seq (step st) of the
// group the match is at, and notes that its link, if any, is out.
func (p *propPlay) signMember(seat engine.Seat, seq uint64, st Step) (*Envelope, WireInput) {
	in := p.honest(st)
	e, err := p.m.Member(seat, seq, in, func(e *Envelope) error { return e.Sign(p.keys[seat]) })
	if err != nil {
		p.t.Fatal(err)
	}
	if in.T == InShare {
		// Its link is out from now on: the first contributor may hold
		// it before it sends its own message (and names a next chain or
		// pre-shares in it).
		p.clock++
		pos := p.m.used[seat] + 1
		if st.Pos > 0 {
			pos = st.Pos
		}
		p.seen[seat][pos] = p.clock
		if in.Next != "" {
			p.named[seat][pos/p.dice[seat].Len()] = p.clock
		}
	}
	return e, in
}

// takeMember applies a member when its number comes: an honest member
// sent at once is never refused.
func (p *propPlay) takeMember(e *Envelope, in WireInput) {
	seat := p.h.Seat(e.From)
	if e.Seq != p.m.Seq()+1 {
		p.t.Fatalf("member %d held while the match is at %d", e.Seq, p.m.Seq())
	}
	pos := p.linkPos(seat, in)
	evs, err := p.m.Accept(e)
	if err != nil {
		p.t.Fatalf("seat %d's honest member %d (%s), sent at once, refused: %v", seat, e.Seq, in.T, err)
	}
	p.envs = append(p.envs, e)
	p.observe(seat, in, pos, evs)
}

// deliver plays the messages before member e's number, one a place, and
// takes e when its number comes; a member whose group a message broke
// meanwhile (a seat's two places in one message, legal) is orphaned: a
// run of rolls can put two places of other seats before it.
func (p *propPlay) deliver(e *Envelope, in WireInput) {
	for e.Seq > p.m.Seq()+1 && p.stands(e) {
		p.message()
	}
	if !p.stands(e) {
		p.orphaned(e)
		return
	}
	p.takeMember(e, in)
}

// stands reports whether member e's group is the one the match is at and
// its place is still ahead.
func (p *propPlay) stands(e *Envelope) bool {
	_, more := p.m.Next()
	g := p.m.group
	return more && g != nil && hexDigest(g.id) == e.Prev && e.Seq > p.m.Seq()
}

// orphaned checks that an honest member whose group broke is refused by a
// peer as out of its place, which proves nothing against its signer.
func (p *propPlay) orphaned(e *Envelope) {
	_, err := p.replayProp().Accept(e)
	var v *Violation
	if !errors.As(err, &v) || errors.Is(err, ErrBadMember) || !needsWitness(v) {
		p.t.Fatalf("seat %d's orphaned member %d: %v, want it refused as out of its place, needing a witness", p.h.Seat(e.From), e.Seq, err)
	}
}

// checkRoll checks a roll completed at time now against what was seen.
func (p *propPlay) checkRoll(text string, now int) {
	var links [][2]int
	for _, sh := range rollLinks.FindAllString(text, -1) {
		if l, ok := p.short[sh]; ok {
			links = append(links, l)
		}
	}
	if len(links) == 0 {
		p.t.Fatalf("roll %q: no known link", text)
	}
	first := now
	for _, l := range links {
		at, ok := p.seen[l[0]][l[1]]
		if !ok {
			p.t.Fatalf("roll %q takes link %d of seat %d, never revealed", text, l[1], l[0])
		}
		first = min(first, at)
	}
	for _, d := range p.decided {
		if d > first && d <= now {
			p.t.Fatalf("roll %q: a decision (input %d) came after its first link was out (input %d), before the roll (input %d)", text, d, first, now)
		}
	}
	for _, a := range links {
		chain := (a[1] - 1) / p.dice[a[0]].Len()
		for _, b := range links {
			if b[0] == a[0] {
				continue
			}
			if p.seen[b[0]][b[1]] < p.named[a[0]][chain] {
				p.t.Fatalf("roll %q: seat %d named the chain of its link %d (input %d) after seat %d's link %d was out (input %d)", text, a[0], a[1], p.named[a[0]][chain], b[0], b[1], p.seen[b[0]][b[1]])
			}
		}
	}
}

// message plays one message of the seat the match waits for: its honest
// inputs, then pre-shares, honest and mutated.
func (p *propPlay) message() {
	st, _ := p.m.Next()
	seat := st.Seat
	var ins []WireInput
	for {
		st, ok := p.m.Next()
		if !ok || st.Seat != seat {
			break
		}
		if len(ins) > 0 && p.r.IntN(6) == 0 {
			break // the message ends early: pre-shares before the seat's own step
		}
		in := p.honest(st)
		if err := p.stage(seat, in); err != nil {
			p.t.Fatalf("seat %d's honest %s refused (the match wedges): %v", seat, in.T, err)
		}
		ins = append(ins, in)
	}
	for range p.r.IntN(6) {
		if _, ok := p.m.Next(); !ok {
			break
		}
		if p.r.IntN(8) == 0 {
			p.strangerRefused(seat)
			continue
		}
		if p.r.IntN(3) == 0 {
			bad, what := p.mutant(seat)
			p.mustRefuse(seat, ins, bad, what)
			continue
		}
		pos, _ := p.m.preshareFrom(seat)
		pre := p.preAt(seat, pos)
		open := p.m.PreshareOpen(seat)
		err := p.stage(seat, pre)
		switch {
		case err == nil && !open:
			p.t.Fatalf("a pre-share was taken where PreshareOpen says no")
		case err == nil:
			ins = append(ins, pre)
		case !errors.Is(err, ErrChain) && !errors.Is(err, ErrPreshare):
			p.t.Fatalf("seat %d's honest pre-share: %v", seat, err)
		}
	}
	e, err := p.m.Seal(seat, ins, p.keys[seat])
	if err != nil {
		p.t.Fatal(err)
	}
	p.envs = append(p.envs, e)
	m := p.replayProp()
	if m.StateHash() != p.m.StateHash() || fmt.Sprint(m.used, m.links, m.pre) != fmt.Sprint(p.m.used, p.m.links, p.m.pre) {
		p.t.Fatalf("a peer that replayed the record holds another state after message %d", e.Seq)
	}
}

// mustRefuse checks that seat's message of ins closed with bad is refused
// live and by the audit, naming seat, and that staging it changes nothing.
func (p *propPlay) mustRefuse(seat engine.Seat, ins []WireInput, bad WireInput, what string) {
	before := fmt.Sprint(p.m.StateHash(), p.m.used, p.m.links, p.m.pre)
	if _, err := p.m.Stage(seat, bad); err == nil {
		p.t.Fatalf("seat %d's pre-share with %s was taken", seat, what)
	}
	if after := fmt.Sprint(p.m.StateHash(), p.m.used, p.m.links, p.m.pre); after != before {
		p.t.Fatalf("a refused pre-share (%s) changed the match", what)
	}
	if p.r.IntN(4) != 0 {
		return // the live and audit checks are costlier: a quarter of them
	}
	m := p.replayProp()
	e, err := m.Draft(append(ins[:len(ins):len(ins)], bad), m.StateHash(), p.keys[seat])
	if err != nil {
		p.t.Fatal(err)
	}
	_, err = m.Accept(e)
	var v *Violation
	if !errors.As(err, &v) || v.Seat != seat {
		p.t.Fatalf("live, seat %d's pre-share with %s: got %v, want a violation by seat %d", seat, what, err, seat)
	}
	rep := p.auditProp(append(p.envs[:len(p.envs):len(p.envs)], e))
	if rep.Verdict != Violated || rep.Violation.Seat != seat {
		p.t.Fatalf("audit, seat %d's pre-share with %s: %s", seat, what, rep.Summary())
	}
}

// strangerRefused stages seat's honest next pre-share as if a seat not at
// the table sent it (a replay that stages a record's inputs unchecked
// does): it is refused and changes nothing.
func (p *propPlay) strangerRefused(seat engine.Seat) {
	pos, _ := p.m.preshareFrom(seat)
	in := p.preAt(seat, pos)
	stranger := []engine.Seat{engine.NoSeat, -2, 2, 3}[p.r.IntN(4)]
	before := fmt.Sprint(p.m.StateHash(), p.m.used, p.m.links, p.m.pre)
	if _, err := p.m.Stage(stranger, in); err == nil {
		p.t.Fatalf("a pre-share staged for seat %d was taken", stranger)
	}
	if after := fmt.Sprint(p.m.StateHash(), p.m.used, p.m.links, p.m.pre); after != before {
		p.t.Fatalf("a stranger's refused pre-share changed the match")
	}
}

func (p *propPlay) replayProp() *Match {
	m, err := NewMatch(p.spec, p.h)
	if err != nil {
		p.t.Fatal(err)
	}
	for _, e := range p.envs {
		if _, err := m.Accept(e); err != nil {
			p.t.Fatalf("replay, message %d: %v", e.Seq, err)
		}
	}
	return m
}

func (p *propPlay) auditProp(envs []*Envelope) *Report {
	specs := func(string) (engine.Spec, bool) { return p.spec, true }
	var buf bytes.Buffer
	hb, err := marshalCompact(p.h)
	if err != nil {
		p.t.Fatal(err)
	}
	buf.Write(append(hb, '\n'))
	for _, e := range envs {
		b, err := EncodeEnvelope(e)
		if err != nil {
			p.t.Fatal(err)
		}
		buf.Write(append(b, '\n'))
	}
	rep, err := Audit(&buf, specs)
	if err != nil {
		p.t.Fatal(err)
	}
	return rep
}

func TestAttackPresharePropertyRandomScripts(t *testing.T) {
	seed := mrand.Uint64()
	n := 100
	if preshareRace {
		n = 25
	}
	if longRun() {
		n = 5000
	}
	t.Logf("seed %d", seed)
	for i := range n {
		r := mrand.New(mrand.NewPCG(seed, uint64(i)))
		p := newPropPlay(t, r)
		for steps := 0; ; steps++ {
			if _, ok := p.m.Next(); !ok {
				break
			}
			if steps > 500 {
				t.Fatalf("match %d (seed %d): no end after 500 messages", i, seed)
			}
			e, in, held := p.member()
			if !held || e.Seq > p.m.Seq()+1 {
				p.message()
			}
			if held {
				p.deliver(e, in)
			}
		}
		if rep := p.auditProp(p.envs); rep.Verdict != Clean {
			t.Fatalf("match %d (seed %d): %s", i, seed, rep.Summary())
		}
	}
}
