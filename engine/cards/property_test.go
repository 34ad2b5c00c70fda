package cards

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// checkInvariants checks what must hold in every state of every match.
func checkInvariants(g *Game) error {
	for s := engine.Seat(0); s < 2; s++ {
		p := &g.players[s]
		opp := &g.players[other(s)]
		if !p.coords.committed || len(p.decks) == 0 {
			continue
		}
		// Every card of the seat is somewhere: hand, pile, discard, in flight, or in play.
		n := len(p.hand) + g.pile(s) + countTotal(p.disc)
		if g.flip != nil && g.flip.attacker == s {
			n++
		}
		for _, k := range Ships {
			n += len(opp.ships[k].pegs) + len(opp.ships[k].shieldPegs)
			if p.ships[k].shield {
				n++
			}
		}
		if want := countTotal(deckCounts(g.variant)); n != want {
			return fmt.Errorf("%s's cards add up to %d, want %d", s, n, want)
		}
		for i, d := range p.decks {
			opened := 0
			for _, o := range d.opened {
				if o {
					opened++
				}
			}
			if opened != countTotal(d.seen) {
				return fmt.Errorf("%s deck/%d: %d leaves opened, %d faces seen", s, i+1, opened, countTotal(d.seen))
			}
			for f := range d.seen {
				if d.seen[f] > d.expect[f] {
					return fmt.Errorf("%s deck/%d: %d %s seen, %d expected", s, i+1, d.seen[f], Face(f), d.expect[f])
				}
			}
		}
		seenHand := map[CardRef]bool{}
		for _, c := range p.hand {
			d := &p.decks[c.Deck-1]
			if seenHand[c] || !d.drawn[c.Leaf] || (d.opened[c.Leaf] && !g.over) {
				return fmt.Errorf("%s's hand card %s is duplicated, undrawn or open", s, c)
			}
			seenHand[c] = true
		}
		for _, k := range Ships {
			sh := &p.ships[k]
			if sh.sunk && (len(sh.pegs) > 0 || sh.shield || len(sh.shieldPegs) > 0) {
				return fmt.Errorf("%s's sunk %s still carries cards", s, k)
			}
			if !sh.revealed && (sh.sunk || len(sh.pegs) > 0 || sh.shield) {
				return fmt.Errorf("%s's facedown %s is sunk or carries cards", s, k)
			}
			if sh.revealed {
				leaf := p.grid[sh.pos]
				if leaf < 0 || !p.coords.opened[leaf] || p.coords.value[leaf] != k {
					return fmt.Errorf("%s's %s is revealed at %s, which does not show it", s, k, PosName(sh.pos))
				}
			}
			if sh.revealed && !sh.sunk && g.step != stFlipOpen {
				if g.Damage(s, k) >= k.Hits() {
					return fmt.Errorf("%s's %s afloat with %d damage", s, k, g.Damage(s, k))
				}
				if sh.shield && g.ShieldDamage(s, k) >= ShieldStrength {
					return fmt.Errorf("%s's shield on %s survives %d pegs", s, k, g.ShieldDamage(s, k))
				}
			}
			if !sh.shield && len(sh.shieldPegs) > 0 {
				return fmt.Errorf("%s's %s has shield pegs but no shield", s, k)
			}
		}
		for k := range p.coords.seen {
			if p.coords.seen[k] > coordCounts[k] {
				return fmt.Errorf("%s's grid shows %d %s", s, p.coords.seen[k], Ship(k))
			}
		}
	}
	if g.playsLeft < 0 {
		return fmt.Errorf("%d plays left", g.playsLeft)
	}
	return nil
}

// mutations returns inputs derived from the honest one that the engine must
// reject whatever the state.
func mutations(g *Game, in engine.Input) []engine.Input {
	var out []engine.Input
	n := g.Next()
	wrongKind := in
	wrongKind.Kind = engine.NeedChoice
	out = append(out, wrongKind)
	wrongSeat := in
	wrongSeat.Seat = in.Seat + 1
	if in.Seat == 1 {
		wrongSeat.Seat = 0
	}
	out = append(out, wrongSeat)
	switch in.Kind {
	case engine.NeedRandom:
		out = append(out,
			engine.Input{Kind: in.Kind, Seat: in.Seat, Random: append(append([]int(nil), in.Random...), 0)},
			engine.Input{Kind: in.Kind, Seat: in.Seat, Random: []int{n.Bound}},
			engine.Input{Kind: in.Kind, Seat: in.Seat})
		// The right count with the last value out of range: Apply takes
		// rolls without a working copy, so applyRandom must refuse these
		// before it changes anything.
		for _, v := range []int{n.Bound, -1} {
			vals := slices.Clone(in.Random)
			vals[len(vals)-1] = v
			out = append(out, engine.Input{Kind: in.Kind, Seat: in.Seat, Random: vals})
		}
	case engine.NeedOpen, engine.NeedMove:
		if len(in.Opened) > 0 {
			bad := in
			bad.Opened = append([]engine.Opened(nil), in.Opened...)
			bad.Opened[0].Value = []byte{200}
			dropped := in
			dropped.Opened = in.Opened[1:]
			out = append(out, bad, dropped)
		}
		if in.Kind == engine.NeedMove {
			garbled := in
			garbled.Move = append(append([]byte(nil), in.Move...), '}')
			out = append(out, garbled)
		}
	case engine.NeedCommit:
		// Commitments too are applied without a working copy.
		size, name, owner := *in.Commitment, *in.Commitment, *in.Commitment
		size.Size++
		name.Name += "x"
		owner.Owner = 1 - owner.Owner
		out = append(out, engine.Input{Kind: in.Kind, Seat: in.Seat})
		for _, cm := range []engine.Commitment{size, name, owner} {
			out = append(out, engine.Input{Kind: in.Kind, Seat: in.Seat, Commitment: &cm})
		}
	}
	return out
}

// TestPropertyRandomMatches plays matches between random and strong bots and
// checks after every input: the invariants, that a twin engine fed the same
// inputs and a clone agree on the hash, and that mutated inputs are rejected
// without changing the state.
func TestPropertyRandomMatches(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 12
	}
	for i := range games {
		variant := Spec.Variants[i%2]
		r := rand.New(rand.NewPCG(uint64(i), 99))
		var a0, a1 engine.Agent = NewRandomBot(r), NewRandomBot(r)
		if i%4 >= 2 {
			a0 = NewStrongBot(r)
		}
		t.Run(fmt.Sprintf("%s-%d", variant, i), func(t *testing.T) {
			tb := newTable(t, variant, uint64(i), a0, a1)
			twin, _ := New(engine.Setup{Seats: 2, Variant: variant})
			for step := 0; tb.Game.Next().Kind != engine.NeedNone; step++ {
				in, err := tb.Input()
				if err != nil {
					t.Fatalf("step %d: %v", step, err)
				}
				before := tb.Game.Hash()
				for _, bad := range mutations(tb.Game, in) {
					if _, err := tb.Game.Apply(bad); err == nil {
						t.Fatalf("step %d: mutated input %+v accepted", step, bad)
					} else if !isIllegal(err) {
						t.Fatalf("step %d: error %v does not wrap ErrIllegal", step, err)
					}
					if tb.Game.Hash() != before {
						t.Fatalf("step %d: rejected input changed the state", step)
					}
				}
				if tb.Game.Next().Kind != tb.Game.Next().Kind || tb.Game.Hash() != before {
					t.Fatal("Next changed the state")
				}
				turn := tb.Game.Turn()
				if _, err := tb.Apply(in); err != nil {
					t.Fatalf("step %d: honest %s rejected: %v", step, in.Kind, err)
				}
				if _, err := twin.Apply(in); err != nil {
					t.Fatalf("step %d: twin rejected: %v", step, err)
				}
				if twin.Hash() != tb.Game.Hash() || tb.Game.Clone().Hash() != tb.Game.Hash() {
					t.Fatalf("step %d: twin or clone hash differs", step)
				}
				if err := checkInvariants(tb.Game); err != nil {
					t.Fatalf("step %d: %v", step, err)
				}
				if turn != engine.NoSeat && tb.Game.Turn() != turn && !tb.Game.over {
					limit := tb.Game.HandLimit(turn)
					if h := len(tb.Game.Hand(turn)); h < limit && (tb.Game.pile(turn) > 0 || countTotal(tb.Game.Discard(turn)) > 0) {
						t.Fatalf("step %d: %s ended its turn with %d cards, reload to %d", step, turn, h, limit)
					}
				}
			}
			o := tb.Game.Outcome()
			if !o.Done || (len(o.Winners) != 1 && !o.Draw) {
				t.Fatalf("outcome %+v", o)
			}
			for s := engine.Seat(0); s < 2; s++ {
				if len(tb.Game.hiddenSlots(s)) != 0 {
					t.Fatalf("%s has hidden leaves after the reveal", s)
				}
				if err := tb.Game.checkComplete(s); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestLegalMovesAreAccepted applies every move LegalMoves offers, in every
// state of some matches, to a clone: each must be accepted.
func TestLegalMovesAreAccepted(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 4
	}
	for i := range games {
		variant := Spec.Variants[i%2]
		r := rand.New(rand.NewPCG(uint64(i), 7))
		tb := newTable(t, variant, uint64(i)+1000, NewRandomBot(r), NewStrongBot(r))
		tb.BeforeApply(func(n engine.Need, _ engine.Input) {
			if n.Kind != engine.NeedMove {
				return
			}
			moves := tb.Game.LegalMoves(n.Seat, tb.Secrets(n.Seat))
			if len(moves) == 0 {
				t.Fatalf("%s has no legal move", n.Seat)
			}
			for _, m := range moves {
				slots, err := tb.Game.MustOpen(n.Seat, m.Encode())
				if err != nil {
					t.Fatalf("MustOpen(%v): %v", m, err)
				}
				c := tb.Game.clone()
				if _, err := c.Apply(engine.Input{Kind: engine.NeedMove, Seat: n.Seat, Move: m.Encode(), Opened: tb.open(slots)}); err != nil {
					t.Fatalf("legal move %v rejected: %v", m, err)
				}
			}
			if tb.Game.LegalMoves(other(n.Seat), tb.Secrets(other(n.Seat))) != nil {
				t.Fatal("LegalMoves offers moves to the seat not on move")
			}
		})
		_, err := tb.Play(maxInputs)
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestDrawPromptAsBefore pins the draw prompts Next takes from a table
// (drawPrompts) to what Wordsf wrote for each.
func TestDrawPromptAsBefore(t *testing.T) {
	for _, s := range []engine.Seat{0, 1, engine.NoSeat, 9} {
		for k := -1; k <= CarrierHandSize+2; k++ {
			if got, want := drawPromptOf(s, k), engine.Wordsf("%s draws %d", s, k); got != want {
				t.Errorf("prompt %q, want %q", got, want)
			}
		}
	}
}
