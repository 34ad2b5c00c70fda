package adversary

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// A second round of attacks on the joint audit (issue 12), aimed at the
// "left" closing record: a player's own signed word that it left, which
// fits at any turn and needs no witness.

// A player who lost a match cleanly cuts its record after its own last
// message and appends its own signed "left" record there. None of its own
// messages follows, so nothing refutes the admission; alone the record
// audits as its own forfeit. Audited together with the winner's record,
// which plays the match to its end by the rules, both records say the
// same: the attacker lost. On land the joint audit called this "disputed:
// no result", so a loser could turn any clean loss whose last message was
// the winner's into no result with a record that blames only itself.
func TestAttack2LeftAfterTheLossDisputesACleanWin(t *testing.T) {
	ms, err := honestMatches()
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, m := range ms {
		honest := m.reports[0]
		if honest.Verdict != fairness.Clean || len(honest.Outcome.Winners) != 1 {
			continue
		}
		for loser := range engine.Seat(len(m.h.Players)) {
			if slices.Contains(honest.Outcome.Winners, loser) {
				continue
			}
			last := -1
			for k, st := range honest.Steps {
				if st.Seat == loser {
					last = k
				}
			}
			if last < 0 || last+1 == len(honest.Steps) {
				continue // its own message ends the match: it cannot cut after it
			}
			tried++
			t.Run(m.name, func(t *testing.T) { leftAfterTheLoss(t, m, loser, last+1) })
		}
	}
	if tried == 0 {
		t.Fatal("no honest match ends with a message of the winner")
	}
}

// leftAfterTheLoss forges loser's record: its first n messages and its own
// left record, and audits it with every honest record.
func leftAfterTheLoss(t *testing.T, m *match, loser engine.Seat, n int) {
	c := &fairness.Closing{Closing: fairness.CloseLeft, Match: m.h.Match, Seat: int(loser), Seq: uint64(n), Detail: "left"}
	if err := c.Sign(m.keys[loser]); err != nil {
		t.Fatal(err)
	}
	forged := auditLines(t, append(slices.Clone(m.records[loser][:n+1]), encode(c)))
	if forged.Verdict != fairness.Forfeit {
		t.Fatalf("the forged record alone: %s", forged.Summary())
	}
	others := slices.Delete(slices.Clone(m.reports), int(loser), int(loser)+1)
	for _, honest := range others {
		if honest.Verdict != fairness.Clean {
			// A silent seat's record stops early: with only the
			// loser's admission beside it, that admission is the result.
			continue
		}
		for _, set := range [][]*fairness.Report{{honest, forged}, {forged, honest}, append(slices.Clone(others), forged)} {
			j, err := fairness.AuditJoint(set)
			if err != nil {
				t.Fatal(err)
			}
			if j.Verdict != fairness.Clean || !slices.Equal(j.Outcome.Winners, honest.Outcome.Winners) {
				t.Fatalf("joint audit: %s; want the honest clean result %v", j.Summary(), honest.Outcome.Winners)
			}
			t.Logf("joint audit: %s", j.Summary())
		}
	}
}

// auditLines audits a record given as its lines.
func auditLines(t *testing.T, lines []string) *fairness.Report {
	t.Helper()
	rep, err := fairness.Audit(strings.NewReader(strings.Join(lines, "\n")+"\n"), games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// A seat that went silent (the others recorded its timeout) writes its own
// record on to the place where the match waited for it, and puts there,
// instead of its own message, undecodable bytes "from" another seat with
// its signed violation record: "seat 0 sent me junk while I thought". Alone
// its record blames seat 0 on its writer's word. The honest record holds
// no message at that place (the silent seat never sent one) but its own
// signed claim that the silent seat timed out there: two claims of one
// place, word against word. On land the joint audit took the junk claim
// over the timeout and named the honest seat ("violation by seat 0 …
// rests on seat 1's word"): the claimed violation was outweighed only by a
// signed message at its place, never by a forfeit claim about it.
func TestAttack2JunkClaimPastTheHonestRecordNamesTheHonestSeat(t *testing.T) {
	ms, err := honestMatches()
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, m := range ms {
		silent := engine.NoSeat
		for s, r := range m.reports {
			if r.Closing == nil && r.Verdict == fairness.Incomplete {
				silent = engine.Seat(s)
			}
		}
		if silent == engine.NoSeat {
			continue
		}
		for s, honest := range m.reports {
			if engine.Seat(s) == silent || honest.Verdict != fairness.Forfeit {
				continue
			}
			tried++
			t.Run(fmt.Sprintf("%s/junk from seat %d", m.name, s), func(t *testing.T) { junkPastTheEnd(t, m, silent, engine.Seat(s)) })
		}
	}
	if tried == 0 {
		t.Fatal("no honest match in which a seat went silent")
	}
}

// junkPastTheEnd forges silent's record: its own messages, as far as the
// honest record of victim goes, then undecodable bytes from victim and
// silent's violation record blaming it, and audits it with every honest
// record.
func junkPastTheEnd(t *testing.T, m *match, silent, victim engine.Seat) {
	honest := m.reports[victim]
	n := len(honest.Steps)
	lines := slices.Clone(m.records[victim][:n+1])
	lines = append(lines, encode(fairness.Raw{Raw: base64.StdEncoding.EncodeToString([]byte("junk")), From: m.h.Players[victim].Peer}))
	c := &fairness.Closing{Closing: fairness.CloseViolation, Match: m.h.Match, Seat: int(victim), Seq: uint64(n + 1), Detail: "undecodable message"}
	if err := c.Sign(m.keys[silent]); err != nil {
		t.Fatal(err)
	}
	forged := auditLines(t, append(lines, encode(c)))
	if forged.Verdict != fairness.Violated || forged.Violation.Seat != victim {
		t.Fatalf("the forged record alone: %s", forged.Summary())
	}
	others := slices.Delete(slices.Clone(m.reports), int(silent), int(silent)+1)
	for _, set := range [][]*fairness.Report{{honest, forged}, {forged, honest}, append(slices.Clone(others), forged)} {
		j, err := fairness.AuditJoint(set)
		if err != nil {
			t.Fatal(err)
		}
		if j.Verdict == fairness.Violated && j.Violation.Seat != silent {
			t.Fatalf("joint audit names honest seat %d: %s", j.Violation.Seat, j.Summary())
		}
		t.Logf("joint audit: %s", j.Summary())
	}
}

// The same attack a message further: the honest seat 0 timed out seat 1
// after message p (seat 1's message p+1 never reached it); seat 1's
// record holds its own signed message p+1 and then undecodable bytes
// "from" seat 0 with its violation record. The honest record ends before
// that place, with its claim that seat 1 went silent earlier; the
// accused's later messages refute no claim (they may have been lost), so
// this too is word against word, and seat 0 must not be named.
func TestAttack2JunkClaimAfterItsOwnLostMessageNamesTheHonestSeat(t *testing.T) {
	ms, err := honestMatches()
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, m := range ms {
		if len(m.h.Players) != 2 || m.reports[0].Verdict != fairness.Clean {
			continue
		}
		steps := m.reports[0].Steps
		for p := len(steps) / 2; p+2 < len(steps); p++ {
			if steps[p].Seat != 1 {
				continue // message p+1 must be the attacker's
			}
			tried++
			t.Run(m.name, func(t *testing.T) { junkAfterOwnMessage(t, m, p) })
			break
		}
	}
	if tried == 0 {
		t.Fatal("no clean two-player match")
	}
}

// junkAfterOwnMessage audits seat 0's record of seat 1's timeout after
// message p with seat 1's record of message p+1, then junk from seat 0.
func junkAfterOwnMessage(t *testing.T, m *match, p int) {
	timeout := &fairness.Closing{Closing: fairness.CloseTimeout, Match: m.h.Match, Seat: 1, Seq: uint64(p), Detail: "no message"}
	if err := timeout.Sign(m.keys[0]); err != nil {
		t.Fatal(err)
	}
	honest := auditLines(t, append(slices.Clone(m.records[0][:p+1]), encode(timeout)))
	if honest.Verdict != fairness.Forfeit {
		t.Fatalf("the honest record: %s", honest.Summary())
	}
	lines := slices.Clone(m.records[1][:p+2])
	lines = append(lines, encode(fairness.Raw{Raw: base64.StdEncoding.EncodeToString([]byte("junk")), From: m.h.Players[0].Peer}))
	c := &fairness.Closing{Closing: fairness.CloseViolation, Match: m.h.Match, Seat: 0, Seq: uint64(p + 2), Detail: "undecodable message"}
	if err := c.Sign(m.keys[1]); err != nil {
		t.Fatal(err)
	}
	forged := auditLines(t, append(lines, encode(c)))
	if forged.Verdict != fairness.Violated || forged.Violation.Seat != 0 {
		t.Fatalf("the forged record alone: %s", forged.Summary())
	}
	for _, set := range [][]*fairness.Report{{honest, forged}, {forged, honest}} {
		j, err := fairness.AuditJoint(set)
		if err != nil {
			t.Fatal(err)
		}
		if j.Verdict == fairness.Violated && j.Violation.Seat != 1 {
			t.Fatalf("joint audit names honest seat %d: %s", j.Violation.Seat, j.Summary())
		}
	}
}

// Two colluders against a third, with the "left" record: in a 3-player
// match seat 2 goes silent and the honest seats record its timeout (seat 0
// wins with seat 1). Seat 1, colluding with seat 2, hands in instead its
// own record ending with its own signed word that it left at that same
// place. An admission can hurt nobody but its writer, yet on land the
// joint audit of the honest record with it said "disputed: no result":
// seat 1 gave up its share of the win to take seat 0's. A left record
// never disputes another record's result: set aside, the verdict is the
// one the other records give, as if it were withheld.
func TestAttack2ColluderAdmissionDisputesAForfeit(t *testing.T) {
	ms, err := honestMatches()
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, m := range ms {
		silent := engine.NoSeat
		for s, r := range m.reports {
			if r.Closing == nil && r.Verdict == fairness.Incomplete {
				silent = engine.Seat(s)
			}
		}
		if silent == engine.NoSeat || len(m.h.Players) < 3 || !othersGaveUpOn(m.reports, silent) {
			// A seat shot down before it went silent is waited for by
			// nobody: the others play to the end, and there is no
			// forfeit to dispute.
			continue
		}
		for colluder, rec := range m.reports {
			if engine.Seat(colluder) == silent {
				continue
			}
			tried++
			t.Run(fmt.Sprintf("%s/seat %d admits", m.name, colluder), func(t *testing.T) {
				n := len(rec.Steps)
				c := &fairness.Closing{Closing: fairness.CloseLeft, Match: m.h.Match, Seat: colluder, Seq: uint64(n), Detail: "left"}
				if err := c.Sign(m.keys[colluder]); err != nil {
					t.Fatal(err)
				}
				forged := auditLines(t, append(slices.Clone(m.records[colluder][:n+1]), encode(c)))
				if forged.Verdict != fairness.Forfeit {
					t.Fatalf("the forged record alone: %s", forged.Summary())
				}
				for h, honest := range m.reports {
					if h == colluder || engine.Seat(h) == silent {
						continue
					}
					for _, set := range [][]*fairness.Report{{honest, forged}, {forged, honest}} {
						j, err := fairness.AuditJoint(set)
						if err != nil {
							t.Fatal(err)
						}
						if j.Verdict != honest.Verdict || !slices.Equal(j.Outcome.Winners, honest.Outcome.Winners) {
							t.Fatalf("joint audit: %s; want seat %d's result: %s", j.Summary(), h, honest.Summary())
						}
					}
				}
			})
		}
	}
	if tried == 0 {
		t.Fatal("no 3-4 player match in which a seat went silent")
	}
}

// The leaver's two words: seat 1 leaves after message k (its signed left
// record, which seat 0 records), and then hands in a record of its own in
// which, after message k, undecodable bytes "from" seat 0 arrived, with
// its signed violation record. Seat 0's record holds nothing after k to
// outweigh the claim; on land the joint audit named seat 0 on seat 1's
// word. Seat 1's own signature says it left after message k, the last it
// held: its violation record of a later message contradicts it, and names
// seat 1 for a false claim. So does a violation record of a message it held
// (junk in the place of seat 0's message k, which seat 0's record holds
// signed: on land "disputed", the leaver's admitted loss undone): an
// honest player signs one closing record per match.
func TestAttack2LeaverClaimsJunkAfterLeaving(t *testing.T) {
	ms, err := honestMatches()
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, m := range ms {
		if len(m.h.Players) != 2 || m.reports[0].Verdict != fairness.Clean {
			continue
		}
		tried++
		steps := m.reports[0].Steps
		k := len(steps) / 2
		for steps[k-1].Seat != 0 {
			k++ // message k is seat 0's
		}
		// The junk comes after the last message seat 1 held (after k), or
		// in the place of seat 0's message k, which seat 0's record holds.
		for name, at := range map[string]int{"after leaving": k, "before leaving": k - 1} {
			t.Run(m.name+"/"+name, func(t *testing.T) { leaverJunk(t, m, k, at) })
		}
	}
	if tried == 0 {
		t.Fatal("no clean two-player match")
	}
}

// leaverJunk audits seat 0's record ending with seat 1's left record after
// message k with seat 1's record of its first at messages, then junk from
// seat 0.
func leaverJunk(t *testing.T, m *match, k, at int) {
	left := &fairness.Closing{Closing: fairness.CloseLeft, Match: m.h.Match, Seat: 1, Seq: uint64(k), Detail: "left"}
	if err := left.Sign(m.keys[1]); err != nil {
		t.Fatal(err)
	}
	honest := auditLines(t, append(slices.Clone(m.records[0][:k+1]), encode(left)))
	if honest.Verdict != fairness.Forfeit {
		t.Fatalf("the honest record: %s", honest.Summary())
	}
	lines := append(slices.Clone(m.records[1][:at+1]), encode(fairness.Raw{Raw: base64.StdEncoding.EncodeToString([]byte("junk")), From: m.h.Players[0].Peer}))
	c := &fairness.Closing{Closing: fairness.CloseViolation, Match: m.h.Match, Seat: 0, Seq: uint64(at + 1), Detail: "undecodable message"}
	if err := c.Sign(m.keys[1]); err != nil {
		t.Fatal(err)
	}
	forged := auditLines(t, append(lines, encode(c)))
	for _, set := range [][]*fairness.Report{{honest, forged}, {forged, honest}} {
		j, err := fairness.AuditJoint(set)
		if err != nil {
			t.Fatal(err)
		}
		if j.Verdict != fairness.Violated || j.Violation.Seat != 1 || !errors.Is(j.Violation.Err, fairness.ErrFalseClaim) {
			t.Fatalf("joint audit: %s; want seat 1 named for a false claim", j.Summary())
		}
		t.Logf("joint audit: %.300s", j.Summary())
	}
}

// othersGaveUpOn reports whether every record but silent's ends with a
// forfeit of silent.
func othersGaveUpOn(reps []*fairness.Report, silent engine.Seat) bool {
	for s, r := range reps {
		if engine.Seat(s) != silent && (r.Closing == nil || engine.Seat(r.Closing.Seat) != silent) {
			return false
		}
	}
	return true
}
