package fairness

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"golang.org/x/crypto/blake2b"

	"github.com/salvo-game/salvo/engine"
)

// ChainLinks is the number of preimages in each seat's dice chain: the most
// joint rolls one seat can contribute to in a match.
const ChainLinks = 1 << 14

// MaxRollCount bounds the values one roll may draw.
const MaxRollCount = 256

// ErrChain is wrapped by every error about a dice preimage that does not
// extend its seat's chain.
var ErrChain = errors.New("preimage does not extend the dice chain")

// Chain is one seat's hash chain for joint dice. Link 0, the tip, is
// committed at the start of a match; link k+1 is revealed for the seat's
// (k+1)-th roll and must hash to link k. Revealing a link says nothing about
// the next one (preimage resistance), and the seat cannot change a link once
// the tip is out (collision resistance), so no seat can bias a roll; the last
// to reveal can only refuse, which forfeits the match.
type Chain struct {
	seed  Digest
	links []Digest
}

// NewChain draws a fresh seed and builds a chain for seat in match.
func NewChain(match Digest, seat engine.Seat) (*Chain, error) {
	var seed Digest
	if _, err := rand.Read(seed[:]); err != nil {
		return nil, fmt.Errorf("dice chain seed: %w", err)
	}
	return newChainFromSeed(match, seat, seed, ChainLinks), nil
}

func newChainFromSeed(match Digest, seat engine.Seat, seed Digest, n int) *Chain {
	links := make([]Digest, n+1)
	links[n] = seed
	for i := n - 1; i >= 0; i-- {
		links[i] = chainStep(match, seat, links[i+1])
	}
	return &Chain{seed: seed, links: links}
}

// chainStep is the chain's one-way function, bound to the match and seat.
func chainStep(match Digest, seat engine.Seat, x Digest) Digest {
	return newHasher("salvo/dice-chain/1").digest(match).int(int(seat)).digest(x).sum()
}

// Tip returns link 0, the public commitment to the whole chain.
func (c *Chain) Tip() Digest { return c.links[0] }

// Len returns how many links can be revealed.
func (c *Chain) Len() int { return len(c.links) - 1 }

// Link returns link k (1-based; link 0 is the tip).
func (c *Chain) Link(k int) (Digest, error) {
	if k < 1 || k >= len(c.links) {
		return Digest{}, fmt.Errorf("dice chain has no link %d (length %d)", k, c.Len())
	}
	return c.links[k], nil
}

// VerifyLink checks that link, offered as link k of seat's chain, hashes to
// the previous link prev.
func VerifyLink(match Digest, seat engine.Seat, prev, link Digest) error {
	if got := chainStep(match, seat, link); got != prev {
		return fmt.Errorf("%w: H(preimage) = %s, previous link is %s", ErrChain, got.Short(), prev.Short())
	}
	return nil
}

// Share is one seat's contribution to a joint roll.
type Share struct {
	Seat engine.Seat
	Link Digest
}

// RollValues derives a joint roll: count values uniform in [0, bound), from
// a BLAKE2b XOF over the match, the roll's number and name, and every seat's
// share in seat order. Values are drawn by rejection sampling, so no value is
// favoured.
func RollValues(match Digest, roll int, name string, count, bound int, shares []Share) ([]int, error) {
	if count < 1 || count > MaxRollCount {
		return nil, fmt.Errorf("roll %q: count %d out of range 1..%d", name, count, MaxRollCount)
	}
	if bound < 1 {
		return nil, fmt.Errorf("roll %q: bound %d must be positive", name, bound)
	}
	x, err := blake2b.NewXOF(blake2b.OutputLengthUnknown, nil)
	if err != nil {
		return nil, fmt.Errorf("roll %q: %w", name, err)
	}
	seed := newHasher("salvo/roll/1").digest(match).int(roll).str(name).int(count).int(bound).int(len(shares))
	for _, s := range shares {
		seed.int(int(s.Seat)).digest(s.Link)
	}
	d := seed.sum()
	x.Write(d[:])
	vals := make([]int, count)
	ub := uint64(bound)
	limit := math.MaxUint64 - math.MaxUint64%ub // accept v < limit
	var buf [8]byte
	for i := range vals {
		for {
			if _, err := io.ReadFull(x, buf[:]); err != nil {
				return nil, fmt.Errorf("roll %q: %w", name, err)
			}
			v := binary.BigEndian.Uint64(buf[:])
			if v < limit {
				vals[i] = int(v % ub)
				break
			}
		}
	}
	return vals, nil
}
