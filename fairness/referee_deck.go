package fairness

import (
	"crypto/rand"
	"fmt"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/deck"
)

// produceDeck builds the local seat's input for a step of a shared deck:
// its key share, its shuffle, or its unmasking shares of cards dealt to
// another seat.
func (r *Referee) produceDeck(st Step) (WireInput, error) {
	name, seat := st.Need.Name, r.cfg.Seat
	switch st.Kind {
	case InDeckKey:
		d, err := r.m.deckFor(st.Need)
		if err != nil {
			return WireInput{}, fmt.Errorf("referee: %w", err)
		}
		k := r.secrets.deckKeys[name]
		if k == nil {
			// A key kept already was sent already (as a member, or before
			// a crash): the same one again, never a second version.
			if k, err = d.p.GenerateKey(rand.Reader, int(seat)); err != nil {
				return WireInput{}, fmt.Errorf("referee: deck %s: %w", name, err)
			}
			r.secrets.deckKeys[name] = k
			if err := r.saveSecrets(); err != nil {
				return WireInput{}, err
			}
		}
		b, err := k.Public().MarshalBinary()
		if err != nil {
			return WireInput{}, fmt.Errorf("referee: deck %s: %w", name, err)
		}
		return WireInput{T: InDeckKey, Name: name, Key: b}, nil
	case InShuffle:
		d := r.m.decks[name]
		out, proof, err := d.p.Shuffle(rand.Reader, d.joint, d.cards)
		if err != nil {
			return WireInput{}, fmt.Errorf("referee: shuffle %s: %w", name, err)
		}
		db, err := out.MarshalBinary()
		if err != nil {
			return WireInput{}, fmt.Errorf("referee: shuffle %s: %w", name, err)
		}
		pb, err := proof.MarshalBinary()
		if err != nil {
			return WireInput{}, fmt.Errorf("referee: shuffle %s: %w", name, err)
		}
		return WireInput{T: InShuffle, Name: name, Deck: db, Proof: pb}, nil
	case InUnmask:
		d, k := r.m.decks[name], r.secrets.deckKeys[name]
		if d == nil || k == nil {
			return WireInput{}, fmt.Errorf("referee: deal from %s: no key share for it", name)
		}
		// st.Pos: a deal later in a run (runs.go) starts past d.dealt.
		if st.Pos < d.dealt || st.Pos+st.Need.Count > d.size {
			return WireInput{}, fmt.Errorf("referee: deal from %s: cards %d-%d of %d, %d dealt", name, st.Pos, st.Pos+st.Need.Count, d.size, d.dealt)
		}
		shares, err := unmaskShares(d, k, st.Pos, st.Pos+st.Need.Count)
		if err != nil {
			return WireInput{}, fmt.Errorf("referee: deal from %s: %w", name, err)
		}
		return WireInput{T: InUnmask, Name: name, Shares: shares}, nil
	}
	return WireInput{}, fmt.Errorf("referee: %q is not a deck step", st.Kind)
}

// unmaskShares returns the key's unmasking shares of the cards at
// positions from to to-1 of d, encoded.
func unmaskShares(d *sharedDeck, k *deck.KeyShare, from, to int) ([][]byte, error) {
	var out [][]byte
	for pos := from; pos < to; pos++ {
		sh, err := d.p.UnmaskShare(k, pos, d.cards[pos])
		if err != nil {
			return nil, err
		}
		b, err := sh.MarshalBinary()
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// openShare is the local seat's own unmasking share of a card dealt to it,
// which opens the card for everyone.
func (r *Referee) openShare(s engine.Slot) ([]byte, error) {
	d, k := r.m.decks[s.Name], r.secrets.deckKeys[s.Name]
	if d == nil || k == nil || s.Index < 0 || s.Index >= d.size {
		return nil, fmt.Errorf("referee: open %s: not a card of a deck this seat holds a key of", s)
	}
	sh, err := d.p.UnmaskShare(k, s.Index, d.cards[s.Index])
	if err != nil {
		return nil, fmt.Errorf("referee: open %s: %w", s, err)
	}
	return sh.MarshalBinary()
}

// peekDealt reads the cards dealt to the local seat whose unmasking shares
// are all in: only this seat can, with its own key share.
func (r *Referee) peekDealt() error {
	changed := false
	for name, d := range r.m.decks {
		k := r.secrets.deckKeys[name]
		if k == nil || d.holder == nil {
			continue
		}
		for pos, h := range d.holder {
			slot := engine.Slot{Owner: engine.NoSeat, Name: name, Index: pos}
			if h != r.cfg.Seat {
				continue
			}
			if _, known := r.secrets.dealt[slot]; known {
				continue
			}
			var others []*deck.Share
			for s, sh := range d.shares[pos] {
				if s != r.cfg.Seat {
					others = append(others, sh)
				}
			}
			v, err := d.p.Peek(d.joint, k, pos, d.cards[pos], others)
			if err != nil {
				return fmt.Errorf("referee: read %s: %w", slot, err)
			}
			r.secrets.dealt[slot] = []byte{byte(v)}
			changed = true
		}
	}
	if changed {
		return r.saveSecrets()
	}
	return nil
}
