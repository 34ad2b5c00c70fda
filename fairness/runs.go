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
