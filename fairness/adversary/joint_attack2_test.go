package adversary

import (
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
		for _, set := range [][]*fairness.Report{{honest, forged}, {forged, honest}, append(slices.Clone(others), forged)} {
			j, err := fairness.AuditJoint(set)
			if err != nil {
				t.Fatal(err)
			}
			if j.Verdict != fairness.Clean || !slices.Equal(j.Outcome.Winners, honest.Outcome.Winners) {
				t.Fatalf("joint audit: %s; want the honest clean result %v", j.Summary(), honest.Outcome.Winners)
			}
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
