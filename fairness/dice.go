package fairness

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"

	"golang.org/x/crypto/blake2b"

	"github.com/salvo-game/salvo/engine"
)

// ChainLinks was the number of preimages in each seat's one dice chain
// (the chains Salvo made before issue 15, which still audit as they did):
// the most joint rolls one seat could contribute to in a match.
const ChainLinks = 1 << 14

// SegmentLinks is the number of preimages in each chain of a seat's dice
// (see Dice): a match pays for its first chain of this many hashes, and for
// another only every SegmentLinks rolls of the seat.
const SegmentLinks = 64

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

// NewChain draws a fresh seed and starts the dice of seat in match: chains
// of SegmentLinks links, each continued by the next (see Dice).
func NewChain(match Digest, seat engine.Seat) (*Dice, error) {
	var seed Digest
	if _, err := rand.Read(seed[:]); err != nil {
		return nil, fmt.Errorf("dice chain seed: %w", err)
	}
	return newDice(match, seat, seed, SegmentLinks, true), nil
}

// Dice is the source of one seat's dice preimages: a hash chain (its tip
// committed in the seat's hello), and, when it continues, the next chain,
// whose tip the seat names in the share that reveals the last link of the
// one before (the share's next). Each chain hangs from its own seed,
// derived from the one secret seed and the chain's number, and is built
// when the seat reaches it.
//
// Why: one chain long enough for any match was 16,384 hashes before the
// first roll, the biggest single cost of a U-Build match, which rolls once
// (issue 15). A continued chain binds as strongly: a seat names its next
// tip in its share of some roll k, before any other seat's share of any
// roll after k, and those are the only rolls the new chain's links go
// into; so each link of the seat is fixed before the seat sees anything of
// the others' contributions to the roll it goes into, as with one long
// chain. The tip may be chosen freely, but a chain chosen after seeing
// only finished rolls can bias none.
//
// A Dice that does not continue is the one long chain of older matches,
// rebuilt from their secrets files on resume.
type Dice struct {
	match     Digest
	seat      engine.Seat
	seed      Digest // the secret seed (of every chain, or the one chain's last link)
	links     int    // links per chain
	continues bool
	at        int // the number of the chain in cur
	cur       *Chain
	following *Chain // chain at+1, once its tip was named
}

func newDice(match Digest, seat engine.Seat, seed Digest, links int, continues bool) *Dice {
	d := &Dice{match: match, seat: seat, seed: seed, links: links, continues: continues}
	d.cur = d.chain(0)
	return d
}

// chain builds chain number i.
func (d *Dice) chain(i int) *Chain {
	if !d.continues {
		return newChainFromSeed(d.match, d.seat, d.seed, d.links)
	}
	seed := newHasher("salvo/dice-seed/2").digest(d.seed).int(i).sum()
	return newChainFromSeed(d.match, d.seat, seed, d.links)
}

// Tip returns the tip of the first chain, the seat's hello.
func (d *Dice) Tip() Digest {
	if d.at == 0 {
		return d.cur.Tip()
	}
	return d.chain(0).Tip()
}

// Len returns the number of links of each chain, the hello's links.
func (d *Dice) Len() int { return d.links }

// Share returns the seat's k-th preimage of the match (from 1), and, when
// it is the last link of its chain and the chains continue, the tip of the
// next chain, which the share must carry.
func (d *Dice) Share(k int) (link Digest, next *Digest, err error) {
	i, pos := (k-1)/d.links, (k-1)%d.links+1
	if k < 1 || (!d.continues && i > 0) {
		return Digest{}, nil, fmt.Errorf("dice chain has no link %d (length %d)", k, d.links)
	}
	if i != d.at {
		cur := d.following
		if cur == nil || i != d.at+1 {
			cur = d.chain(i)
		}
		d.at, d.cur, d.following = i, cur, nil
	}
	link, _ = d.cur.Link(pos)
	if pos == d.links && d.continues {
		if d.following == nil {
			d.following = d.chain(i + 1)
		}
		tip := d.following.Tip()
		next = &tip
	}
	return link, next, nil
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

// rollReader is a BLAKE2b XOF of unknown output length and the buffers
// RollValues feeds it its seed and reads it through (buffers on
// RollValues' stack, handed to the XOF's Write and Read, interface
// methods, would move to the heap).
type rollReader struct {
	x    blake2b.XOF
	seed Digest
	buf  [8]byte
}

// rollReaders keeps the readers of RollValues for reuse: a roll completes
// for a third of the messages an audit replays, and a new XOF is an
// allocation of half a kilobyte.
var rollReaders sync.Pool

// newRollReader returns a reader whose XOF is in its initial state: a
// kept one reset, or a new one.
func newRollReader() (*rollReader, error) {
	if r, ok := rollReaders.Get().(*rollReader); ok {
		r.x.Reset()
		return r, nil
	}
	x, err := blake2b.NewXOF(blake2b.OutputLengthUnknown, nil)
	if err != nil {
		return nil, err
	}
	return &rollReader{x: x}, nil
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
	rd, err := newRollReader()
	if err != nil {
		return nil, fmt.Errorf("roll %q: %w", name, err)
	}
	defer rollReaders.Put(rd)
	x, buf := rd.x, rd.buf[:]
	seed := newHasher("salvo/roll/1").digest(match).int(roll).str(name).int(count).int(bound).int(len(shares))
	for _, s := range shares {
		seed.int(int(s.Seat)).digest(s.Link)
	}
	rd.seed = seed.sum()
	x.Write(rd.seed[:])
	vals := make([]int, count)
	ub := uint64(bound)
	limit := math.MaxUint64 - math.MaxUint64%ub // accept v < limit
	for i := range vals {
		for {
			if _, err := io.ReadFull(x, buf); err != nil {
				return nil, fmt.Errorf("roll %q: %w", name, err)
			}
			v := binary.BigEndian.Uint64(buf)
			if v < limit {
				vals[i] = int(v % ub)
				break
			}
		}
	}
	return vals, nil
}
