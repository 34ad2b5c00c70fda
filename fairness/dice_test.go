package fairness

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// shareVerifier is the verifier's side of one seat's dice, as a Match
// keeps it: the last revealed link and the links used.
type shareVerifier struct {
	m    *Match
	seat engine.Seat
}

func newShareVerifier(match Digest, seat engine.Seat, tip Digest, links int) *shareVerifier {
	m := &Match{id: match, links: make([]Digest, seat+1), used: make([]int, seat+1), chainLen: make([]int, seat+1)}
	m.links[seat], m.chainLen[seat] = tip, links
	return &shareVerifier{m: m, seat: seat}
}

// accept checks one share as applyShare does and moves on.
func (v *shareVerifier) accept(link Digest, next string) error {
	m, s := v.m, v.seat
	if err := VerifyLink(m.id, s, m.links[s], link); err != nil {
		return err
	}
	after, err := m.chainAfter(s, link, next)
	if err != nil {
		return err
	}
	m.links[s] = after
	m.used[s]++
	return nil
}

func nextText(d *Digest) string {
	if d == nil {
		return ""
	}
	return hexDigest(*d)
}

// A seat's dice go on past the end of a chain: the share that reveals a
// chain's last link names the next chain's tip, and every later share
// extends it; only SegmentLinks hashes are spent before the first roll.
func TestDiceContinueFromChainToChain(t *testing.T) {
	match := newHasher("m").sum()
	d := newDice(match, 1, newHasher("seed").sum(), 4, true)
	v := newShareVerifier(match, 1, d.Tip(), d.Len())
	for k := 1; k <= 13; k++ {
		link, next, err := d.Share(k)
		if err != nil {
			t.Fatal(err)
		}
		if (next != nil) != (k%4 == 0) {
			t.Fatalf("share %d: next %v, want one at every 4th", k, next)
		}
		if err := v.accept(link, nextText(next)); err != nil {
			t.Fatalf("share %d: %v", k, err)
		}
	}
	if len(d.cur.links) != 5 {
		t.Fatalf("the dice hold %d links, want one chain of 4 and its tip", len(d.cur.links))
	}
	fresh, err := NewChain(match, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(fresh.cur.links) - 1; n != SegmentLinks || fresh.following != nil {
		t.Fatalf("new dice hash %d links before the first roll, want %d", n, SegmentLinks)
	}
}

// A resumed referee rebuilds the same dice from the seed its secrets file
// keeps, wherever in which chain it stopped.
func TestDiceRebuiltFromTheSeedGiveTheSameShares(t *testing.T) {
	match, seed := newHasher("m").sum(), newHasher("seed").sum()
	a := newDice(match, 0, seed, 4, true)
	for k := 1; k <= 11; k++ {
		la, na, _ := a.Share(k)
		b := newDice(match, 0, seed, 4, true) // a fresh copy, as after a restart
		lb, nb, _ := b.Share(k)
		if la != lb || nextText(na) != nextText(nb) || a.Tip() != b.Tip() {
			t.Fatalf("share %d differs after a rebuild", k)
		}
	}
}

// The attacks on a continued chain: naming a next chain before the last
// link (to drop the committed rest of the chain and pick new links), a
// share after a next that does not extend the named tip, and a malformed
// tip. The one long chain of older matches (no next) is checked as it
// always was: its shares verify in order, and past its end none can.
func TestDiceNextChainAttacks(t *testing.T) {
	match := newHasher("m").sum()
	d := newDice(match, 0, newHasher("seed").sum(), 4, true)
	other := newDice(match, 0, newHasher("evil").sum(), 4, true)
	t.Run("next before the last link", func(t *testing.T) {
		v := newShareVerifier(match, 0, d.Tip(), 4)
		link, _, _ := d.Share(1)
		if err := v.accept(link, hexDigest(other.Tip())); !errors.Is(err, ErrChain) {
			t.Fatalf("a next chain at link 1 of 4: %v", err)
		}
	})
	t.Run("a share that does not extend the next tip", func(t *testing.T) {
		v := newShareVerifier(match, 0, d.Tip(), 4)
		for k := 1; k <= 4; k++ {
			link, next, _ := d.Share(k)
			if k == 4 {
				next = ptr(other.Tip()) // names another chain than its own next
			}
			if err := v.accept(link, nextText(next)); err != nil {
				t.Fatal(err)
			}
		}
		own, _, _ := d.Share(5)
		if err := v.accept(own, ""); !errors.Is(err, ErrChain) {
			t.Fatalf("a link of a chain it did not name: %v", err)
		}
		evil, _, _ := other.Share(1)
		if err := v.accept(evil, ""); err != nil {
			t.Fatalf("the named chain's own link: %v", err)
		}
	})
	t.Run("malformed tip", func(t *testing.T) {
		v := newShareVerifier(match, 0, d.Tip(), 1)
		link, _, _ := newDice(match, 0, newHasher("seed").sum(), 1, true).Share(1)
		if err := v.accept(link, "zz"); err == nil {
			t.Fatal("a malformed next tip was taken")
		}
	})
	t.Run("one long chain as before", func(t *testing.T) {
		old := newDice(match, 0, newHasher("old").sum(), 6, false)
		v := newShareVerifier(match, 0, old.Tip(), 6)
		for k := 1; k <= 6; k++ {
			link, next, err := old.Share(k)
			if err != nil || next != nil {
				t.Fatalf("share %d: %v %v", k, next, err)
			}
			if err := v.accept(link, ""); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := old.Share(7); err == nil {
			t.Fatal("a link past the end of a chain that does not continue")
		}
		if err := v.accept(newHasher("guess").sum(), ""); !errors.Is(err, ErrChain) {
			t.Fatalf("past the seed: %v", err)
		}
	})
}

func ptr[T any](v T) *T { return &v }

// A secrets file written before dice chains continued (no "continues")
// gives back the one long chain its match committed to, so the match
// resumes with the links its hello promised.
func TestOldSecretsFileResumesTheLongChain(t *testing.T) {
	match, seed := newHasher("m").sum(), newHasher("old seed").sum()
	path := t.TempDir() + "/old.secrets"
	old := []byte(`{"match":"` + hexDigest(match) + `","seat":1,"seed":"` + hexDigest(seed) + `","links":16384,"vectors":[]}`)
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := loadSecrets(path, match, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := newChainFromSeed(match, 1, seed, ChainLinks)
	if st.chain.Tip() != want.Tip() || st.chain.continues {
		t.Fatal("the old secrets file gives another chain")
	}
	for _, k := range []int{1, 2, 500} {
		got, next, err := st.chain.Share(k)
		if l, _ := want.Link(k); err != nil || next != nil || got != l {
			t.Fatalf("share %d: %v %v", k, next, err)
		}
	}
}

// Each of a seat's chains hangs from its own seed: no link comes again in a
// later chain. Were the chains alike, the links a seat revealed would tell
// everyone its links to come, and a seat starting its own next chain could
// choose it, knowing them, to steer the rolls ahead.
func TestDiceChainsNeverRepeatALink(t *testing.T) {
	match := newHasher("m").sum()
	d := newDice(match, 0, newHasher("seed").sum(), 4, true)
	seen := map[Digest]int{d.Tip(): 0}
	for k := 1; k <= 16; k++ {
		link, next, err := d.Share(k)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range []*Digest{&link, next} {
			if l == nil {
				continue
			}
			if at, dup := seen[*l]; dup {
				t.Fatalf("share %d repeats what share %d revealed", k, at)
			}
			seen[*l] = k
		}
	}
}

// Only a share may name a next chain: on any other input the field would
// ride along unread, and Salvo before it refused the field everywhere.
func TestNextChainOnlyInAShare(t *testing.T) {
	tb := newTable(t, testKeys(t, 3))
	st, _ := tb.m.Next()
	in := WireInput{T: InHello, Tip: hexDigest(newHasher("tip").sum()), Links: 64, Next: hexDigest(newHasher("x").sum())}
	if _, err := tb.m.Stage(st.Seat, in); err == nil || !strings.Contains(err.Error(), "only a share") {
		t.Fatalf("a hello naming a next chain: %v", err)
	}
}
