package fairness

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
)

// Step is what the match waits for next: which seat must send, and what.
type Step struct {
	Seat engine.Seat // the only seat that may send now
	Kind InputKind   // the wire input kind expected (InHello, InMove, …)
	Need engine.Need // the game's need behind it
	Roll int         // for InShare: the number of the roll
	// Pos is, for InUnmask, the deck position the deal starts at; for an
	// InShare place of a run of rolls (runs.go), the position of the
	// seat's dice link it reveals (0 at any other share: the seat's next).
	Pos int
}

// Match is the shared, verifiable state of one match: the game engine plus
// everything the fairness layer tracks around it (commitments, dice chains,
// joint rolls and choices in progress, the hash chain of envelopes). Every
// peer and the auditor hold the same Match and feed it the same envelopes in
// the same order. It does no I/O.
type Match struct {
	header Header
	// oneStep is set for a record of the one-step format (oneStepFormat):
	// its parallel groups are one step each and it holds no pre-shares.
	oneStep bool
	spec    engine.Spec
	id      Digest
	keys    []crypto.PubKey
	game    engine.Game

	seq     uint64
	prev    Digest
	history []accepted // per accepted envelope, to judge stale or rival ones

	hello    []bool
	links    []Digest // each seat's last revealed dice link (the tip at first, then a next chain's tip)
	used     []int    // links each seat has revealed
	chainLen []int    // links per chain of each seat's dice, from its hello
	commits  map[commitKey]commitRec
	opened   map[commitKey][]bool // which leaves of each vector are open
	rolls    int                  // joint rolls completed
	gather   *gathering
	lastFrom engine.Seat
	decks    map[string]*sharedDeck // shared decks by name
	group    *parGroup              // the parallel group the match is at (parallel.go)
	pre      [][]preshare           // per seat, its pre-shares pending (preshare.go)

	resigned engine.Seat
	broken   *Violation
	releases int    // InRelease inputs accepted (release.go)
	removed  uint64 // seats taken off the table, bit s for seat s (remove.go)
	// cuts holds, for the envelope accepted last, where each input's
	// events start among its events: the audit keeps them (AuditStep.Cuts)
	// so that a reader can tell what each input did.
	cuts []int
	// inMessage counts the inputs applied since the last message was
	// accepted or sealed: a seat's silence can be claimed only as the
	// first input of a message (removalFits).
	inMessage int
	// msg holds what the contributions applied since then were (runs.go,
	// laterRollOfRun).
	msg msgContribs
	// stated is the state hash the last message was recorded with
	// (advance), while stated.ok: apply, the one path by which anything
	// changes the match, clears it. The referee notes the state after
	// every message it takes or sends, which hashed the game a second
	// time (issue 15, point 6).
	stated struct {
		h  Digest
		ok bool
	}
}

type accepted struct {
	prev Digest
	hash Digest
	from engine.Seat
	// base is, at a member's place of a parallel group, the group's base
	// ID, which a message there may name as its Prev instead of prev;
	// member says the accepted message did, baseSeq is the base's number.
	base    Digest
	baseSeq uint64
	member  bool
}

// inPlace reports whether a message naming prev was signed for this place:
// after the message before it, or, at a member's place, after the base.
func (a accepted) inPlace(prev string) bool {
	return hexIs(prev, a.prev) || a.base != (Digest{}) && hexIs(prev, a.base)
}

type commitKey struct {
	owner engine.Seat
	name  string
}

type commitRec struct {
	root Digest
	size int
	auth *authNodes // the nodes openings proved, made at the first opening
}

// gathering tracks a need that several seats contribute to (a joint roll,
// a hidden choice, a shuffle, a deal) while the contributions come in. It
// is not the joint audit (joint.go), which reads several records of one
// match together.
type gathering struct {
	need    engine.Need
	order   []engine.Seat // who contributes, in the order they must send
	pos     int
	shares  map[engine.Seat]Digest // dice links
	reveal  bool                   // choice: commits done, now opening; shuffle: keys done, now shuffling
	choices map[engine.Seat][]byte
}

// NewMatch starts the shared state of a match from its header.
func NewMatch(spec engine.Spec, h Header) (*Match, error) {
	id, keys, err := h.check(spec)
	if err != nil {
		return nil, err
	}
	g, err := spec.New(engine.Setup{Seats: len(h.Players), Variant: h.Variant})
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", spec.Name, err)
	}
	n := len(h.Players)
	m := &Match{
		header: h, spec: spec, id: id, keys: keys, game: g,
		prev:  id,
		hello: make([]bool, n), links: make([]Digest, n), used: make([]int, n), chainLen: make([]int, n),
		commits: map[commitKey]commitRec{}, opened: map[commitKey][]bool{}, decks: map[string]*sharedDeck{}, lastFrom: engine.NoSeat, resigned: engine.NoSeat,
	}
	m.oneStep = h.Format == oneStepFormat
	m.regroup(id, false, "", m.StateHash())
	return m, nil
}

// ID returns the match ID.
func (m *Match) ID() Digest { return m.id }

// Header returns the match header.
func (m *Match) Header() Header { return m.header }

// Game returns the engine. Callers must not change it.
func (m *Match) Game() engine.Game { return m.game }

// Seq returns the number of envelopes accepted so far.
func (m *Match) Seq() uint64 { return m.seq }

// Seats returns the number of players.
func (m *Match) Seats() int { return len(m.keys) }

// Broken returns the violation that stopped the match, if any.
func (m *Match) Broken() *Violation { return m.broken }

// Done reports whether the match is over: the game ended or a seat resigned.
func (m *Match) Done() bool { return m.resigned != engine.NoSeat || m.game.Outcome().Done }

// Outcome returns the result, counting a resignation.
func (m *Match) Outcome() engine.Outcome {
	if m.resigned != engine.NoSeat {
		return m.forfeitOutcome(m.resigned, engine.Wordsf("%s resigned", m.resigned))
	}
	return m.game.Outcome()
}

// StateHash digests the game state together with the fairness state around
// it; it is what every envelope's body states.
func (m *Match) StateHash() Digest {
	if m.stated.ok {
		return m.stated.h
	}
	// A joint need's progress counts, but not whether its bookkeeping has
	// been set up yet (Next does that lazily), so a fresh one hashes as none.
	pos, reveal := 0, 0
	if j := m.gather; j != nil {
		pos = j.pos
		if j.reveal {
			reveal = 1
		}
	}
	h := newHasher("salvo/state/1").digest(m.game.Hash()).int(m.rolls).int(int(m.resigned)).int(pos).int(reveal)
	if m.releases > 0 {
		// Only matches in which a seat went out hash it, so every record
		// made before releases existed keeps its state hashes.
		h = h.int(m.releases)
	}
	if m.removed != 0 {
		h = h.uint(m.removed) // likewise: only matches a player left
	}
	return h.sum()
}

// Next returns what the match waits for. Before a seat's first input it must
// say hello (its dice-chain tip), and no dice preimage is taken before every
// seat has said hello, so nobody picks a chain after seeing another's links.
func (m *Match) Next() (Step, bool) {
	if m.Done() || m.broken != nil {
		return Step{}, false
	}
	need := m.game.Next()
	if need.Kind == engine.NeedNone {
		return Step{}, false
	}
	if st, ok := m.releaseStep(need); ok {
		return st, true
	}
	switch need.Kind {
	case engine.NeedRandom, engine.NeedChoice, engine.NeedShuffle, engine.NeedDeal:
		for _, s := range m.helloOrder(need) {
			if !m.hello[s] && !m.Removed(s) {
				return Step{Seat: s, Kind: InHello, Need: need}, true
			}
		}
		for s := range m.hello {
			if !m.hello[s] && !m.Removed(engine.Seat(s)) {
				return Step{Seat: engine.Seat(s), Kind: InHello, Need: need}, true
			}
		}
		j := m.gatherFor(need)
		if len(j.order) == 0 {
			// Nobody left to contribute (a game bug, not a player's fault).
			return Step{}, false
		}
		st := Step{Seat: j.order[j.pos], Need: need}
		switch {
		case need.Kind == engine.NeedRandom:
			st.Kind, st.Roll = InShare, m.rolls
		case need.Kind == engine.NeedShuffle && j.reveal:
			st.Kind = InShuffle
		case need.Kind == engine.NeedShuffle:
			st.Kind = InDeckKey
		case need.Kind == engine.NeedDeal:
			st.Kind = InUnmask
			if d := m.decks[need.Name]; d != nil {
				st.Pos = d.dealt
			}
		case j.reveal:
			st.Kind = InReveal
		default:
			st.Kind = InChoose
		}
		return st, true
	}
	st := Step{Seat: need.Seat, Need: need}
	if st.Seat < 0 || int(st.Seat) >= len(m.keys) {
		// A game bug, not a player's fault; report it as the game's.
		return Step{}, false
	}
	if !m.hello[st.Seat] {
		st.Kind = InHello
		return st, true
	}
	switch need.Kind {
	case engine.NeedMove:
		st.Kind = InMove
	case engine.NeedCommit:
		st.Kind = InCommit
	case engine.NeedOpen:
		st.Kind = InOpen
	default:
		st.Kind = InputKind("unsupported:" + need.Kind.String())
	}
	return st, true
}

// helloOrder returns the contributors of a joint need in the order they
// say hello (order), or none once every seat still in the match has said
// it: then no contributor is asked for one, and Next, which an audit asks
// several times for every input, builds no order.
func (m *Match) helloOrder(need engine.Need) []engine.Seat {
	for s, said := range m.hello {
		if !said && !m.Removed(engine.Seat(s)) {
			return m.order(need)
		}
	}
	return nil
}

// order returns the contributors of a joint need in the order they send: the
// seat that sent last goes first (so it can add its share to the envelope it
// is building), then the others in seat order, and the seat that acts on a
// roll goes last (so its share rides with the move that uses the roll).
//
// A later roll of a run of rolls (runs.go) takes its contributors in seat
// order: the run's places were fixed at its base, before anyone knew who
// would send last or, in some games, which seat acts on the roll.
func (m *Match) order(need engine.Need) []engine.Seat {
	if need.Kind == engine.NeedRandom && m.laterRollOfRun() {
		return m.jointSeats(need)
	}
	return m.orderAfter(need, m.lastFrom)
}

// jointSeats returns the contributors of joint need in seat order.
func (m *Match) jointSeats(need engine.Need) []engine.Seat {
	seats := slices.Clone(need.Seats)
	if len(seats) == 0 {
		for s := range m.keys {
			seats = append(seats, engine.Seat(s))
		}
	}
	slices.Sort(seats)
	return seats
}

// orderAfter is order as it stands once last has sent the last input (a
// run of rolls asks it of the rolls ahead, runs.go).
func (m *Match) orderAfter(need engine.Need, last engine.Seat) []engine.Seat {
	var seats []engine.Seat
	if need.Kind == engine.NeedDeal {
		seats = m.dealers(need)
		slices.Sort(seats)
	} else {
		seats = m.jointSeats(need) // any joint need's contributors, in seat order
	}
	if i := slices.Index(seats, last); i > 0 {
		seats = append(seats[i:], seats[:i]...)
	}
	if need.Kind == engine.NeedRandom && need.Seat != engine.NoSeat {
		if i := slices.Index(seats, need.Seat); i >= 0 {
			seats = append(slices.Delete(seats, i, i+1), need.Seat)
		}
	}
	return seats
}

func (m *Match) gatherFor(need engine.Need) *gathering {
	if m.gather == nil {
		m.gather = &gathering{need: need, order: m.order(need), shares: map[engine.Seat]Digest{}, choices: map[engine.Seat][]byte{}}
	}
	return m.gather
}

// apply checks one input from seat and applies it. It is the single path by
// which anything changes the match, for local and remote inputs alike.
func (m *Match) apply(from engine.Seat, in WireInput) ([]engine.Event, error) {
	m.stated.ok = false
	st, ok := m.Next()
	if !ok {
		return nil, errors.New("the match is over")
	}
	if in.T == InPreshare {
		evs, err := m.applyPreshare(from, in)
		if err == nil {
			m.inMessage++
		}
		return evs, err
	}
	if in.T == InRemove {
		evs, err := m.applyRemove(from, in)
		if err == nil {
			m.inMessage++
			m.msg.note(in.T)
		}
		return evs, err
	}
	if in.T == InResign {
		if st.Seat != from {
			return nil, engine.Errorf("resigned out of turn (it is %s's turn)", st.Seat)
		}
		m.resigned = from
		m.lastFrom = from
		m.inMessage++
		m.msg.note(in.T)
		return []engine.Event{engine.Eventf(from, "resign", "%s resigned", from)}, nil
	}
	if st.Seat != from {
		return nil, engine.Errorf("out of turn: the match waits for %s's %s", st.Seat, st.Kind)
	}
	if in.T != st.Kind {
		return nil, engine.Errorf("sent %q where the match waits for %q (%s)", in.T, st.Kind, describe(st.Need))
	}
	if in.Next != "" && in.T != InShare {
		// Only a share continues a dice chain; older Salvo refused the
		// field everywhere, and nothing else may carry it unread.
		return nil, fmt.Errorf("%s names a next dice chain, which only a share may", in.T)
	}
	evs, err := m.applyKind(st, in)
	if err != nil {
		return nil, err
	}
	m.lastFrom = from
	m.inMessage++
	m.msg.note(in.T)
	more, err := m.afterInput(from, in)
	if err != nil {
		return nil, err
	}
	return append(evs, more...), nil
}

// describe says what n asks for: its prompt, or its kind and name.
func describe(n engine.Need) engine.Words {
	if n.Prompt != "" {
		return n.Asks()
	}
	if n.Name != "" {
		return engine.Plain(n.Kind.String() + " " + n.Name)
	}
	return engine.Plain(n.Kind.String())
}

func (m *Match) applyKind(st Step, in WireInput) ([]engine.Event, error) {
	from := st.Seat
	switch st.Kind {
	case InHello:
		tip, err := decodeDigest(in.Tip)
		if err != nil {
			return nil, fmt.Errorf("hello: dice-chain tip: %w", err)
		}
		if in.Links < 1 || in.Links > 1<<24 {
			return nil, fmt.Errorf("hello: chain length %d out of range", in.Links)
		}
		m.hello[from], m.links[from], m.chainLen[from] = true, tip, in.Links
		return []engine.Event{engine.Eventf(from, "hello", "%s committed dice chain %s", from, tip.Short())}, nil

	case InCommit:
		root, err := decodeDigest(in.Root)
		if err != nil {
			return nil, fmt.Errorf("commit %s: root: %w", in.Name, err)
		}
		if in.Name != st.Need.Name || in.Size != st.Need.Size {
			return nil, fmt.Errorf("commit %q of %d leaves where the rules ask for %q of %d", in.Name, in.Size, st.Need.Name, st.Need.Size)
		}
		key := commitKey{from, in.Name}
		if _, dup := m.commits[key]; dup {
			return nil, fmt.Errorf("commit %q: already committed", in.Name)
		}
		c := &engine.Commitment{Owner: from, Name: in.Name, Size: in.Size, Root: root}
		evs, err := m.game.Apply(engine.Input{Kind: engine.NeedCommit, Seat: from, Commitment: c})
		if err != nil {
			return nil, err
		}
		m.commits[key] = commitRec{root: root, size: in.Size}
		return prepend(engine.Eventf(from, "commit", "%s committed %s (%d leaves) root %s", from, in.Name, in.Size, root.Short()), evs), nil

	case InMove:
		if len(in.Move) == 0 {
			return nil, errors.New("move: empty")
		}
		want, err := m.game.MustOpen(from, in.Move)
		if err != nil {
			return nil, err
		}
		opened, err := m.checkOpenings(from, want, in.Open, in.Full, in.Shares...)
		if err != nil {
			return nil, err
		}
		evs, err := m.game.Apply(engine.Input{Kind: engine.NeedMove, Seat: from, Move: in.Move, Opened: opened})
		if err != nil {
			return nil, err
		}
		m.markOpen(opened)
		return withOpenings(from, opened, evs), nil

	case InOpen:
		opened, err := m.checkOpenings(from, st.Need.Open, in.Open, in.Full, in.Shares...)
		if err != nil {
			return nil, err
		}
		evs, err := m.game.Apply(engine.Input{Kind: engine.NeedOpen, Seat: from, Opened: opened})
		if err != nil {
			return nil, err
		}
		m.markOpen(opened)
		return withOpenings(from, opened, evs), nil

	case InShare:
		return m.applyShare(st, in)
	case InChoose:
		return m.applyChoose(st, in)
	case InReveal:
		return m.applyReveal(st, in)
	case InDeckKey:
		return m.applyDeckKey(st, in)
	case InShuffle:
		return m.applyShuffle(st, in)
	case InUnmask:
		return m.applyUnmask(st, in)
	case InRelease:
		return m.applyRelease(st, in)
	}
	return nil, fmt.Errorf("this referee cannot drive a %s need", st.Need.Kind)
}

func prepend(e engine.Event, evs []engine.Event) []engine.Event {
	return append([]engine.Event{e}, evs...)
}

func withOpenings(from engine.Seat, opened []engine.Opened, evs []engine.Event) []engine.Event {
	if len(opened) == 0 {
		return evs
	}
	e := engine.Eventf(from, "opened", "%s opened %d committed value(s), every path checks against its root", from, len(opened))
	return prepend(e, evs)
}

// checkOpenings verifies that exactly the wanted slots were opened, in
// order, each by a single opening or by a full opening of its vector, and
// that every opening matches its commitment. A full opening must not reveal
// any leaf the rules did not call for. The slots are then marked open.
func (m *Match) checkOpenings(from engine.Seat, want []engine.Slot, got []Opening, full []FullVector, shares ...[]byte) ([]engine.Opened, error) {
	fullVals := map[string][]Hex{}
	for _, f := range full {
		key := commitKey{from, f.Name}
		c, ok := m.commits[key]
		if !ok {
			return nil, fmt.Errorf("full opening: nothing was committed as %q", f.Name)
		}
		if _, dup := fullVals[f.Name]; dup {
			return nil, fmt.Errorf("full opening of %q given twice", f.Name)
		}
		if err := f.verifyAgainst(m.id, from, c.root, c.size, c.auth); err != nil {
			return nil, err
		}
		fullVals[f.Name] = f.Values
	}
	if err := m.fullWithinRules(from, want, fullVals); err != nil {
		return nil, err
	}
	out := make([]engine.Opened, len(want))
	next, nextShare := 0, 0
	for i, w := range want {
		if w.Owner == engine.NoSeat {
			if nextShare >= len(shares) {
				return nil, fmt.Errorf("no unmasking share for %s", w)
			}
			v, err := m.openShared(from, w, shares[nextShare])
			if err != nil {
				return nil, err
			}
			nextShare++
			out[i] = engine.Opened{Slot: w, Value: []byte{byte(v)}}
			continue
		}
		if vals, ok := fullVals[w.Name]; ok && w.Owner == from {
			out[i] = engine.Opened{Slot: w, Value: vals[w.Index]}
			continue
		}
		if next >= len(got) {
			return nil, fmt.Errorf("%d openings where the rules call for more (missing %s)", len(got), w)
		}
		o := got[next]
		next++
		if o.Slot != w {
			return nil, fmt.Errorf("%w: opening %d is of %s, the rules call for %s", ErrCommitment, next, o.Slot, w)
		}
		if o.Slot.Owner != from {
			return nil, fmt.Errorf("opening %d: %s belongs to %s, not the sender", next, o.Slot, o.Slot.Owner)
		}
		key := commitKey{o.Slot.Owner, o.Slot.Name}
		c, ok := m.commits[key]
		if !ok {
			return nil, fmt.Errorf("opening %d: nothing was committed as %q", next, o.Slot.Name)
		}
		c = m.proving(key, c)
		if err := o.verifyAgainst(m.id, c.root, c.size, c.auth); err != nil {
			return nil, err
		}
		out[i] = engine.Opened{Slot: o.Slot, Value: o.Value}
	}
	if next != len(got) {
		return nil, fmt.Errorf("%d openings where the rules call for %d", len(got), next)
	}
	if nextShare != len(shares) {
		return nil, fmt.Errorf("%d unmasking shares where the rules call for %d", len(shares), nextShare)
	}
	for _, o := range out {
		if o.Slot.Owner == engine.NoSeat {
			m.decks[o.Slot.Name].values[o.Slot.Index] = int(o.Value[0])
		}
	}
	return out, nil
}

// fullWithinRules refuses a full opening that reveals a leaf neither open
// already nor called for by the rules (want). The called-for leaves of
// each fully opened vector are marked in a slice per vector, not looked
// up in a map of slots, whose hashing of names was most of the check; a
// move without a full opening skips it.
func (m *Match) fullWithinRules(from engine.Seat, want []engine.Slot, fullVals map[string][]Hex) error {
	if len(fullVals) == 0 {
		return nil
	}
	wanted := make(map[string][]bool, len(fullVals))
	for name := range fullVals {
		wanted[name] = make([]bool, m.commits[commitKey{from, name}].size)
	}
	for _, w := range want {
		if bits, ok := wanted[w.Name]; ok && w.Owner == from && w.Index >= 0 && w.Index < len(bits) {
			bits[w.Index] = true
		}
	}
	for name, bits := range wanted {
		key := commitKey{from, name}
		for i := range bits {
			if !bits[i] && !m.isOpen(key, i) {
				return fmt.Errorf("full opening of %q reveals %s, which the rules keep hidden", name, engine.Slot{Owner: from, Name: name, Index: i})
			}
		}
	}
	return nil
}

// proving returns the commitment of key with the nodes its openings
// prove kept from now on (authNodes).
func (m *Match) proving(key commitKey, c commitRec) commitRec {
	if c.auth == nil {
		c.auth = newAuthNodes(c.root, c.size)
		m.commits[key] = c
	}
	return c
}

// markOpen records opened slots once their input has been applied.
func (m *Match) markOpen(opened []engine.Opened) {
	for _, o := range opened {
		key := commitKey{o.Slot.Owner, o.Slot.Name}
		bits := m.opened[key]
		if bits == nil {
			bits = make([]bool, m.commits[key].size)
			m.opened[key] = bits
		}
		if o.Slot.Index >= 0 && o.Slot.Index < len(bits) {
			bits[o.Slot.Index] = true
		}
	}
}

func (m *Match) isOpen(key commitKey, i int) bool {
	bits := m.opened[key]
	return i >= 0 && i < len(bits) && bits[i]
}

// fullyOpenable reports whether opening slots would leave no leaf of the
// vector name of owner hidden, so it may be opened whole.
func (m *Match) fullyOpenable(owner engine.Seat, name string, slots []engine.Slot) bool {
	key := commitKey{owner, name}
	c, ok := m.commits[key]
	if !ok {
		return false
	}
	covered := make([]bool, c.size)
	for _, s := range slots {
		if s.Owner == owner && s.Name == name && s.Index >= 0 && s.Index < c.size {
			covered[s.Index] = true
		}
	}
	for i := range covered {
		if !covered[i] && !m.isOpen(key, i) {
			return false
		}
	}
	return true
}

func (m *Match) applyShare(st Step, in WireInput) ([]engine.Event, error) {
	from := st.Seat
	if in.Roll != st.Roll {
		return nil, fmt.Errorf("dice share for roll %d, the match is at roll %d", in.Roll, st.Roll)
	}
	link, err := decodeDigest(in.Link)
	if err != nil {
		return nil, fmt.Errorf("dice share: %w", err)
	}
	if err := VerifyLink(m.id, from, m.links[from], link); err != nil {
		return nil, fmt.Errorf("roll %d (%s): %w", st.Roll, st.Need.Name, err)
	}
	after, err := m.chainAfter(from, link, in.Next)
	if err != nil {
		return nil, fmt.Errorf("roll %d (%s): %w", st.Roll, st.Need.Name, err)
	}
	return m.takeShare(st, link, after)
}

// takeShare adds the checked link of st's seat to the roll st waits for
// (after is the seat's last revealed link once it is in), and completes
// the roll when it is the last.
func (m *Match) takeShare(st Step, link, after Digest) ([]engine.Event, error) {
	from := st.Seat
	j := m.gather
	if j.pos < len(j.order)-1 {
		// Not the last share: record it and wait for the others.
		j.shares[from] = link
		m.links[from] = after
		m.used[from]++
		j.pos++
		return []engine.Event{engine.Eventf(from, "share", "%s revealed its preimage for roll %d (%s): %s ✓", from, st.Roll, st.Need.Name, link.Short())}, nil
	}
	// The shares, the seats and the event's arguments of a roll of up to
	// four seats stay on the stack (a roll completes for a third of the
	// messages an audit replays).
	var shareBuf [4]Share
	var seatBuf [4]engine.Seat
	var argBuf [3 + 2*4]any
	shares := shareBuf[:0]
	j.shares[from] = link
	seats := append(seatBuf[:0], j.order...)
	slices.Sort(seats)
	for _, s := range seats {
		shares = append(shares, Share{Seat: s, Link: j.shares[s]})
	}
	vals, err := RollValues(m.id, m.rolls, st.Need.Name, st.Need.Count, st.Need.Bound, shares)
	if err != nil {
		delete(j.shares, from)
		return nil, err
	}
	evs, err := m.game.Apply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: vals})
	if err != nil {
		delete(j.shares, from)
		return nil, fmt.Errorf("roll %q: the game refused its values: %w", st.Need.Name, err)
	}
	m.links[from] = after
	m.used[from]++
	m.rolls++
	m.gather = nil
	args := append(argBuf[:0], st.Roll, st.Need.Name, vals)
	for _, s := range shares {
		args = append(args, s.Seat, s.Link.Short())
	}
	return prepend(engine.Eventf(engine.NoSeat, "roll", rollFormat(len(shares)), args...), evs), nil
}

// rollFormats holds the format of a roll's event for each count of shares
// up to a table's seats, built once: a roll completes for a third of the
// messages an audit replays.
var rollFormats = func() (f [9]string) {
	for n := range f {
		f[n] = "roll %d (%s) = %v from" + strings.Repeat(" %s:%s", n)
	}
	return f
}()

// rollFormat returns the format of a roll's event with n shares.
func rollFormat(n int) string {
	if n < len(rollFormats) {
		return rollFormats[n]
	}
	return "roll %d (%s) = %v from" + strings.Repeat(" %s:%s", n)
}

// chainAfter returns what a seat's share leaves as its last revealed dice
// link: the link it reveals, or, when the share names the tip of the seat's
// next chain (next, see Dice), that tip. Only the share that reveals the
// last link of a chain may name one: before, it would leave links of the
// chain unused and let the seat choose a new chain in the middle of its
// committed one. A share without a next is what every share was before
// chains continued, and is checked as it always was (but see linkAfter:
// while the other seat has pre-shares pending, the last link's share must
// name one).
func (m *Match) chainAfter(seat engine.Seat, link Digest, next string) (Digest, error) {
	return m.linkAfter(seat, m.used[seat]+1, link, next)
}

func (m *Match) applyChoose(st Step, in WireInput) ([]engine.Event, error) {
	from, j := st.Seat, m.gather
	root, err := decodeDigest(in.Root)
	if err != nil {
		return nil, fmt.Errorf("choice commitment: %w", err)
	}
	if in.Name != st.Need.Name {
		return nil, fmt.Errorf("choice commitment named %q, the rules ask for %q", in.Name, st.Need.Name)
	}
	key := commitKey{from, in.Name}
	if _, dup := m.commits[key]; dup {
		return nil, fmt.Errorf("choice %q: already committed", in.Name)
	}
	m.commits[key] = commitRec{root: root, size: 1}
	j.pos++
	if j.pos == len(j.order) {
		j.startReveal()
	}
	return []engine.Event{engine.Eventf(from, "choose", "%s committed its choice %s: %s", from, in.Name, root.Short())}, nil
}

func (m *Match) applyReveal(st Step, in WireInput) ([]engine.Event, error) {
	from, j := st.Seat, m.gather
	want := []engine.Slot{{Owner: from, Name: st.Need.Name, Index: 0}}
	opened, err := m.checkOpenings(from, want, in.Open, nil)
	if err != nil {
		return nil, fmt.Errorf("choice %s: %w", st.Need.Name, err)
	}
	ev := engine.Eventf(from, "reveal", "%s opened its choice %s ✓", from, st.Need.Name)
	if j.pos < len(j.order)-1 {
		j.choices[from] = opened[0].Value
		j.pos++
		return []engine.Event{ev}, nil
	}
	j.choices[from] = opened[0].Value
	evs, err := m.completeChoice(st.Need)
	if err != nil {
		delete(j.choices, from)
		return nil, err
	}
	return prepend(ev, evs), nil
}

// startReveal follows the last commitment of a joint choice: everyone has
// committed, so they open in turn, starting with the last committer, who
// can open in the envelope that carried its commitment.
func (j *gathering) startReveal() {
	last := j.order[len(j.order)-1]
	j.order = append([]engine.Seat{last}, j.order[:len(j.order)-1]...)
	j.pos, j.reveal = 0, true
}

// completeChoice hands the game every opened choice of need, once the last
// one is open.
func (m *Match) completeChoice(need engine.Need) ([]engine.Event, error) {
	choices := make([][]byte, len(need.Seats))
	for i, s := range need.Seats {
		choices[i] = m.gather.choices[s]
	}
	evs, err := m.game.Apply(engine.Input{Kind: engine.NeedChoice, Seat: engine.NoSeat, Choices: choices})
	if err != nil {
		return nil, err
	}
	m.gather = nil
	return evs, nil
}
