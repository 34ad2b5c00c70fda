package deck

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// referenceVerifyShuffle is the shuffle proof's check written as plainly
// as the statement: every t recomputed by one untabled multiscalar
// multiplication of the values as decoded, nothing cached, nothing
// skipped. VerifyShuffle is written for speed (tables kept on cards,
// terms of the identity left out, sums folded); this is what it must
// agree with on every input, so that no speed-up ever changes which
// bytes are accepted.
func referenceVerifyShuffle(p *Params, jk *JointKey, in, out Deck, pr *ShuffleProof) error {
	n := len(in)
	if n < 1 || n > p.maxValue || len(out) != n || checkDeck(in, "in") != nil || checkDeck(out, "out") != nil ||
		pr == nil || len(pr.com) != n || len(pr.chain) != n || len(pr.sHat) != n || len(pr.sPrime) != n || pr.ch == nil {
		return ErrInvalid
	}
	G := newElement().Base()
	h, hs := p.gens[0], p.gens[1:n+1]
	u := p.shuffleChallenges(jk, in, out, encodeAll(pr.com))
	msm := func(s []*scalar, e []*element) *element { return newElement().VarTimeMultiScalarMult(s, e) }
	ones := make([]*scalar, 0, 2*n)
	one := newScalar().FromUniformBytes(oneWide[:])
	negOne := newScalar().Negate(one)
	cBarEls := make([]*element, 0, 2*n)
	U := dupScalar(one)
	for j := range n {
		ones = append(ones, one, negOne)
		cBarEls = append(cBarEls, pr.com[j], hs[j])
		U.Multiply(U, u[j])
	}
	cBar := msm(ones, cBarEls)
	cHat := msm([]*scalar{one, newScalar().Negate(U)}, []*element{pr.chain[n-1], h})
	t1 := msm([]*scalar{pr.ch, pr.s[0]}, []*element{cBar, G})
	t2 := msm([]*scalar{pr.ch, pr.s[1]}, []*element{cHat, G})
	var s3, s41, s42 []*scalar
	var e3, e41, e42 []*element
	negS4 := newScalar().Negate(pr.s[3])
	s3, e3 = append(s3, pr.s[2]), append(e3, G)
	s41, e41 = append(s41, negS4), append(e41, jk.x)
	s42, e42 = append(s42, negS4), append(e42, G)
	for j := range n {
		chU := newScalar().Multiply(pr.ch, u[j])
		s3, e3 = append(s3, chU, pr.sPrime[j]), append(e3, pr.com[j], hs[j])
		s41, e41 = append(s41, chU, pr.sPrime[j]), append(e41, in[j].c2, out[j].c2)
		s42, e42 = append(s42, chU, pr.sPrime[j]), append(e42, in[j].c1, out[j].c1)
	}
	tHat := make([]*element, n)
	prev := h
	for i := range n {
		tHat[i] = msm([]*scalar{pr.ch, pr.sHat[i], pr.sPrime[i]}, []*element{pr.chain[i], G, prev})
		prev = pr.chain[i]
	}
	if p.shuffleChallenge(u, encodeAll(pr.chain), t1, t2, msm(s3, e3), msm(s41, e41), msm(s42, e42), tHat).Equal(pr.ch) != 1 {
		return ErrInvalid
	}
	return nil
}

func dupScalar(s *scalar) *scalar { return newScalar().Add(s, newScalar()) }

// referenceVerifyShare is VerifyShare's check written plainly.
func referenceVerifyShare(p *Params, jk *JointKey, pos int, c Card, sh *Share) error {
	pk := jk.Key(sh.Seat)
	if pk == nil || sh.Pos != pos {
		return ErrInvalid
	}
	negE := newScalar().Negate(sh.e)
	A := newElement().VarTimeMultiScalarMult([]*scalar{sh.s, negE}, []*element{newElement().Base(), pk.x})
	B := newElement().VarTimeMultiScalarMult([]*scalar{sh.s, negE}, []*element{c.c1, sh.d})
	if p.shareChallenge(sh.Seat, pos, pk.x.Encode(nil), c, sh.d.Encode(nil), A, B).Equal(sh.e) != 1 {
		return ErrInvalid
	}
	return nil
}

// mutate returns b with one random change: a byte replaced, a bit flipped,
// or a whole 32-byte field (element or scalar) replaced by random bytes or
// by another field of the same bytes, from offset start on.
func mutate(rng *rand.Rand, b []byte, start int) []byte {
	m := bytes.Clone(b)
	fields := (len(m) - start) / 32
	switch rng.IntN(4) {
	case 0:
		m[start+rng.IntN(len(m)-start)] = byte(rng.Uint32())
	case 1:
		i := start + rng.IntN(len(m)-start)
		m[i] ^= 1 << rng.IntN(8)
	case 2:
		f := start + 32*rng.IntN(fields)
		for i := range 32 {
			m[f+i] = byte(rng.Uint32())
		}
		m[f+31] &= 0x0f // often a canonical scalar, sometimes an element
	default:
		f, g := start+32*rng.IntN(fields), start+32*rng.IntN(fields)
		copy(m[f:f+32], b[g:g+32])
	}
	return m
}

// The optimised check accepts and refuses exactly what the plain one
// does, on honest shuffles (from the starting deck and from a shuffled
// one, of several sizes) and on random single changes of a shuffle's
// deck or proof bytes, and never accepts a change.
func TestShuffleVerifyAgreesWithReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 4))
	for _, size := range []int{1, 2, 7, 16} {
		tb := newTable(t, 3, size, byte(size))
		in := tb.deck
		for round := range 2 {
			out, proof, err := tb.p.Shuffle(tb.rng, tb.jk, in)
			if err != nil {
				t.Fatal(err)
			}
			db, _ := out.MarshalBinary()
			pb, _ := proof.MarshalBinary()
			check := func(what string, d, pbytes []byte) (accepted bool) {
				t.Helper()
				var dd Deck
				var pp ShuffleProof
				if dd.UnmarshalBinary(d) != nil || pp.UnmarshalBinary(pbytes) != nil {
					return false
				}
				got := tb.p.VerifyShuffle(tb.jk, in, dd, &pp)
				want := referenceVerifyShuffle(tb.p, tb.jk, in, dd, &pp)
				if (got == nil) != (want == nil) || (got != nil && !errors.Is(got, ErrInvalid) && !errors.Is(got, ErrMalformed)) {
					t.Fatalf("%d cards, round %d, %s: VerifyShuffle says %v, the plain check %v", size, round, what, got, want)
				}
				return got == nil
			}
			if !check("honest", db, pb) {
				t.Fatalf("%d cards, round %d: the honest shuffle is refused", size, round)
			}
			for trial := range 40 {
				d, p := db, pb
				if trial%3 == 0 {
					d = mutate(rng, db, 2)
				} else {
					p = mutate(rng, pb, 2)
				}
				if (!bytes.Equal(d, db) || !bytes.Equal(p, pb)) && check(fmt.Sprintf("change %d", trial), d, p) {
					t.Fatalf("%d cards, round %d: a changed shuffle verifies", size, round)
				}
			}
			var next Deck
			if err := next.UnmarshalBinary(db); err != nil {
				t.Fatal(err)
			}
			in = next // the next seat shuffles the decoded output, as a referee holds it
		}
	}
}

// The same for unmasking shares: the check agrees with the plain one on
// honest shares and on random single changes of a share's bytes.
func TestShareVerifyAgreesWithReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 5))
	tb := newTable(t, 3, 8, 21)
	tb.shuffleAll()
	for pos := range 8 {
		for _, sh := range tb.allShares(pos) {
			b, _ := sh.MarshalBinary()
			for trial := range 25 {
				m := b
				if trial > 0 {
					m = mutate(rng, b, 4)
				}
				var got Share
				if got.UnmarshalBinary(m) != nil {
					continue
				}
				err := tb.p.VerifyShare(tb.jk, pos, tb.deck[pos], &got)
				want := referenceVerifyShare(tb.p, tb.jk, pos, tb.deck[pos], &got)
				if (err == nil) != (want == nil) || (err == nil) != bytes.Equal(m, b) {
					t.Fatalf("card %d, seat %d, change %d: VerifyShare says %v, the plain check %v", pos, sh.Seat, trial, err, want)
				}
			}
		}
	}
}

// A check keeps the tables it makes on the cards it was given, so that
// the next shuffle's check (whose input they are) and the unmasking
// shares' checks (against their C1s) make none again; the starting
// deck's tables are the same for every match.
func TestChecksKeepCardTables(t *testing.T) {
	tb := newTable(t, 2, 8, 31)
	start := tb.deck
	tb.shuffleAll() // each seat's shuffle checked, the last output held
	held := tb.deck
	for i, c := range held {
		if c.tabs == nil || c.tabs.c1.Load() == nil || c.tabs.c2.Load() == nil {
			t.Fatalf("card %d of the checked output keeps no tables", i)
		}
	}
	var decoded Deck // and a decoded deck has room for them
	if b, _ := held.MarshalBinary(); decoded.UnmarshalBinary(b) != nil || decoded[0].tabs == nil {
		t.Fatal("a decoded card has no room for its tables")
	}
	again, err := NewParams(testMatch(99), "other", 8)
	if err != nil {
		t.Fatal(err)
	}
	if d := again.FullDeck(); d[3].tabs != start[3].tabs || d[3].tabs.c2.Load() == nil {
		t.Fatal("the starting deck's tables are not shared between matches")
	}
	t1 := held[5].tabs.c1.Load()
	sh, err := tb.p.UnmaskShare(tb.keys[0], 5, held[5])
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.p.VerifyShare(tb.jk, 5, held[5], sh); err != nil || held[5].tabs.c1.Load() != t1 {
		t.Fatalf("a share check made C1's table again (or failed: %v)", err)
	}
}
