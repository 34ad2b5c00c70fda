package fairness

import (
	"errors"
	"fmt"
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// Pre-shares (issue 15, point 3): a dice share sent before its roll.
//
// In a two-player match a roll often follows only steps nobody chooses: a
// card game's flip roll, the defender's forced opening of the flipped card,
// then the draw roll; a sea dogfight's opening and its two rolls; the
// set-up's first-player roll and the deals. A seat's share of such a roll
// waited for the steps before it although none of them could change it
// (it is the next link of a chain committed at the hello), and each wait
// was a flight that carried only that share.
//
// So a seat may close a message, once the match waits for the other seat's
// step and that step is no decision (a share, an opening, a reveal, an
// unmasking), with up to maxPreshares pre-shares: its next dice links, in
// chain order, each checked against its chain at once. Whenever the match
// then waits for the seat's share of a roll, its oldest pre-share is that
// share, applied at once as if the seat had sent it there (it adds no line
// to the record: every peer and the auditor apply it the same way), so the
// roll completes in the other seat's message.
//
// A pre-share must never go into a roll after a decision it could inform:
// whoever holds the other seat's pre-share and its own next link knows the
// roll. So every decision (any input but a share, pre-share, opening,
// reveal or unmasking: moves, automatic answers included, commitments,
// choices, hellos, deck keys, shuffles, releases) voids every pending
// pre-share of both seats: its links count as used (the chain moves past
// them) and the rolls after the decision take links nobody has seen. A
// voided link offered again fails its chain. Voiding is never anyone's
// choice: it follows from the rules' next step. The seat that sends a
// pre-share chooses only whether and how many, and that steers no roll:
// every link it can send is fixed by its chain, and every roll takes each
// seat's links in chain order, sent early or in the roll alike. Only a
// decision skips links (the voided ones), and it voids both seats'
// pre-shares, so the rolls after it pair links of the other seat revealed
// only after the choice of how many to send.
//
// Continued chains (Dice) need one more rule. A seat names its next chain's
// tip in the share (or pre-share) of its chain's last link, and may pick
// that chain freely: were the other seat's pre-shares pending then, it
// could pick the new chain to suit the rolls they go into. So naming a
// next chain voids the other seat's pending pre-shares (the rolls after
// take links revealed after the new tip), and at a chain's last link a
// seat must name its next chain while the other has pre-shares pending (it
// cannot keep an old chain going, to void them or not at will). Nor may it
// send that link as a pre-share then: whether to send a pre-share is the
// seat's choice, and would be a choice to void them. Sent as a share, the
// link comes in the roll the chain's order puts it in, which the seat
// cannot move: every roll takes the seats' links in chain order, pre-shared
// or not, and only a decision, which voids every pre-share, skips links.

// Pre-shares exist only in two-player matches, and never before both
// hellos (the other seat's first step is its hello, a decision). They
// take no place of a parallel group: a message at a group's place that
// closes with pre-shares is one contribution to the group all the same
// (contributions), so the members after it keep their places; a member
// itself holds only its contribution.

// InPreshare is a dice link sent before the roll it goes into (a
// pre-share): fields link and, at a chain's last link, next.
const InPreshare InputKind = "preshare"

// maxPreshares bounds the pre-shares one seat may have pending.
const maxPreshares = 4

// ErrPreshare is wrapped by every refusal of a pre-share.
var ErrPreshare = errors.New("pre-share refused")

// errPreshareTable refuses a pre-share at a table of more than two: the
// voiding rules pair one seat's links with the other's (other(seat)).
// Other rules refuse most such pre-shares too (a run of rolls, say), so
// the attack test asks for this refusal by name.
var errPreshareTable = fmt.Errorf("%w: pre-shares are for two-player matches only", ErrPreshare)

// preshare is one pending pre-share: the link, and the seat's last
// revealed link after it (the link, or the next chain's tip it names).
type preshare struct {
	link, after Digest
}

// Preshared returns how many pre-shares seat has pending.
func (m *Match) Preshared(seat engine.Seat) int {
	if int(seat) < 0 || int(seat) >= len(m.pre) {
		return 0
	}
	return len(m.pre[seat])
}

// PreshareOpen reports whether seat may now close its message with
// pre-shares: see applyPreshare, which checks the same and the links.
func (m *Match) PreshareOpen(seat engine.Seat) bool {
	return m.preshareWhy(seat) == nil
}

// preshareWhy says why seat may not send a pre-share now (nil: it may).
func (m *Match) preshareWhy(seat engine.Seat) error {
	if m.oneStep {
		return fmt.Errorf("%w: a %s record has no pre-shares (salvo/3 had none)", ErrPreshare, oneStepFormat)
	}
	if len(m.keys) != 2 {
		return errPreshareTable
	}
	if seat != 0 && seat != 1 {
		// A pre-share is the one input that waits for no turn, so nothing
		// else checks its seat: a replay that stages a record's inputs
		// without checking their senders (CountFlights, the TUI's shadow)
		// hands it a stranger's (engine.NoSeat), which must not index the
		// seats' dice.
		return fmt.Errorf("%w: it comes from no seat of this match", ErrPreshare)
	}
	st, ok := m.Next()
	switch {
	case !ok:
		return fmt.Errorf("%w: the match is over", ErrPreshare)
	case m.closesRollsGroup(seat):
		// Signed at once, blind to what the roll decides (runs.go's
		// pre-shares of a group's last member): any next step takes them.
	case st.Seat == seat:
		return engine.Errorf("%w: the match waits for %s's own %s; a pre-share only closes a message", ErrPreshare, seat, st.Kind)
	case !undecided(st.Kind):
		return engine.Errorf("%w: the match waits for %s's decision (%s), which would void it at once", ErrPreshare, st.Seat, st.Kind)
	case m.laterPlaceInRun(seat):
		return engine.Errorf("%w: %s has a share's place further in the run of rolls the match is at; a pre-share would take it", ErrPreshare, seat)
	}
	if m.Preshared(seat) >= maxPreshares {
		return fmt.Errorf("%w: %d pre-shares pending already", ErrPreshare, maxPreshares)
	}
	return nil
}

// undecided reports whether an input of kind k is fixed by what its sender
// committed before (so it decides nothing a pending pre-share could
// inform): every other kind voids pending pre-shares.
func undecided(k InputKind) bool {
	switch k {
	case InShare, InPreshare, InOpen, InReveal, InUnmask:
		return true
	}
	return false
}

// applyPreshare checks a pre-share from seat and keeps it pending.
func (m *Match) applyPreshare(seat engine.Seat, in WireInput) ([]engine.Event, error) {
	if err := m.preshareWhy(seat); err != nil {
		return nil, err
	}
	if !onlyLink(in) {
		return nil, fmt.Errorf("%w: a pre-share carries its link (and at a chain's end the next chain's tip), nothing else", ErrPreshare)
	}
	link, err := decodeDigest(in.Link)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPreshare, err)
	}
	if in.Next != "" && m.Preshared(other(seat)) > 0 {
		return nil, engine.Errorf("%w: it names a next dice chain while %s has pre-shares pending; the share of a chain's last link goes in its roll", ErrPreshare, other(seat))
	}
	pos, prev := m.preshareFrom(seat)
	if err := VerifyLink(m.id, seat, prev, link); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPreshare, err)
	}
	after, err := m.linkAfter(seat, pos, link, in.Next)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPreshare, err)
	}
	if m.pre == nil {
		m.pre = make([][]preshare, len(m.keys))
	}
	m.pre[seat] = append(m.pre[seat], preshare{link: link, after: after})
	evs := []engine.Event{engine.Eventf(seat, "share", "%s revealed its preimage for its next roll ahead of it: %s ✓", seat, link.Short())}
	// At a group's last share (runs.go) the match may wait for the seat's
	// own share: the pre-share is that share at once. Anywhere else this
	// takes nothing (the match waits for the other seat's step, and a
	// share awaited with pre-shares pending is taken as soon as it is).
	more, err := m.afterInput(seat, in)
	return append(evs, more...), err
}

// onlyLink reports whether in holds nothing but a link and a next.
func onlyLink(in WireInput) bool {
	in.T, in.Link, in.Next = "", "", ""
	return in.Name == "" && in.Size == 0 && in.Root == "" && in.Move == nil && in.Open == nil && in.Full == nil &&
		in.Roll == 0 && in.Tip == "" && in.Links == 0 && in.Key == nil && in.Deck == nil && in.Proof == nil &&
		in.Shares == nil && in.Gone == nil && in.Left == nil
}

// preshareFrom returns the position (from 1) of seat's next unrevealed
// link after its pending pre-shares, and the link it must hash to.
func (m *Match) preshareFrom(seat engine.Seat) (int, Digest) {
	pend := m.pre
	if len(pend) == 0 || len(pend[seat]) == 0 {
		return m.used[seat] + 1, m.links[seat]
	}
	return m.used[seat] + len(pend[seat]) + 1, pend[seat][len(pend[seat])-1].after
}

// linkAfter is chainAfter for the link at position pos of seat's dice,
// with the rule of continued chains under pending pre-shares: at a chain's
// last link the seat must name its next chain while the other seat has
// pre-shares pending.
func (m *Match) linkAfter(seat engine.Seat, pos int, link Digest, next string) (Digest, error) {
	last := pos%m.chainLen[seat] == 0
	if next == "" {
		if last && m.Preshared(other(seat)) > 0 {
			return Digest{}, fmt.Errorf("%w: link %d ends the chain and %s has pre-shares pending: the share must name the next chain", ErrChain, pos, other(seat))
		}
		return link, nil
	}
	if !last {
		return Digest{}, fmt.Errorf("%w: the share names a next chain at link %d of a chain of %d links; only the last link's share may", ErrChain, (pos-1)%m.chainLen[seat]+1, m.chainLen[seat])
	}
	tip, err := decodeDigest(next)
	if err != nil {
		return Digest{}, fmt.Errorf("next chain's tip: %w", err)
	}
	return tip, nil
}

// other returns the other seat of a two-player match.
func other(s engine.Seat) engine.Seat { return 1 - s }

// voidPreshares voids seat's pending pre-shares: the chain moves past
// their links, which no roll will take.
func (m *Match) voidPreshares(seat engine.Seat, why string) []engine.Event {
	n := m.Preshared(seat)
	if n == 0 {
		return nil
	}
	for _, p := range m.pre[seat] {
		m.links[seat] = p.after
		m.used[seat]++
	}
	m.pre[seat] = m.pre[seat][:0]
	return []engine.Event{engine.Eventf(seat, "share", "%s's %d preimage(s) sent ahead are void (%s): its next roll takes a later link", seat, n, why)}
}

// afterInput does what pending pre-shares require once input in (from
// from) has been applied: a decision voids them all; a share naming a next
// chain voids the other seat's, but for the one the roll in progress takes
// (it goes with the link of the old chain that share reveals, fixed long
// before); then every pre-share that the match now waits for is applied
// as its seat's share.
func (m *Match) afterInput(from engine.Seat, in WireInput) ([]engine.Event, error) {
	if len(m.pre) == 0 {
		return nil, nil
	}
	var evs []engine.Event
	newChain := in.T == InShare && in.Next != ""
	switch {
	case !undecided(in.T):
		for s := range m.pre {
			evs = append(evs, m.voidPreshares(engine.Seat(s), "a decision came before their roll")...)
		}
		newChain = false
	case newChain && !m.owes(other(from)):
		evs = append(evs, m.voidPreshares(other(from), "a next dice chain was named")...)
		newChain = false
	}
	for {
		st, ok := m.Next()
		if !ok || st.Kind != InShare || m.Preshared(st.Seat) == 0 {
			return evs, nil
		}
		p := m.pre[st.Seat][0]
		got, err := m.takeShare(st, p.link, p.after) // checked against the chain when it came
		if err != nil {
			return nil, fmt.Errorf("%s's pre-share as its share of roll %d: %w", st.Seat, st.Roll, err)
		}
		m.pre[st.Seat] = m.pre[st.Seat][1:]
		evs = append(evs, got...)
		if newChain && st.Seat == other(from) {
			evs = append(evs, m.voidPreshares(st.Seat, "a next dice chain was named")...)
			newChain = false
		}
	}
}

// owes reports whether the roll being gathered still waits for seat's
// share.
func (m *Match) owes(seat engine.Seat) bool {
	j := m.gather
	return j != nil && j.need.Kind == engine.NeedRandom && slices.Contains(j.order[j.pos:], seat)
}

// contributions returns a message's inputs without its pre-shares: what
// it contributes to the step it answers (a parallel group goes on after a
// message of one contribution, see regroup).
func contributions(inputs []WireInput) []WireInput {
	n := len(inputs)
	for n > 0 && inputs[n-1].T == InPreshare {
		n--
	}
	return inputs[:n]
}

// laterPlaceInRun reports whether seat still owes a share that the run
// the match is at gave a place: a pre-share sent now would be that share,
// and the places after it would shift under the members sent for them (a
// run of rolls, runs.go).
func (m *Match) laterPlaceInRun(seat engine.Seat) bool {
	g := m.group
	return g != nil && slices.ContainsFunc(g.places, func(p Step) bool {
		return p.Seat == seat && p.Kind == InShare && (p.Roll > m.rolls || p.Roll == m.rolls && m.owes(seat))
	})
}
