package cheat

import (
	"slices"

	"github.com/gtank/ristretto255"
	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/air"
	"github.com/salvo-game/salvo/fairness"
)

// The Mission Command Air cheats (the generic forged-roll covers the dice).
const (
	// CardNotInHand commits a card choice naming a card that is not in the
	// seat's hand.
	CardNotInHand = "card-not-in-hand"
	// ChangedChoice opens a different card choice than the one committed.
	ChangedChoice = "changed-choice"
	// WrongUnmask sends an unmasking share that is not its key's.
	WrongUnmask = "wrong-unmask"
	// ShotOutOfCone fires at a plane outside the cone of fire.
	ShotOutOfCone = "shot-out-of-cone"
)

func init() {
	register("air",
		Kind{CardNotInHand, "chooses a card that is not in its hand (another squadron's)", func() (Cheat, func(engine.Agent) engine.Agent) {
			return &handCheat{}, nil
		}},
		Kind{ChangedChoice, "opens a different card choice than the one it committed to, as if it changed its mind after the commitments", func() (Cheat, func(engine.Agent) engine.Agent) {
			return &inputCheat{kinds: []fairness.InputKind{fairness.InReveal}, alter: changeChoice}, nil
		}},
		Kind{WrongUnmask, "deals another seat a card with an unmasking share that is not its key's (the receiver would read a wrong card)", func() (Cheat, func(engine.Agent) engine.Agent) {
			return &inputCheat{kinds: []fairness.InputKind{fairness.InUnmask}, alter: wrongShare}, nil
		}},
		Kind{ShotOutOfCone, "fires a cannon at an opposing plane outside its cone of fire", func() (Cheat, func(engine.Agent) engine.Agent) {
			return &inputCheat{kinds: []fairness.InputKind{fairness.InMove}, alter: shotOutOfCone}, nil
		}},
	)
}

// handCheat commits, in place of the honest choice, one that names a card
// of another squadron's hand. The engine checks choices only once every
// seat has opened its own: whoever's reveal completes them (the cheater's
// own, or an honest seat's) brings the lie to light, and every referee and
// the auditor blame the cheater, whose signed commitment and reveal prove
// it. The cheat reports firing when it opens the doctored choice.
type handCheat struct {
	doctored string // the choice name whose commitment was doctored
	done     bool
}

func (c *handCheat) AlterInput(m *fairness.Match, sec *fairness.Secrets, st fairness.Step, in *fairness.WireInput) bool {
	if c.done {
		return false
	}
	if in.T == fairness.InReveal && c.doctored == st.Need.Name {
		c.done = true
		return true // the opening is of the doctored commitment
	}
	if in.T != fairness.InChoose || c.doctored != "" {
		return false
	}
	g, ok := m.Game().(*air.Game)
	if !ok {
		return false
	}
	ch, ok := ownChoice(sec, st)
	if !ok || len(ch.Cards) == 0 {
		return false
	}
	var foreign *air.CardRef
	for s := range g.Seats() {
		if engine.Seat(s) != st.Seat {
			if hand := g.Hand(engine.Seat(s)); len(hand) > 0 {
				foreign = &hand[0]
				break
			}
		}
	}
	if foreign == nil {
		return false
	}
	ch.Cards[0].Deck, ch.Cards[0].Pos = foreign.Deck, foreign.Pos
	v, err := fairness.NewVector(m.ID(), st.Seat, st.Need.Name, [][]byte{air.EncodeChoice(ch)})
	if err != nil {
		return false
	}
	sec.Add(v)
	in.Root = v.Root().String()
	c.doctored = st.Need.Name
	// Not fired yet: a referee whose cheat has fired stops once the input
	// is out, and this lie only shows once the choices are opened.
	return false
}

func (c *handCheat) AlterEnvelope(_ *fairness.Match, e *fairness.Envelope, _ crypto.PrivKey) []*fairness.Envelope {
	return []*fairness.Envelope{e}
}

// ownChoice reads the choice the seat committed for the step's need.
func ownChoice(sec *fairness.Secrets, st fairness.Step) (air.Choice, bool) {
	b, ok := sec.Value(engine.Slot{Owner: st.Seat, Name: st.Need.Name, Index: 0})
	if !ok {
		return air.Choice{}, false
	}
	var ch air.Choice
	if engine.DecodeMove(b, &ch) != nil {
		return air.Choice{}, false
	}
	return ch, true
}

// changeChoice swaps the first plane's card for another card of the hand
// in the opening; the salt and path stay those of the committed choice.
func changeChoice(m *fairness.Match, _ *fairness.Secrets, st fairness.Step, in *fairness.WireInput) bool {
	g, ok := m.Game().(*air.Game)
	if !ok || len(in.Open) != 1 {
		return false
	}
	var ch air.Choice
	if engine.DecodeMove(in.Open[0].Value, &ch) != nil || len(ch.Cards) == 0 {
		return false
	}
	for _, ref := range g.Hand(st.Seat) {
		used := slices.ContainsFunc(ch.Cards, func(pc air.PlaneCard) bool { return pc.Deck == ref.Deck && pc.Pos == ref.Pos })
		if !used {
			ch.Cards[0].Deck, ch.Cards[0].Pos = ref.Deck, ref.Pos
			in.Open[0].Value = air.EncodeChoice(ch)
			return true
		}
	}
	return false
}

// wrongShare moves the first unmasking share's D = x·C1 by the group's
// generator and keeps its proof: the share no longer matches the seat's
// public key, and a receiver that trusted it would read another card.
func wrongShare(_ *fairness.Match, _ *fairness.Secrets, _ fairness.Step, in *fairness.WireInput) bool {
	const dAt, dLen = 4, 32 // seat (2 bytes) ‖ position (2) ‖ D ‖ e ‖ s
	if len(in.Shares) == 0 || len(in.Shares[0]) < dAt+dLen {
		return false
	}
	b := slices.Clone(in.Shares[0])
	d := ristretto255.NewElement()
	if d.Decode(b[dAt:dAt+dLen]) != nil {
		return false
	}
	d.Add(d, ristretto255.NewElement().Base())
	copy(b[dAt:dAt+dLen], d.Encode(nil))
	in.Shares = append([][]byte{b}, in.Shares[1:]...)
	return true
}

// shotOutOfCone replaces the active plane's move (before it has fired)
// with a cannon shot at an opposing plane outside both of its cones.
func shotOutOfCone(m *fairness.Match, _ *fairness.Secrets, st fairness.Step, in *fairness.WireInput) bool {
	g, ok := m.Game().(*air.Game)
	if !ok || st.Need.Auto {
		return false
	}
	at, ok := g.Active()
	if !ok || at.Fired {
		return false
	}
	var honest air.Move
	if engine.DecodeMove(in.Move, &honest) != nil || honest.Action == air.ActBonus {
		return false
	}
	me, ok := g.PlaneByID(at.Plane)
	if !ok {
		return false
	}
	for _, p := range g.Planes() {
		if p.Down || !g.Opposes(me.Seat, p.Seat) {
			continue
		}
		if !air.InCone(me.Pos, me.Heading, p.Pos, air.Cannon) && !air.InCone(me.Pos, me.Heading, p.Pos, air.Missile) {
			in.Move = air.FireMove(air.Cannon, p.ID).Encode()
			return true
		}
	}
	return false
}
