package fairness_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
)

// Issue 14 requirement 4 and point 17: in a free-for-all of three or four
// one player goes silent mid-match (as a player who quits does); the seat
// after it takes it off the table in the signed chain once its give-up
// time has passed, and the others play on to the game's own end (the last
// player standing) instead of sharing a win by its forfeit. The remaining
// records are identical, each audits clean, and their joint audit agrees;
// the departed seat is never among the winners, and its own referee
// learns that it was taken off the table.
func TestFreeForAllPlaysOnAfterADeparture(t *testing.T) {
	if testing.Short() {
		t.Skip("a full multi-player Air match takes a few seconds")
	}
	giveUp := time.Second
	if raceEnabled {
		giveUp = 8 * time.Second
	}
	for _, n := range []int{3, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			const silent = 1
			gt := playGroup(t, n, giveUp, silent, 4)
			var first []byte
			var reps []*fairness.Report
			for i := range n {
				if i == silent {
					continue
				}
				r := gt.results[i]
				if gt.errs[i] != nil || r.Closing != nil || !r.Outcome.Done {
					t.Fatalf("seat %d: %v, %+v", i, gt.errs[i], r)
				}
				if slices.Contains(r.Outcome.Winners, silent) {
					t.Fatalf("seat %d: the departed seat is among the winners %v", i, r.Outcome.Winners)
				}
				if !r.Outcome.Draw && r.Outcome.Reason != "last player standing" {
					t.Fatalf("seat %d: reason %q, want the last player standing", i, r.Outcome.Reason)
				}
				data, _ := os.ReadFile(gt.paths[i])
				if first == nil {
					first = data
				} else if string(data) != string(first) {
					t.Fatalf("seat %d's record differs from the first remaining seat's", i)
				}
				rep := auditFile(t, gt.paths[i])
				if rep.Verdict != fairness.Clean {
					t.Fatalf("seat %d: %s", i, rep.Summary())
				}
				reps = append(reps, rep)
			}
			if !strings.Contains(string(first), `"t":"remove"`) {
				t.Fatal("the records hold no removal")
			}
			// The departed seat's own record stops at its removal; with
			// the others' it audits as the game's end.
			j, err := fairness.AuditJoint(append(reps, auditFile(t, gt.paths[silent])))
			if err != nil || j.Verdict != fairness.Clean {
				t.Fatalf("joint audit: %v %s", err, j.Summary())
			}
			if r := gt.results[silent]; r == nil || !r.Removed {
				t.Fatalf("the silent seat was not told it was taken off the table: %+v %v", r, gt.errs[silent])
			}
			t.Logf("%d players: %s; winners %v", n, gt.results[0].Outcome.Reason, gt.results[0].Outcome.Winners)
		})
	}
}

// A seat taken off the table that keeps sending (junk, and messages
// validly signed for a seat no longer at the table) neither stops the
// match for the others nor gets into their records: they drop it unread,
// play on to the end, and their records agree and audit clean.
func TestFreeForAllRemovedSeatThatKeepsSending(t *testing.T) {
	if testing.Short() {
		t.Skip("a full multi-player Air match takes a few seconds")
	}
	giveUp := time.Second
	if raceEnabled {
		giveUp = 8 * time.Second
	}
	const silent = 2
	sent := make(chan error, 1)
	hook := func(seat int, a engine.Agent, tr fairness.GroupTransport, cfg *fairness.Config) (engine.Agent, fairness.GroupTransport) {
		if seat != silent {
			return a, tr
		}
		m, key := cfg.Match, cfg.Key
		cfg.Observe = func(n fairness.Note) {
			if n.Dir != "stop" || !strings.Contains(n.Text, "off the table") {
				return
			}
			// The referee is done with its match: sign on from it.
			e, err := m.Draft([]fairness.WireInput{{T: fairness.InMove, Move: []byte(`{"action":"end"}`)}}, m.StateHash(), key)
			if err != nil {
				sent <- err
				return
			}
			b, err := fairness.EncodeEnvelope(e)
			if err != nil {
				sent <- err
				return
			}
			ctx := context.Background()
			sent <- errors.Join(tr.Send(ctx, []byte("not an envelope")), tr.Send(ctx, b))
		}
		return a, tr
	}
	gt := playGroupOpts(t, groupOpts{n: 3, timeout: giveUp, silent: silent, decisions: 4, hook: hook})
	select {
	case err := <-sent:
		if err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatal("the silent seat was never taken off the table")
	}
	a, _ := os.ReadFile(gt.paths[0])
	b, _ := os.ReadFile(gt.paths[1])
	if string(a) != string(b) {
		t.Fatal("the remaining records differ")
	}
	dropped := 0
	for i := range 2 {
		r := gt.results[i]
		if gt.errs[i] != nil || r.Closing != nil || !r.Outcome.Done {
			t.Fatalf("seat %d: %v, %+v", i, gt.errs[i], r)
		}
		if rep := auditFile(t, gt.paths[i]); rep.Verdict != fairness.Clean {
			t.Fatalf("seat %d: %s", i, rep.Summary())
		}
		dropped += r.Dropped
	}
	if dropped == 0 {
		t.Fatal("nothing the removed seat sent reached the others: the test checked nothing")
	}
}

// leaveAfter is an agent that decides like its inner one n times, then
// leaves the match on purpose: it cancels its referee's context with
// fairness.ErrLeaving, as the interface does when its player leaves.
type leaveAfter struct {
	engine.Agent
	n     int
	leave context.CancelCauseFunc
}

func (a *leaveAfter) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, need engine.Need) (engine.Decision, error) {
	if a.n == 0 {
		a.leave(fairness.ErrLeaving)
		<-ctx.Done()
		return engine.Decision{}, ctx.Err()
	}
	a.n--
	return a.Agent.Decide(ctx, g, seat, sec, need)
}

// Issue 14 requirement 4 with the leaver's own word: a player who leaves
// a free-for-all on purpose signs its left record into its own transcript
// and hands it to the others, and the seat the rules make responsible
// takes it off the table at once (the give-up time here is far longer
// than the test), so the others play on to the end. Their records agree,
// audit clean, and hold the leaver's signed record; the leaver's own
// record ends with it.
func TestFreeForAllLeaverSignsItsDeparture(t *testing.T) {
	if testing.Short() {
		t.Skip("a full multi-player Air match takes a few seconds")
	}
	for _, n := range []int{3, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			const leaver = 0
			leaves := make([]context.CancelCauseFunc, n)
			gt := playGroupOpts(t, groupOpts{n: n, timeout: time.Minute, silent: -1,
				leave: func(seat int, ctx context.Context) context.Context {
					c, cancel := context.WithCancelCause(ctx)
					leaves[seat] = cancel
					return c
				},
				hook: func(seat int, a engine.Agent, tr fairness.GroupTransport, cfg *fairness.Config) (engine.Agent, fairness.GroupTransport) {
					if seat == leaver {
						return &leaveAfter{Agent: a, n: 5, leave: leaves[seat]}, tr
					}
					return a, tr
				}})
			if !errors.Is(gt.errs[leaver], context.Canceled) {
				t.Fatalf("the leaver: %v", gt.errs[leaver])
			}
			own := auditFile(t, gt.paths[leaver])
			if own.Verdict != fairness.Forfeit || own.Closing == nil || own.Closing.Closing != fairness.CloseLeft {
				t.Fatalf("the leaver's own record: %s", own.Summary())
			}
			var first []byte
			reps := []*fairness.Report{own}
			for i := 1; i < n; i++ {
				r := gt.results[i]
				if gt.errs[i] != nil || r.Closing != nil || !r.Outcome.Done || slices.Contains(r.Outcome.Winners, leaver) {
					t.Fatalf("seat %d: %v, %+v", i, gt.errs[i], r)
				}
				data, _ := os.ReadFile(gt.paths[i])
				if first == nil {
					first = data
				} else if string(data) != string(first) {
					t.Fatalf("seat %d's record differs", i)
				}
				rep := auditFile(t, gt.paths[i])
				if rep.Verdict != fairness.Clean {
					t.Fatalf("seat %d: %s", i, rep.Summary())
				}
				reps = append(reps, rep)
			}
			if !strings.Contains(string(first), `"left":{"closing":"left"`) {
				t.Fatal("the remaining records do not hold the leaver's signed word")
			}
			// The leaver's record, which stops at its leaving, and the
			// others', which play on, audit together as the game's end.
			if j, err := fairness.AuditJoint(reps); err != nil || j.Verdict != fairness.Clean {
				t.Fatalf("joint audit: %v %s", err, j.Summary())
			}
			t.Logf("%d players: %s", n, gt.results[1].Outcome.Reason)
		})
	}
}

// In the team game a player who leaves on purpose hands the others its
// left record and they record its forfeit at once (its squadron counts as
// eliminated: the other team wins), without waiting out the give-up time.
func TestTeamLeaverHandsOverItsForfeit(t *testing.T) {
	if testing.Short() {
		t.Skip("a multi-player Air match takes a few seconds")
	}
	const leaver = 1
	leaves := make([]context.CancelCauseFunc, 4)
	gt := playGroupOpts(t, groupOpts{n: 4, timeout: time.Minute, silent: -1, variant: "team",
		leave: func(seat int, ctx context.Context) context.Context {
			c, cancel := context.WithCancelCause(ctx)
			leaves[seat] = cancel
			return c
		},
		hook: func(seat int, a engine.Agent, tr fairness.GroupTransport, cfg *fairness.Config) (engine.Agent, fairness.GroupTransport) {
			if seat == leaver {
				return &leaveAfter{Agent: a, n: 3, leave: leaves[seat]}, tr
			}
			return a, tr
		}})
	for _, s := range []int{0, 2, 3} {
		r := gt.results[s]
		if gt.errs[s] != nil || r.Closing == nil || r.Closing.Closing != fairness.CloseLeft || r.Closing.Seat != leaver {
			t.Fatalf("seat %d: %v, closing %+v; want the leaver's own left record", s, gt.errs[s], r.Closing)
		}
		if !slices.Equal(r.Outcome.Winners, []engine.Seat{0, 3}) {
			t.Fatalf("seat %d: winners %v", s, r.Outcome.Winners)
		}
	}
}
