package deck

import (
	"encoding/binary"
	"fmt"
	"io"
)

// ShuffleProof is a non-interactive zero-knowledge argument (Terelius and
// Wikström's proof of a shuffle, in the form of Haenni et al., made
// non-interactive with Fiat–Shamir over the deck's domain) that an output
// deck is a permutation of an input deck with every card re-masked under the
// joint key. For a deck of n cards it holds 2n elements and 2n + 5 scalars.
type ShuffleProof struct {
	com    []*element // commitment to the permutation, one per input card
	chain  []*element // commitment chain ĉ_1..ĉ_n
	sHat   []*scalar
	sPrime []*scalar
	s      [4]*scalar
	ch     *scalar // the Fiat–Shamir challenge
	// comEnc and chainEnc are com's and chain's encodings, each element's
	// 32 bytes in order: what the proof was decoded from, or the prover's
	// one encoding. The challenges hash them as they are (see Card.enc).
	comEnc, chainEnc []byte
}

// comBytes returns the encodings of com, from comEnc when it fits.
func (pr *ShuffleProof) comBytes() []byte {
	if len(pr.comEnc) == len(pr.com)*ElementSize {
		return pr.comEnc
	}
	return encodeAll(pr.com)
}

// chainBytes returns the encodings of chain, from chainEnc when it fits.
func (pr *ShuffleProof) chainBytes() []byte {
	if len(pr.chainEnc) == len(pr.chain)*ElementSize {
		return pr.chainEnc
	}
	return encodeAll(pr.chain)
}

// ShuffleProofSize returns the encoded size of the proof of a shuffle of n
// cards.
func ShuffleProofSize(n int) int { return 2 + n*(2*ElementSize+2*ScalarSize) + 5*ScalarSize }

// randIntn returns a uniform integer in [0, n) from rng, by rejection.
func randIntn(rng io.Reader, n int) (int, error) {
	max := ^uint64(0) - ^uint64(0)%uint64(n)
	var b [8]byte
	for {
		if _, err := io.ReadFull(rng, b[:]); err != nil {
			return 0, fmt.Errorf("deck: read randomness: %w", err)
		}
		if v := binary.BigEndian.Uint64(b[:]); v < max {
			return int(v % uint64(n)), nil
		}
	}
}

// Shuffle re-masks and permutes the deck in with a secret permutation and
// secret masks drawn from rng (crypto/rand.Reader in play), and proves it.
// Output position i holds input card perm[i].
func (p *Params) Shuffle(rng io.Reader, jk *JointKey, in Deck) (Deck, *ShuffleProof, error) {
	n := len(in)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j, err := randIntn(rng, i+1)
		if err != nil {
			return nil, nil, fmt.Errorf("shuffle: %w", err)
		}
		perm[i], perm[j] = perm[j], perm[i]
	}
	return p.shuffleWith(rng, jk, in, perm)
}

// shuffleWith shuffles with the given permutation: out[i] = in[perm[i]]
// re-masked.
func (p *Params) shuffleWith(rng io.Reader, jk *JointKey, in Deck, perm []int) (Deck, *ShuffleProof, error) {
	n := len(in)
	if n < 1 || n > p.maxValue {
		return nil, nil, fmt.Errorf("deck: shuffle of %d cards: want 1..%d", n, p.maxValue)
	}
	if err := checkDeck(in, "shuffle input"); err != nil {
		return nil, nil, err
	}
	rho, err := randScalars(rng, n) // re-masking factor of output i
	if err != nil {
		return nil, nil, fmt.Errorf("shuffle: %w", err)
	}
	out := make(Deck, n)
	for i := range out {
		src := in[perm[i]]
		out[i] = Card{
			c1: newElement().Add(src.c1, newElement().ScalarBaseMult(rho[i])),
			c2: newElement().Add(src.c2, newElement().ScalarMult(rho[i], jk.x)),
		}.withEncoding()
	}
	proof, err := p.proveShuffle(rng, jk, in, out, perm, rho)
	if err != nil {
		return nil, nil, err
	}
	return out, proof, nil
}

// shuffleChallenges returns the per-input-card challenges u_j, derived from
// the statement and the permutation commitment (com, encoded).
func (p *Params) shuffleChallenges(jk *JointKey, in, out Deck, com []byte) []*scalar {
	seed := newTranscript("shuffle/u", &p.dom).element(jk.x).deck(in).deck(out).encodings(com).sum()
	u := make([]*scalar, len(in))
	for j := range u {
		u[j] = newTranscript("shuffle/u/i", &p.dom).bytes(seed).uint(uint64(j)).challenge()
	}
	return u
}

// shuffleChallenge is the proof's Fiat–Shamir challenge (chain encoded).
func (p *Params) shuffleChallenge(u []*scalar, chain []byte, t1, t2, t3, t41, t42 *element, tHat []*element) *scalar {
	t := newTranscript("shuffle/c", &p.dom)
	for _, x := range u {
		t.scalar(x)
	}
	t.encodings(chain)
	t.element(t1).element(t2).element(t3).element(t41).element(t42)
	for _, x := range tHat {
		t.element(x)
	}
	return t.challenge()
}

func (p *Params) proveShuffle(rng io.Reader, jk *JointKey, in, out Deck, perm []int, rho []*scalar) (*ShuffleProof, error) {
	n := len(in)
	h := p.gens[0]
	hs := p.gens[1 : n+1]
	G := newElement().Base()

	// Commit to the permutation: com[perm[i]] = r[perm[i]]·G + h_i.
	r, err := randScalars(rng, n)
	if err != nil {
		return nil, fmt.Errorf("shuffle proof: %w", err)
	}
	// (Written as com_j = r_j·G + Σ_{i: perm[i]=j} h_i, which is the same for
	// a permutation and lets tests build the proof a cheater would send for
	// a map that is not one.)
	com := make([]*element, n)
	for j := range com {
		com[j] = newElement().ScalarBaseMult(r[j])
	}
	for i := 0; i < n; i++ {
		com[perm[i]].Add(com[perm[i]], hs[i])
	}
	comEnc := encodeAll(com)
	u := p.shuffleChallenges(jk, in, out, comEnc)
	uP := make([]*scalar, n) // u'_i = u_{perm[i]}
	for i := range uP {
		uP[i] = u[perm[i]]
	}

	// Commitment chain ĉ_i = r̂_i·G + u'_i·ĉ_{i-1}, ĉ_0 = h.
	rHat, err := randScalars(rng, n)
	if err != nil {
		return nil, fmt.Errorf("shuffle proof: %w", err)
	}
	chain := make([]*element, n)
	prev := h
	for i := 0; i < n; i++ {
		chain[i] = newElement().MultiScalarMult([]*scalar{rHat[i], uP[i]}, []*element{G, prev})
		prev = chain[i]
	}

	w, err := randScalars(rng, 4)
	if err != nil {
		return nil, fmt.Errorf("shuffle proof: %w", err)
	}
	wHat, err := randScalars(rng, n)
	if err != nil {
		return nil, fmt.Errorf("shuffle proof: %w", err)
	}
	wP, err := randScalars(rng, n)
	if err != nil {
		return nil, fmt.Errorf("shuffle proof: %w", err)
	}
	t1 := newElement().ScalarBaseMult(w[0])
	t2 := newElement().ScalarBaseMult(w[1])
	t3 := newElement().MultiScalarMult(append([]*scalar{w[2]}, wP...), append([]*element{G}, hs...))
	negW4 := newScalar().Negate(w[3])
	c2s := make([]*element, n)
	c1s := make([]*element, n)
	for i, c := range out {
		c1s[i], c2s[i] = c.c1, c.c2
	}
	t41 := newElement().MultiScalarMult(append([]*scalar{negW4}, wP...), append([]*element{jk.x}, c2s...))
	t42 := newElement().MultiScalarMult(append([]*scalar{negW4}, wP...), append([]*element{G}, c1s...))
	tHat := make([]*element, n)
	prev = h
	for i := 0; i < n; i++ {
		tHat[i] = newElement().MultiScalarMult([]*scalar{wHat[i], wP[i]}, []*element{G, prev})
		prev = chain[i]
	}
	chainEnc := encodeAll(chain)
	ch := p.shuffleChallenge(u, chainEnc, t1, t2, t3, t41, t42, tHat)

	mul := func(a, b *scalar) *scalar { return newScalar().Multiply(a, b) }
	resp := func(w, x *scalar) *scalar { return newScalar().Subtract(w, mul(ch, x)) }

	rBar := newScalar()
	rU := newScalar()
	for j := 0; j < n; j++ {
		rBar.Add(rBar, r[j])
		rU.Add(rU, mul(r[j], u[j]))
	}
	// R̂ = Σ r̂_i·v_i with v_i = Π_{k>i} u'_k.
	rHatSum := newScalar()
	v := newScalar()
	v.FromUniformBytes(oneWide[:])
	for i := n - 1; i >= 0; i-- {
		rHatSum.Add(rHatSum, mul(rHat[i], v))
		v = mul(v, uP[i])
	}
	rhoU := newScalar()
	for i := 0; i < n; i++ {
		rhoU.Add(rhoU, mul(rho[i], uP[i]))
	}
	pr := &ShuffleProof{com: com, chain: chain, sHat: make([]*scalar, n), sPrime: make([]*scalar, n), ch: ch, comEnc: comEnc, chainEnc: chainEnc}
	pr.s[0] = resp(w[0], rBar)
	pr.s[1] = resp(w[1], rHatSum)
	pr.s[2] = resp(w[2], rU)
	pr.s[3] = resp(w[3], rhoU)
	for i := 0; i < n; i++ {
		pr.sHat[i] = resp(wHat[i], rHat[i])
		pr.sPrime[i] = resp(wP[i], uP[i])
	}
	return pr, nil
}

// oneWide is the 64-byte little-endian encoding of 1, for FromUniformBytes.
var oneWide = [64]byte{1}

// VerifyShuffle checks that out is a permutation and re-masking of in under
// the joint key, as proof claims. It fails for a deck that drops,
// duplicates, adds or replaces a card, and for a proof made for another
// deck, match or key.
func (p *Params) VerifyShuffle(jk *JointKey, in, out Deck, proof *ShuffleProof) error {
	n := len(in)
	if n < 1 || n > p.maxValue {
		return invalid("shuffle of %d cards: want 1..%d", n, p.maxValue)
	}
	if len(out) != n {
		return invalid("shuffle turned %d cards into %d", n, len(out))
	}
	if err := checkDeck(in, "shuffle input"); err != nil {
		return err
	}
	if err := checkDeck(out, "shuffle output"); err != nil {
		return err
	}
	if proof == nil || len(proof.com) != n || len(proof.chain) != n || len(proof.sHat) != n || len(proof.sPrime) != n || proof.ch == nil {
		return invalid("shuffle proof does not fit a deck of %d cards", n)
	}
	for _, s := range proof.s {
		if s == nil {
			return invalid("shuffle proof: missing response")
		}
	}
	for i := range n {
		if proof.com[i] == nil || proof.chain[i] == nil || proof.sHat[i] == nil || proof.sPrime[i] == nil {
			return invalid("shuffle proof: missing value for card %d", i)
		}
	}
	hs := p.gens[1 : n+1]
	ch := proof.ch
	u := p.shuffleChallenges(jk, in, out, proof.comBytes())

	// c̄ = Σ com_j − Σ h_i;  ĉ = ĉ_n − (Π u_j)·h
	cBar := newElement()
	U := newScalar().FromUniformBytes(oneWide[:])
	for j := 0; j < n; j++ {
		cBar.Add(cBar, proof.com[j])
		cBar.Subtract(cBar, hs[j])
		U.Multiply(U, u[j])
	}

	// t̂_i' = ch·ĉ_i + ŝ_i·G + s'_i·ĉ_{i-1}, each ĉ_i tabled once for
	// its two uses
	tHat := make([]*element, n)
	prev := p.gensT[0] // h
	for i := 0; i < n; i++ {
		cur := proof.chain[i].withTable()
		tHat[i] = newElement().VarTimeMultiScalarMultTabled(
			[]*scalar{ch, proof.sHat[i], proof.sPrime[i]}, []*tabled{cur, tabledBase, prev}, nil, nil)
		prev = cur
	}

	// t1' = ch·c̄ + s1·G;  t2' = ch·ĉ + s2·G with ĉ = ĉ_n − U·h, taken
	// as ch·ĉ_n − (ch·U)·h + s2·G: one multiplication with ĉ_n's table
	// where computing ĉ first took two
	t1 := newElement().VarTimeDoubleScalarBaseMult(ch, cBar, proof.s[0])
	t2 := newElement().VarTimeMultiScalarMultTabled(
		[]*scalar{ch, newScalar().Negate(newScalar().Multiply(ch, U)), proof.s[1]}, []*tabled{prev, p.gensT[0], tabledBase}, nil, nil)

	// t3' = ch·Σu_j·com_j + s3·G + Σ s'_i·h_i (G and the h_i tabled)
	chU := make([]*scalar, n)
	for j := range chU {
		chU[j] = newScalar().Multiply(ch, u[j])
	}
	t3 := newElement().VarTimeMultiScalarMultTabled(
		append([]*scalar{proof.s[2]}, proof.sPrime...), append([]*tabled{tabledBase}, p.gensT[1:n+1]...),
		chU, proof.com)

	// t41' = ch·Σu_j·in_j.C2 − s4·X + Σ s'_i·out_i.C2, and the same on C1
	// with G, from the cards' kept tables
	negS4 := newScalar().Negate(proof.s[3])
	t41 := remaskCommitment(negS4, jk.xT, chU, in, proof.sPrime, out, Card.table2, func(Card) bool { return false })
	t42 := remaskCommitment(negS4, tabledBase, chU, in, proof.sPrime, out, Card.table1, Card.c1IsIdentity)
	if p.shuffleChallenge(u, proof.chainBytes(), t1, t2, t3, t41, t42, tHat).Equal(ch) != 1 {
		return invalid("shuffle proof of deck %q does not verify: the output is not a re-masked permutation of the input", p.dom.name)
	}
	return nil
}

// remaskCommitment returns t41' or t42' of a shuffle check: negS4·base +
// Σ chU_j·part(in_j) + Σ sPrime_i·part(out_i), each card's part taken
// with the table the card keeps, and a term left out where the part is
// known to be the identity (the starting deck's C1s: half of its t42').
func remaskCommitment(negS4 *scalar, base *tabled, chU []*scalar, in Deck, sPrime []*scalar, out Deck,
	part func(Card) *tabled, identity func(Card) bool) *element {
	sc := make([]*scalar, 0, len(in)+len(out)+1)
	tb := make([]*tabled, 0, cap(sc))
	sc, tb = append(sc, negS4), append(tb, base)
	add := func(s []*scalar, d Deck) {
		for i, c := range d {
			if !identity(c) {
				sc, tb = append(sc, s[i]), append(tb, part(c))
			}
		}
	}
	add(chU, in)
	add(sPrime, out)
	return newElement().VarTimeMultiScalarMultTabled(sc, tb, nil, nil)
}

// MarshalBinary encodes the proof: n (16 bits) ‖ com[n] ‖ ĉ[n] ‖ ŝ[n] ‖
// s'[n] ‖ s1..s4 ‖ challenge.
func (pr *ShuffleProof) MarshalBinary() ([]byte, error) {
	n := len(pr.com)
	if n > MaxCards || len(pr.chain) != n || len(pr.sHat) != n || len(pr.sPrime) != n || pr.ch == nil {
		return nil, malformed("shuffle proof: inconsistent lengths")
	}
	w := writer{b: make([]byte, 0, ShuffleProofSize(n))}
	w.u16(n)
	w.b = append(w.b, pr.comBytes()...)
	w.b = append(w.b, pr.chainBytes()...)
	for _, s := range pr.sHat {
		w.scalar(s)
	}
	for _, s := range pr.sPrime {
		w.scalar(s)
	}
	for _, s := range pr.s {
		w.scalar(s)
	}
	w.scalar(pr.ch)
	return w.b, nil
}

// UnmarshalBinary decodes a proof, rejecting non-canonical values, a wrong
// length or trailing bytes.
func (pr *ShuffleProof) UnmarshalBinary(b []byte) error {
	r := reader{b: b, what: "shuffle proof"}
	n := r.count("count", MaxCards, 2*ElementSize+2*ScalarSize)
	out := ShuffleProof{sHat: make([]*scalar, n), sPrime: make([]*scalar, n)}
	out.com, out.comEnc = r.elements(n, "commitment")
	out.chain, out.chainEnc = r.elements(n, "chain")
	for i := range out.sHat {
		out.sHat[i] = r.scalar("ŝ")
	}
	for i := range out.sPrime {
		out.sPrime[i] = r.scalar("s'")
	}
	for i := range out.s {
		out.s[i] = r.scalar("s")
	}
	out.ch = r.scalar("challenge")
	if err := r.done(); err != nil {
		return err
	}
	*pr = out
	return nil
}
