package fairness

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/deck"
)

// SharedDeckMaxValue is the largest card value a shared deck can carry: one
// byte, as card values travel in openings.
const SharedDeckMaxValue = 255

// sharedDeck is the public state of a deck shared by all seats (mental card
// play, package fairness/deck): the seats' key shares, the deck as the last
// shuffle left it, who holds each dealt card, the unmasking shares
// published so far and the values opened.
type sharedDeck struct {
	p      *deck.Params
	size   int
	start  []int // the public values the deck starts from
	keys   []*deck.PublicKey
	joint  *deck.JointKey
	cards  deck.Deck
	dealt  int
	holder []engine.Seat
	shares []map[engine.Seat]*deck.Share
	values []int // 0 while hidden
}

// sharedStart returns the values a NeedShuffle starts from: 1..Size for a
// fresh deck, or the opened values of the slots it lists (a discard pile
// shuffled into a new deck).
func (m *Match) sharedStart(need engine.Need) ([]int, error) {
	if len(need.Open) == 0 {
		vals := make([]int, need.Size)
		for i := range vals {
			vals[i] = i + 1
		}
		return vals, nil
	}
	if len(need.Open) != need.Size {
		return nil, fmt.Errorf("shuffle %s: %d source cards for a deck of %d", need.Name, len(need.Open), need.Size)
	}
	vals := make([]int, len(need.Open))
	for i, s := range need.Open {
		d, ok := m.decks[s.Name]
		if !ok || s.Index < 0 || s.Index >= d.size || d.values[s.Index] == 0 {
			return nil, fmt.Errorf("shuffle %s: source card %s is not an opened card", need.Name, s)
		}
		vals[i] = d.values[s.Index]
	}
	return vals, nil
}

// deckFor returns the shared deck a NeedShuffle builds, creating it.
func (m *Match) deckFor(need engine.Need) (*sharedDeck, error) {
	if d, ok := m.decks[need.Name]; ok {
		return d, nil
	}
	if len(need.Seats) != len(m.keys) && !m.allOthersOut(need.Seats) {
		return nil, fmt.Errorf("shuffle %s: every seat still in the game must hold a key share", need.Name)
	}
	start, err := m.sharedStart(need)
	if err != nil {
		return nil, err
	}
	p, err := deck.NewParams(m.id, need.Name, SharedDeckMaxValue)
	if err != nil {
		return nil, fmt.Errorf("shuffle %s: %w", need.Name, err)
	}
	d := &sharedDeck{p: p, size: need.Size, start: start, keys: make([]*deck.PublicKey, len(m.keys))}
	m.decks[need.Name] = d
	return d, nil
}

func (m *Match) applyDeckKey(st Step, in WireInput) ([]engine.Event, error) {
	from, j := st.Seat, m.gather
	d, err := m.deckFor(st.Need)
	if err != nil {
		return nil, err
	}
	if in.Name != st.Need.Name {
		return nil, fmt.Errorf("key share for deck %q, the rules shuffle %q", in.Name, st.Need.Name)
	}
	var pk deck.PublicKey
	if err := pk.UnmarshalBinary(in.Key); err != nil {
		return nil, fmt.Errorf("key share: %w", err)
	}
	if pk.Seat != int(from) {
		return nil, fmt.Errorf("key share names seat %d", pk.Seat)
	}
	if err := d.p.VerifyPublicKey(&pk); err != nil {
		return nil, fmt.Errorf("key share: %w", err)
	}
	d.keys[from] = &pk
	j.pos++
	if j.pos == len(j.order) {
		jk, err := d.p.NewJointKey(d.keys)
		if err != nil {
			d.keys[from] = nil
			j.pos--
			return nil, fmt.Errorf("joint key of %s: %w", st.Need.Name, err)
		}
		cards, err := d.p.NewDeck(d.start)
		if err != nil {
			return nil, fmt.Errorf("deck %s: %w", st.Need.Name, err)
		}
		d.joint, d.cards = jk, cards
		last := j.order[len(j.order)-1]
		j.order = append([]engine.Seat{last}, j.order[:len(j.order)-1]...)
		j.pos, j.reveal = 0, true
	}
	return []engine.Event{engine.Eventf(from, "deckkey", "%s published its key share for deck %s, proof of knowledge ✓", from, st.Need.Name)}, nil
}

func (m *Match) applyShuffle(st Step, in WireInput) ([]engine.Event, error) {
	from, j := st.Seat, m.gather
	d := m.decks[st.Need.Name]
	if in.Name != st.Need.Name {
		return nil, fmt.Errorf("shuffle of deck %q, the rules shuffle %q", in.Name, st.Need.Name)
	}
	var out deck.Deck
	if err := out.UnmarshalBinary(in.Deck); err != nil {
		return nil, fmt.Errorf("shuffle: %w", err)
	}
	var proof deck.ShuffleProof
	if err := proof.UnmarshalBinary(in.Proof); err != nil {
		return nil, fmt.Errorf("shuffle proof: %w", err)
	}
	if err := d.p.VerifyShuffle(d.joint, d.cards, out, &proof); err != nil {
		return nil, fmt.Errorf("shuffle of %s: %w", st.Need.Name, err)
	}
	ev := engine.Eventf(from, "shuffle", "%s shuffled deck %s, shuffle proof ✓", from, st.Need.Name)
	if j.pos < len(j.order)-1 {
		d.cards = out
		j.pos++
		return []engine.Event{ev}, nil
	}
	evs, err := m.game.Apply(engine.Input{Kind: engine.NeedShuffle, Seat: engine.NoSeat})
	if err != nil {
		return nil, err
	}
	d.cards = out
	d.holder = make([]engine.Seat, d.size)
	d.shares = make([]map[engine.Seat]*deck.Share, d.size)
	d.values = make([]int, d.size)
	for i := range d.holder {
		d.holder[i] = engine.NoSeat
		d.shares[i] = map[engine.Seat]*deck.Share{}
	}
	m.gather = nil
	return prepend(ev, evs), nil
}

func (m *Match) applyUnmask(st Step, in WireInput) ([]engine.Event, error) {
	from, j, need := st.Seat, m.gather, st.Need
	d, ok := m.decks[need.Name]
	if !ok || d.joint == nil || d.holder == nil {
		return nil, fmt.Errorf("deal from %q: no such shuffled deck", need.Name)
	}
	if in.Name != need.Name {
		return nil, fmt.Errorf("unmasking shares for deck %q, the rules deal from %q", in.Name, need.Name)
	}
	if need.Count < 1 || d.dealt+need.Count > d.size {
		return nil, fmt.Errorf("deal of %d cards from %s with %d left", need.Count, need.Name, d.size-d.dealt)
	}
	if len(in.Shares) != need.Count {
		return nil, fmt.Errorf("%d unmasking shares for a deal of %d cards", len(in.Shares), need.Count)
	}
	got := make([]*deck.Share, need.Count)
	for i, b := range in.Shares {
		pos := d.dealt + i
		sh := new(deck.Share)
		if err := sh.UnmarshalBinary(b); err != nil {
			return nil, fmt.Errorf("unmasking share %d: %w", i+1, err)
		}
		if sh.Seat != int(from) {
			return nil, fmt.Errorf("unmasking share %d names seat %d", i+1, sh.Seat)
		}
		if err := d.p.VerifyShare(d.joint, pos, d.cards[pos], sh); err != nil {
			return nil, fmt.Errorf("unmasking share for %s[%d]: %w", need.Name, pos, err)
		}
		got[i] = sh
	}
	for _, sh := range got {
		d.shares[sh.Pos][from] = sh
	}
	ev := engine.Eventf(from, "unmask", "%s unmasked %d card(s) of %s for %s, proofs ✓", from, need.Count, need.Name, need.Seat)
	if j.pos < len(j.order)-1 {
		j.pos++
		return []engine.Event{ev}, nil
	}
	positions := make([]int, need.Count)
	for i := range positions {
		positions[i] = d.dealt + i
	}
	evs, err := m.game.Apply(engine.Input{Kind: engine.NeedDeal, Seat: need.Seat, Cards: positions})
	if err != nil {
		for _, sh := range got {
			delete(d.shares[sh.Pos], from)
		}
		return nil, err
	}
	for _, p := range positions {
		d.holder[p] = need.Seat
	}
	d.dealt += need.Count
	m.gather = nil
	return prepend(ev, evs), nil
}

// openShared checks the holder's own unmasking share of a dealt card and
// returns the card's value, now public.
func (m *Match) openShared(from engine.Seat, slot engine.Slot, b []byte) (int, error) {
	d, ok := m.decks[slot.Name]
	if !ok || d.holder == nil || slot.Index < 0 || slot.Index >= d.size {
		return 0, fmt.Errorf("open %s: no such card", slot)
	}
	if d.holder[slot.Index] != from {
		return 0, fmt.Errorf("open %s: the card was dealt to %s, not the sender", slot, d.holder[slot.Index])
	}
	sh := new(deck.Share)
	if err := sh.UnmarshalBinary(b); err != nil {
		return 0, fmt.Errorf("open %s: %w", slot, err)
	}
	if sh.Seat != int(from) {
		return 0, fmt.Errorf("open %s: the share names seat %d", slot, sh.Seat)
	}
	var others []*deck.Share // verified when they arrived
	for s := range m.keys {
		if engine.Seat(s) != from && d.joint.Key(s) != nil {
			other, ok := d.shares[slot.Index][engine.Seat(s)]
			if !ok {
				return 0, fmt.Errorf("open %s: %s never unmasked it", slot, engine.Seat(s))
			}
			others = append(others, other)
		}
	}
	v, err := d.p.OpenChecked(d.joint, slot.Index, d.cards[slot.Index], []*deck.Share{sh}, others)
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", slot, err)
	}
	return v, nil
}
