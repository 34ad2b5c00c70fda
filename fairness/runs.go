package fairness

import (
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// Runs: a parallel group spans more than one step where the steps after
// the first cannot depend on what the earlier ones hold (issue 15 point
// 2). Each place of a run is one message holding one contribution; a seat
// with two places in a row sends two messages (Match.inRun), so that every
// place keeps its number whoever sends at once.
//
//   - Set-up: the hellos and the set-up commitments that follow one
//     another before anything else (and a shared deck's key shares right
//     after the hellos): a hello is a dice-chain tip, a commitment a root
//     that hides its values (an engine treats it as opaque, see early.go),
//     a deck key share is proved and tells nothing of a card. So all
//     players place and commit their set-up at once. The run stops at the
//     first step of any other kind: no dice share, unmasking share or
//     opening ever follows a decision in one run, so nobody sees a roll or
//     a card before the decisions before it are sealed.
//   - Deals in a row: the unmasking shares of the deals that follow one
//     another from one deck (dealsAfter).
//   - A joint choice's reveals and then, in a game that says what follows
//     them (engine.ChoiceOpener: Air's turning over of the chosen cards),
//     each chooser's opening: the run starts only once every commitment
//     of the choice is in, and an opening is fixed by the chooser's own
//     sealed choice and its deck key.
//   - Rolls in a row: the shares of a roll and of the rolls the game asks
//     after it whatever their values (rollsRun), up to a chain's last link.

// maxRun bounds the places of a set-up run (each seat's hello and a few
// commitments).
const maxRun = 64

// setupRun lists the places of the set-up run from step st (a hello or a
// commitment): it steps a copy of the match across hellos and, with
// placeholder roots, commitments, and ends with a deck's key shares.
func (m *Match) setupRun(st Step) []Step {
	game, hello, last, gather := m.game, slices.Clone(m.hello), m.lastFrom, m.gather
	m.game = game.Clone()
	defer func() { m.game, m.hello, m.lastFrom, m.gather = game, hello, last, gather }()
	var places []Step
	for next, ok := st, true; ok && len(places) < maxRun; next, ok = m.Next() {
		switch next.Kind {
		case InHello:
			m.hello[next.Seat] = true
		case InCommit:
			c := &engine.Commitment{Owner: next.Seat, Name: next.Need.Name, Size: next.Need.Size}
			if _, err := m.game.Apply(engine.Input{Kind: engine.NeedCommit, Seat: next.Seat, Commitment: c}); err != nil {
				return places
			}
		case InDeckKey:
			return append(places, m.gatherPlaces(next)...)
		default:
			return places
		}
		m.lastFrom = next.Seat
		places = append(places, next)
	}
	return places
}

// dealsAfter lists the unmasking shares of the deals that follow the deal
// of step st at once (Air refills every hand in turn), last being the
// seat that sends the last share of st's deal. A deal is no decision and
// deals nothing to a decision between: each share is fixed by its
// sender's deck key (and proved), and every decision before the run is
// sealed at its base. It steps a copy of the game across each deal (the
// positions are public) and asks the dealers and their order of the match
// as it will stand.
func (m *Match) dealsAfter(st Step, last engine.Seat) []Step {
	d := m.decks[st.Need.Name]
	if d == nil || d.holder == nil {
		return nil
	}
	game, dealt, lastFrom := m.game, d.dealt, m.lastFrom
	m.game = game.Clone()
	defer func() { m.game, d.dealt, m.lastFrom = game, dealt, lastFrom }()
	var places []Step
	for need, pos := st.Need, st.Pos; len(places) < maxRun; {
		cards := make([]int, need.Count)
		for i := range cards {
			cards[i] = pos + i
		}
		if _, err := m.game.Apply(engine.Input{Kind: engine.NeedDeal, Seat: need.Seat, Cards: cards}); err != nil {
			return places
		}
		next := m.game.Next()
		if next.Kind != engine.NeedDeal || next.Name != need.Name {
			return places
		}
		need, pos = next, pos+need.Count
		d.dealt, m.lastFrom = pos, last
		order := m.order(need)
		if len(order) == 0 || pos+need.Count > d.size {
			return places
		}
		for _, s := range order {
			places = append(places, Step{Seat: s, Kind: InUnmask, Need: need, Pos: pos})
		}
		last = order[len(order)-1]
	}
	return places
}

// opensAfter lists the openings that follow the reveals of choice need, in
// a game that says what they are (engine.ChoiceOpener). The place of an
// opening holds the choice's need: the chooser's own NeedOpen follows from
// its choice (OpenAfterChoice).
func (m *Match) opensAfter(need engine.Need) []Step {
	o, ok := m.game.(engine.ChoiceOpener)
	if !ok || need.Kind != engine.NeedChoice {
		return nil
	}
	var places []Step
	for _, s := range o.OpensAfter(need) {
		if m.Removed(s) {
			return nil // the game asks what it will after the removal
		}
		places = append(places, Step{Seat: s, Kind: InOpen, Need: need})
	}
	return places
}

// OpenAfterChoice returns the NeedOpen of seat that follows choice need, its
// own choice being choice, as the game will ask it once every choice is in.
func (m *Match) OpenAfterChoice(need engine.Need, seat engine.Seat, choice []byte) (engine.Need, bool) {
	o, ok := m.game.(engine.ChoiceOpener)
	if !ok {
		return engine.Need{}, false
	}
	n, err := o.OpenOf(need, seat, choice)
	return n, err == nil
}

// maxRollOutcomes bounds the work of looking past a roll for a run of
// rolls: the states (the outcomes of its rolls so far, told apart by
// their hashes) times the outcomes of the roll, each a copy of the game.
// The match does it at every message after which it waits for a share.
const maxRollOutcomes = 64

// rollsRun lists the places of a run of rolls (issue 15 point 3): the
// shares still owed to the roll of step st and, while the game asks
// another roll whatever the values of the rolls before it, the shares of
// that roll too. Nothing anyone chooses comes between: each share is the
// next link of a chain committed at the hello, fixed whatever the other
// shares are, so a seat may send its shares of every roll of the run at
// once, one message each, and the run costs one flight.
//
// The prediction is exact or there is no run (rollsAfter). A later roll
// takes its contributors in seat order (Match.order), so its places do
// not depend on who sends last nor on the seat that acts on it. Pre-shares
// pending at the base fill each seat's first shares, as they will when
// their turn comes (afterInput), and the seats send no new ones before the
// run's last place (preshareWhy). The run ends with the roll in which any
// seat reveals its chain's last link: its share names the seat's next
// chain, freely chosen, and no share of the other seat's for a later roll
// may be out before it (see preshare.go's continued chains).
func (m *Match) rollsRun(st Step) []Step {
	pend, pos := make([]int, len(m.keys)), make([]int, len(m.keys))
	for s := range m.keys {
		pend[s], pos[s] = m.Preshared(engine.Seat(s)), m.used[s]+1
	}
	ahead := m.rollsAfter(st.Need)
	need, seats := st.Need, m.gather.order[m.gather.pos:]
	var places []Step
	for k := 0; ; k++ {
		ends := false
		for _, s := range seats {
			ends = ends || m.chainLen[s] > 0 && pos[s]%m.chainLen[s] == 0
			if pend[s] > 0 {
				pend[s]--
			} else {
				places = append(places, Step{Seat: s, Kind: InShare, Need: need, Roll: st.Roll + k, Pos: pos[s]})
			}
			pos[s]++
		}
		if ends || k >= len(ahead) || len(places) >= maxRun {
			return places
		}
		need = ahead[k]
		seats = m.jointSeats(need)
	}
}

// rollsAfter returns the rolls that follow roll need one after another
// whatever the values: as the game says (engine.RollFollower), or, from a
// game that does not, found by playing every outcome of every roll on
// copies of the game (within maxRollOutcomes copies a roll). Each is asked of
// the same seats whatever came before. None in a match with a shared deck
// (a seat out of the game may be asked to release its shares between two
// rolls) or with a seat taken off the table.
func (m *Match) rollsAfter(need engine.Need) []engine.Need {
	if len(m.decks) > 0 || m.removed != 0 {
		return nil
	}
	var after []engine.Need
	if f, ok := m.game.(engine.RollFollower); ok {
		after = f.RollsAfter()
		if i := slices.IndexFunc(after, func(n engine.Need) bool { return n.Kind != engine.NeedRandom }); i >= 0 {
			after = after[:i]
		}
		return after
	}
	states := []engine.Game{m.game}
	for len(after) < maxRun {
		var ok bool
		if states, need, ok = rollAgain(states, need); !ok {
			break
		}
		after = append(after, need)
	}
	return after
}

// rollAgain plays every outcome of roll need on every state and returns
// the states after it with the roll they all ask next; ok is false when
// any asks anything else or another roll's seats, or they are too many.
func rollAgain(states []engine.Game, need engine.Need) ([]engine.Game, engine.Need, bool) {
	outcomes, ok := rollOutcomes(need)
	if !ok || len(states)*len(outcomes) > maxRollOutcomes {
		return nil, engine.Need{}, false
	}
	var next []engine.Game
	var asks engine.Need
	seen := map[Digest]bool{}
	for _, g := range states {
		for _, vals := range outcomes {
			c := g.Clone()
			if _, err := c.Apply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: vals}); err != nil {
				return nil, engine.Need{}, false
			}
			n := c.Next()
			switch {
			case n.Kind != engine.NeedRandom, len(next) > 0 && !slices.Equal(n.Seats, asks.Seats):
				return nil, engine.Need{}, false
			case len(next) > 0 && !sameRoll(n, asks):
				asks = engine.Need{Kind: engine.NeedRandom, Seat: engine.NoSeat, Seats: n.Seats, Prompt: "the roll that follows"}
			case len(next) == 0:
				asks = n
			}
			if h := c.Hash(); !seen[h] {
				seen[h] = true
				next = append(next, c)
			}
		}
	}
	return next, asks, true
}

// rollOutcomes lists every value vector of roll need, or ok false when
// they are more than maxRollOutcomes.
func rollOutcomes(need engine.Need) (out [][]int, ok bool) {
	if need.Count < 1 || need.Bound < 1 {
		return nil, false
	}
	n := 1
	for range need.Count {
		if n *= need.Bound; n > maxRollOutcomes {
			return nil, false
		}
	}
	for i := range n {
		vals := make([]int, need.Count)
		for k := range vals {
			vals[k], i = i%need.Bound, i/need.Bound
		}
		out = append(out, vals)
	}
	return out, true
}

// sameRoll reports whether a and b ask the same roll: a later roll's
// places then hold the game's need, else only what every outcome shares.
func sameRoll(a, b engine.Need) bool {
	return a.Kind == b.Kind && a.Seat == b.Seat && slices.Equal(a.Seats, b.Seats) && a.Name == b.Name && a.Count == b.Count && a.Bound == b.Bound
}

// laterRollOfRun reports whether the roll being started (number m.rolls)
// is a later roll of the run of rolls the match is at: the run began at
// an earlier roll and has places in this one, and the message being
// applied leaves it standing so far (one share).
//
// The last condition makes the order independent of when it is first
// asked. A message that breaks the run (two of its places at once, legal)
// starts the roll while the run still stands, and the sender, asking what
// comes next after each input it stages, saw the run's seat order; a peer
// that accepts the message asks only after it ends, when regroup has
// dropped the broken run, and saw the order after the last sender: the
// sender's match and its peers' parted.
func (m *Match) laterRollOfRun() bool {
	g := m.group
	return g != nil && m.msg.standing() && g.places[0].Kind == InShare && g.places[0].Roll < m.rolls &&
		slices.ContainsFunc(g.places, func(p Step) bool { return p.Kind == InShare && p.Roll == m.rolls })
}

// Pre-shares at a group's last share (issue 15 point 3). A roll that is
// followed by another only for some of its values (Sea's first-player
// roll: a tie rolls again) ends its run of rolls, since the run's places
// must follow from its base alone. The seat at the group's first place
// closes its message with pre-shares (the match then waits for the other
// seat's share, no decision); the seat at the last place sends a member
// signed at once, and after its share the match waits for its own share
// of the roll again or for a decision, where a pre-share was refused: so
// its share of the roll again waited for a flight of its own. Hence the
// member (or message) at the last place of a group of dice shares may
// close with pre-shares whatever the match then waits for: its own share
// (the pre-share is that share, taken at once), a step of the other seat
// that decides nothing (pending as ever), or a decision, which voids them
// at once as it voids every pending pre-share.
//
// This gives no seat a roll to steer. Each link is fixed by the seat's
// chain, and every roll takes each seat's links in chain order, sent early
// or not. The only thing the sender chooses is how many, and the links
// voided by the decision that follows are voided together with every
// pre-share of the other seat's: the rolls after that decision pair the
// sender's later links with links of the other seat's revealed only
// after it (preshare.go). A pre-share at a chain's last link, whose rule
// depends on the other seat's pending pre-shares, is never sent this way
// (memberPreshares), and the match-over check stays: the referee sends
// no more than are staged before values of the roll, or of the rolls
// after it, could end the match (safePreshares).

// closesRollsGroup reports whether the message being staged, from seat,
// is the last place of a group of dice shares, its share already in.
func (m *Match) closesRollsGroup(seat engine.Seat) bool {
	g := m.group
	if g == nil || m.seq+1 != g.seq+uint64(len(g.places)) || !g.closedByPreshares(len(g.places)-1) {
		return false
	}
	return g.places[len(g.places)-1].Seat == seat && !m.laterPlaceInRun(seat)
}

// maxPreshareCopies bounds the work of safePreshares: the copies of the
// game it plays a roll's outcomes on, over all the rolls it looks across.
// Sea's first-player roll (36 outcomes, six of them a tie that rolls
// again, each tie a state of its own) takes 36, 216 and 1,296 copies to
// clear three pre-shares, so three ties in a row still cost no flight.
const maxPreshareCopies = 2048

// safePreshares returns how many of want pre-shares may close the last
// share of a group of roll need's shares, asked by game g
// (memberPreshares): none unless some value of the roll asks its seats for
// a roll again; else as many as are staged before any values of that roll
// and of the rolls after it could end the match (nothing is accepted
// then), each roll's outcomes played on copies of the game, within
// maxPreshareCopies copies in all.
func safePreshares(g engine.Game, need engine.Need, want int) int {
	states, copies := []engine.Game{g}, 0
	for k := range want {
		var next []engine.Game
		seen := map[engine.Digest]bool{}
		keep := func(x engine.Game) {
			if h := x.Hash(); !seen[h] {
				seen[h] = true
				next = append(next, x)
			}
		}
		again := false
		for _, st := range states {
			n := st.Next()
			if n.Kind != engine.NeedRandom {
				continue // the match waits for something else: a pre-share may come
			}
			outcomes, ok := rollOutcomes(n)
			if copies += len(outcomes); !ok || copies > maxPreshareCopies {
				return k
			}
			for _, vals := range outcomes {
				c := st.Clone()
				if _, err := c.Apply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: vals}); err != nil {
					return k
				}
				if after := c.Next(); after.Kind == engine.NeedRandom && slices.Equal(after.Seats, need.Seats) {
					again = true
				}
				if mayEnd(c, need, &copies, keep) {
					return k
				}
			}
		}
		if k == 0 && !again {
			return 0
		}
		states = next
	}
	return want
}

// mayEnd reports whether game c, after one of the roll's outcomes, could
// end the match before the member's next pre-share is applied, and hands
// keep each state that waits for a roll of need's seats again (the next
// pre-share's roll). A roll of other seats costs the member no pre-share:
// the other seat's pending pre-shares (sent with its share at the group's
// first place) complete a roll of its own share at once, so such rolls
// are followed through here, and were one to end the match, the next
// pre-share would come after the end and the honest member be refused
// (a roll of the member's own seat alone is followed the same way: a
// pre-share fewer is only a flight more). Past maxPreshareCopies copies
// it answers yes.
func mayEnd(c engine.Game, need engine.Need, copies *int, keep func(engine.Game)) bool {
	n := c.Next()
	switch {
	case n.Kind == engine.NeedNone:
		return true
	case n.Kind != engine.NeedRandom:
		return false // the match waits for something else: a pre-share may come
	case slices.Equal(n.Seats, need.Seats):
		keep(c)
		return false
	}
	outcomes, ok := rollOutcomes(n)
	if *copies += len(outcomes); !ok || *copies > maxPreshareCopies {
		return true
	}
	for _, vals := range outcomes {
		x := c.Clone()
		if _, err := x.Apply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: vals}); err != nil || mayEnd(x, need, copies, keep) {
			return true
		}
	}
	return false
}

// msgContribs is what the message being applied contributed so far: how
// many inputs, pre-shares aside, and whether each was a dice share.
type msgContribs struct {
	n        int
	notShare bool
}

// note counts an applied input of kind k.
func (c *msgContribs) note(k InputKind) {
	c.n++
	c.notShare = c.notShare || k != InShare
}

// standing reports whether a run of rolls survives the message so far: at
// most one contribution, a share (a message of more, or of another kind,
// breaks the parallel group it is at: regroup).
func (c msgContribs) standing() bool { return c.n <= 1 && !c.notShare }
