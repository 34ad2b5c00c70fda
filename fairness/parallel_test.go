package fairness_test

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// groupRecord is one honest 3-player Air match with parallel groups, as
// seat 0 recorded it: its header, envelopes and the players' keys.
type groupRecord struct {
	h     fairness.Header
	envs  []*fairness.Envelope
	keys  []crypto.PrivKey
	lines []string // the record's lines, the header first
}

// file writes lines to a new file and returns its path.
func file(t *testing.T, lines []string) string {
	t.Helper()
	path := t.TempDir() + "/record.jsonl"
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func splitLines(data []byte) []string {
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

var (
	groupRecordOnce sync.Once
	groupRecordVal  *groupRecord
)

// recordGroup plays (once per test binary) the match the member attacks
// start from.
func recordGroup(t *testing.T) *groupRecord {
	t.Helper()
	groupRecordOnce.Do(func() {
		gt := playGroup(t, 3, 30*time.Second, -1, 0)
		for i := range gt.errs {
			if gt.errs[i] != nil || gt.results[i].Closing != nil {
				t.Fatalf("seat %d: %v %+v", i, gt.errs[i], gt.results[i])
			}
		}
		f, err := os.Open(gt.paths[0])
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		h, tr, err := fairness.ReadTranscript(f)
		if err != nil {
			t.Fatal(err)
		}
		g := &groupRecord{h: h, keys: gt.keys}
		for {
			ln, err := tr.Next()
			if err != nil {
				break
			}
			g.envs = append(g.envs, ln.Envelope)
		}
		data, err := os.ReadFile(gt.paths[0])
		if err != nil {
			t.Fatal(err)
		}
		g.lines = splitLines(data)
		groupRecordVal = g
	})
	if groupRecordVal == nil {
		t.Fatal("no record")
	}
	return groupRecordVal
}

// id is the hex ID of envelope k (the match ID for k = -1).
func (g *groupRecord) id(k int) string {
	if k < 0 {
		return g.h.Match
	}
	return g.envs[k].Hash().String()
}

// members returns the indexes of the envelopes sent as members (their
// Prev names an earlier message than the one before them): every choice
// commitment, and a few others spread over the match (each attack
// replays the match up to it).
func (g *groupRecord) members() []int {
	var out []int
	for k, e := range g.envs {
		if e.Prev == g.id(k-1) {
			continue
		}
		b, _ := fairness.DecodeBody(e.Body)
		if len(out) < 6 || b.Inputs[0].T == fairness.InChoose && len(out) < 12 {
			out = append(out, k)
		}
	}
	return out
}

// replay returns a match that accepted the first n envelopes.
func (g *groupRecord) replay(t *testing.T, n int) *fairness.Match {
	t.Helper()
	spec, _ := games.Spec(g.h.Game)
	m, err := fairness.NewMatch(spec, g.h)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range g.envs[:n] {
		c := *e
		if _, err := m.Accept(&c); err != nil {
			t.Fatalf("replay: %v", err)
		}
	}
	return m
}

// resigned returns a copy of envelope k changed by edit (its body decoded
// into b, encoded again after) and signed again by its sender.
func (g *groupRecord) resigned(t *testing.T, k int, edit func(e *fairness.Envelope, b *fairness.Body)) *fairness.Envelope {
	t.Helper()
	src := g.envs[k]
	c := fairness.Envelope{Match: src.Match, Seq: src.Seq, Prev: src.Prev, Body: src.Body}
	b, err := fairness.DecodeBody(src.Body)
	if err != nil {
		t.Fatal(err)
	}
	edit(&c, b)
	if c.Body, err = fairness.EncodeBody(b); err != nil {
		t.Fatal(err)
	}
	if err := c.Sign(g.keys[g.h.Seat(src.From)]); err != nil {
		t.Fatal(err)
	}
	return &c
}

// refusedWith checks that m refuses e as a signed violation of its sender
// wrapping want.
func refusedWith(t *testing.T, m *fairness.Match, e *fairness.Envelope, want error) {
	t.Helper()
	_, err := m.Accept(e)
	var v *fairness.Violation
	if !errors.As(err, &v) || !errors.Is(err, want) || !v.Signed {
		t.Fatalf("message %d: got %v, want a signed violation wrapping %v", e.Seq, err, want)
	}
}

func TestGroupRecordHasMembers(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	if len(g.members()) == 0 {
		t.Fatal("an honest 3-player match sent no member at once")
	}
	if rep := auditFile(t, file(t, g.lines)); rep.Verdict != fairness.Clean {
		t.Fatal(rep.Summary())
	}
}

// A member states its base's state hash: it cannot know the state the
// members before it lead to. Any other state (the true state after it
// included) is refused.
func TestAttackMemberStatesAnotherState(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	for _, k := range g.members() {
		m := g.replay(t, k)
		state := g.replay(t, k+1).StateHash().String()
		if state == m.StateHash().String() {
			state = g.id(k) // a hello's true state is the base's: any other
		}
		e := g.resigned(t, k, func(_ *fairness.Envelope, b *fairness.Body) { b.State = state })
		refusedWith(t, m, e, fairness.ErrStateHash)
	}
}

// A member holds its one contribution and nothing else.
func TestAttackMemberWithTwoInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	for _, k := range g.members() {
		m := g.replay(t, k)
		e := g.resigned(t, k, func(_ *fairness.Envelope, b *fairness.Body) {
			b.Inputs = append(b.Inputs, fairness.WireInput{T: fairness.InResign})
		})
		refusedWith(t, m, e, fairness.ErrMember)
	}
}

// A choice is opened only once every commitment of it is in: an opening
// sent as a member of the group of commitments (its Prev the commitments'
// base) is refused, even though it is its sender's true opening.
func TestAttackRevealMemberBeforeEveryCommitment(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	tried := 0
	for _, k := range g.members() {
		b, _ := fairness.DecodeBody(g.envs[k].Body)
		if b.Inputs[0].T != fairness.InChoose {
			continue
		}
		// The sender's own opening of this choice, later in the record.
		var reveal *fairness.WireInput
		for j := k + 1; j < len(g.envs) && reveal == nil; j++ {
			if g.envs[j].From != g.envs[k].From {
				continue
			}
			bj, _ := fairness.DecodeBody(g.envs[j].Body)
			for _, in := range bj.Inputs {
				if in.T == fairness.InReveal {
					reveal = &in
					break
				}
			}
		}
		if reveal == nil {
			continue
		}
		m := g.replay(t, k)
		e := g.resigned(t, k, func(_ *fairness.Envelope, b *fairness.Body) { b.Inputs = []fairness.WireInput{*reveal} })
		refusedWith(t, m, e, fairness.ErrMember)
		tried++
	}
	if tried == 0 {
		t.Fatal("no choice commitment was sent as a member")
	}
}

// Only a member's place may name the group's base as its Prev: a message
// of any other step (a move, a set-up commitment, an opening the rules
// call for), or beyond the group, signed after an earlier message than
// the one before it is refused.
func TestAttackMemberForAStepThatIsNotIndependent(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	step := max(1, len(g.envs)/12) // a dozen places across the match: each replays it
	for k := 2; k < len(g.envs); k += step {
		m := g.replay(t, k)
		legit := ""
		if base, ok := m.MemberBase(g.envs[k].Seq); ok {
			legit = base.String() // a member's place indeed
		}
		for _, base := range []int{k - 2, -1} {
			if g.id(base) == legit {
				continue
			}
			e := g.resigned(t, k, func(e *fairness.Envelope, _ *fairness.Body) { e.Prev = g.id(base) })
			refusedWith(t, g.replay(t, k), e, fairness.ErrSequence)
		}
	}
}

// A seat that signs two versions of one place, a member and a chained
// message, is caught: the one that comes second is refused as an
// equivocation, and two records holding one version each convict it.
func TestAttackMemberEquivocation(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	k := g.members()[0]
	chained := g.resigned(t, k, func(e *fairness.Envelope, b *fairness.Body) {
		e.Prev = g.id(k - 1)
		b.State = g.replay(t, k+1).StateHash().String()
	})
	if _, err := g.replay(t, k).Accept(chained); err != nil {
		t.Fatalf("the chained version is valid in its place: %v", err)
	}
	refusedWith(t, g.replay(t, k+1), chained, fairness.ErrEquivocation)

	// Two records: one holds the member (the honest record, cut after
	// it), the other the chained version.
	cb, _ := fairness.EncodeEnvelope(chained)
	a := file(t, g.lines[:k+2])
	b := file(t, append(slices.Clone(g.lines[:k+1]), string(cb)))
	j, err := fairness.AuditJoint([]*fairness.Report{auditFile(t, a), auditFile(t, b)})
	if err != nil {
		t.Fatal(err)
	}
	if j.Verdict != fairness.Violated || !errors.Is(j.Violation.Err, fairness.ErrEquivocation) || j.Violation.Seat != g.h.Seat(g.envs[k].From) {
		t.Fatalf("joint: %s", j.Summary())
	}
}

// A member is signed before its sender sees the messages between it and
// its base, so it does not refute its sender's claim that a seat before
// it went silent after the base: without this an honest seat whose member
// reached others was named for a false claim.
func TestMemberDoesNotRefuteItsSendersClaim(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	k := g.members()[0]
	b := k - 2 // the base's index
	for g.id(b) != g.envs[k].Prev {
		b--
	}
	writer := g.h.Seat(g.envs[k].From)
	silent := g.h.Seat(g.envs[b+1].From) // the first of the group
	c := &fairness.Closing{Closing: fairness.CloseTimeout, Match: g.h.Match, Seat: int(silent), Seq: uint64(b + 1), Detail: "no message"}
	if err := c.Sign(g.keys[writer]); err != nil {
		t.Fatal(err)
	}
	cl, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	claim := file(t, append(slices.Clone(g.lines[:b+2]), string(cl)))
	other := file(t, g.lines[:k+2]) // holds the member, and nothing later of its sender
	j, err := fairness.AuditJoint([]*fairness.Report{auditFile(t, claim), auditFile(t, other)})
	if err != nil {
		t.Fatal(err)
	}
	if j.Verdict == fairness.Violated && errors.Is(j.Violation.Err, fairness.ErrFalseClaim) {
		t.Fatalf("the member refuted its sender's claim: %s", j.Summary())
	}
	t.Log(j.Summary())
}

// Members of a parallel group reach each seat in whatever order the
// network brings them (the hub delays every frame at random, per seed):
// every seat still writes the same transcript, byte for byte, and it
// audits clean.
func TestParallelGroupsAnyArrivalOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 3- and 4-player Air matches")
	}
	for _, n := range []int{3, 4} {
		for seed := uint64(1); seed <= 2; seed++ {
			gt := playGroupOpts(t, groupOpts{n: n, timeout: 30 * time.Second, silent: -1, seed: seed})
			var first []byte
			for i := range n {
				if gt.errs[i] != nil || gt.results[i].Closing != nil || !gt.results[i].Outcome.Done {
					t.Fatalf("%d players, seed %d, seat %d: %v %+v", n, seed, i, gt.errs[i], gt.results[i])
				}
				data, err := os.ReadFile(gt.paths[i])
				if err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first = data
				} else if !slices.Equal(data, first) {
					t.Fatalf("%d players, seed %d: seat %d's transcript differs from seat 0's", n, seed, i)
				}
			}
			if rep := auditFile(t, gt.paths[0]); rep.Verdict != fairness.Clean {
				t.Fatalf("%d players, seed %d: %s", n, seed, rep.Summary())
			}
			if len(membersIn(t, first)) == 0 {
				t.Fatalf("%d players, seed %d: no member was sent at once", n, seed)
			}
		}
	}
}

// membersIn returns the numbers of the envelopes of a record that name an
// earlier message than the one before them as their Prev.
func membersIn(t *testing.T, data []byte) []uint64 {
	t.Helper()
	lines := splitLines(data)
	var h fairness.Header
	if err := json.Unmarshal([]byte(lines[0]), &h); err != nil {
		t.Fatal(err)
	}
	prev, out := h.Match, []uint64(nil)
	for _, ln := range lines[1:] {
		e, err := fairness.DecodeEnvelope([]byte(ln))
		if err != nil {
			continue // a closing record
		}
		if e.Prev != prev {
			out = append(out, e.Seq)
		}
		prev = e.Hash().String()
	}
	return out
}

// laterInput returns the first input of kind that the sender of envelope k
// sends after it in the record, if any.
func (g *groupRecord) laterInput(k int, kind fairness.InputKind) (fairness.WireInput, bool) {
	for j := k + 1; j < len(g.envs); j++ {
		if g.envs[j].From != g.envs[k].From {
			continue
		}
		bj, _ := fairness.DecodeBody(g.envs[j].Body)
		for _, in := range bj.Inputs {
			if in.T == kind {
				return in, true
			}
		}
	}
	return fairness.WireInput{}, false
}

// refusedLiveAndAudited checks that a member e forged in place of envelope
// k is refused live (a signed violation wrapping ErrMember) and that a
// record holding it in that place does not audit clean.
func (g *groupRecord) refusedLiveAndAudited(t *testing.T, k int, e *fairness.Envelope) {
	t.Helper()
	refusedWith(t, g.replay(t, k), e, fairness.ErrMember)
	b, err := fairness.EncodeEnvelope(e)
	if err != nil {
		t.Fatal(err)
	}
	lines := append(slices.Clone(g.lines[:k+1]), string(b))
	if rep := auditFile(t, file(t, lines)); rep.Verdict == fairness.Clean {
		t.Fatalf("a record with the forged member %d audits clean", e.Seq)
	}
}

// Issue 15 runs (runs.go): the set-up's hellos and deck key shares travel
// at once, but nothing that tells a roll does: a seat's first dice share
// sent as a member of the set-up run (in the place of its hello or its
// deck key share) is refused, live and by the audit, though it is the
// seat's true share.
func TestAttackShareInTheSetupRun(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	tried := 0
	for _, k := range g.members() {
		b, _ := fairness.DecodeBody(g.envs[k].Body)
		if kind := b.Inputs[0].T; kind != fairness.InHello && kind != fairness.InDeckKey {
			continue
		}
		share, ok := g.laterInput(k, fairness.InShare)
		if !ok {
			continue
		}
		g.refusedLiveAndAudited(t, k, g.resigned(t, k, func(_ *fairness.Envelope, b *fairness.Body) { b.Inputs = []fairness.WireInput{share} }))
		tried++
	}
	if tried == 0 {
		t.Fatal("no hello or deck key share was sent as a member")
	}
}

// A chooser's opening of its chosen cards travels with its reveal (runs.go),
// never before every commitment of the choice is in: the opening sent as
// a member of the group of commitments (its Prev their base) is refused,
// live and by the audit, even though it is its sender's true opening.
func TestAttackOpeningMemberBeforeEveryCommitment(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	refuseLaterInputAtChoiceMember(t, fairness.InOpen)
}

// The openings after a choice's reveals do travel at once: in an honest
// 3-player Air record, some opening is a member of its run (its Prev the
// run's base, before the reveals), and so are the set-up's deck key
// shares.
func TestRunsCarryOpeningsAndDeckKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	seen := map[fairness.InputKind]bool{}
	for k, e := range g.envs {
		if e.Prev == g.id(k-1) {
			continue
		}
		b, _ := fairness.DecodeBody(e.Body)
		seen[b.Inputs[0].T] = true
	}
	for _, kind := range []fairness.InputKind{fairness.InOpen, fairness.InDeckKey, fairness.InHello, fairness.InChoose, fairness.InReveal} {
		if !seen[kind] {
			t.Errorf("no %s was sent as a member", kind)
		}
	}
}

// A run carries the unmasking shares of the deals that follow one another
// (Air refills every hand in turn), never those of a deal after a
// decision: a seat's unmasking share of the next round's deal, sent in the
// place of its card choice's commitment, is refused live and by the audit.
func TestAttackUnmaskMemberBeyondItsDeals(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	refuseLaterInputAtChoiceMember(t, fairness.InUnmask)
}

// refuseLaterInputAtChoiceMember puts, in the place of each card choice's
// commitment sent as a member of an honest 3-player Air record, its
// sender's next input of kind later, re-signed, and checks that it is
// refused live and by the audit.
func refuseLaterInputAtChoiceMember(t *testing.T, later fairness.InputKind) {
	t.Helper()
	g := recordGroup(t)
	tried := 0
	for _, k := range g.members() {
		b, _ := fairness.DecodeBody(g.envs[k].Body)
		if b.Inputs[0].T != fairness.InChoose {
			continue
		}
		in, ok := g.laterInput(k, later)
		if !ok {
			continue
		}
		g.refusedLiveAndAudited(t, k, g.resigned(t, k, func(_ *fairness.Envelope, b *fairness.Body) { b.Inputs = []fairness.WireInput{in} }))
		tried++
	}
	if tried == 0 {
		t.Fatal("no choice commitment was sent as a member")
	}
}

// The deals of a round travel at once: in an honest 3-player Air record
// some unmasking share is a member whose base lies before another deal's
// shares (more envelopes between its base and it than one deal has
// dealers).
func TestRunsCarryLaterDeals(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	index := map[string]int{g.h.Match: -1}
	for k, e := range g.envs {
		index[g.id(k)] = k
		if e.Prev == g.id(k-1) {
			continue
		}
		b, _ := fairness.DecodeBody(e.Body)
		if b.Inputs[0].T == fairness.InUnmask && k-index[e.Prev]-1 >= len(g.h.Players)-1 {
			return
		}
	}
	t.Fatal("no unmasking share of a later deal was sent as a member")
}
