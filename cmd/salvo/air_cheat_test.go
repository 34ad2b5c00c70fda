package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/cheat"
)

// underRace are the two-player cheats that also run under the race
// detector (without -long): one through each selfplay path. The race
// detector slows the shared deck's arithmetic about tenfold; the other
// kinds run without it.
var underRace = []string{cheat.CardNotInHand, cheat.ShotOutOfCone}

// notInAir are generic kinds with nothing to alter in Mission Command Air:
// they doctor openings of committed vectors, and Air's only ones are the
// one-leaf card choices, opened by a reveal (changed-choice doctors that),
// while its cards are opened by unmasking shares (wrong-unmask).
var notInAir = []string{"wrong-salt", "wrong-cell"}

// cheatSeat2p is the seat that cheats in a two-player match: seat 1, as in
// every other game. (card-not-in-hand is caught whoever's reveal completes
// the choices: the referee of an honest seat whose own reveal brings a
// cheater's choice to light sends it and names the cheater.)
func cheatSeat2p(kind string) int { return 1 }

// Every cheat kind that applies to Mission Command Air, between two real
// libp2p peers on 127.0.0.1: the cheat fires, the honest seat stops the
// match at the cheating message with a violation naming the cheater (a
// timeout for go-silent), selfplay exits non-zero, and the audit of the
// honest seat's transcript names the same seat and message. Seat 1 cheats
// through the ordinary two-player selfplay; seat 0 through the N-player one,
// which plays two players over the same match stream. Under the race
// detector only underRace runs, unless -long.
func TestAirCheatsAreCaughtLiveAndByAudit(t *testing.T) {
	for _, k := range cheat.Kinds("air") {
		if slices.Contains(notInAir, k.Name) {
			continue
		}
		if raceEnabled && !*long && !slices.Contains(underRace, k.Name) {
			continue
		}
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			checkAirCheat2p(t, k.Name, cheatSeat2p(k.Name))
		})
	}
}

func checkAirCheat2p(t *testing.T, kind string, seat int) {
	t.Helper()
	// The joint dice come from fresh secrets, so a match may end before
	// the cheater's moment comes (seat 0 shoots both planes down before
	// seat 1 fires once): then the next seed plays, up to three.
	var results []*fairness.Result
	var paths []string
	var buf bytes.Buffer
	var code int
	var cheated bool
	for seed := uint64(11); seed < 14; seed++ {
		buf.Reset()
		results, paths, code, cheated = playAirCheat2p(t, kind, seat, seed, &buf)
		if cheated {
			break
		}
		t.Logf("seed %d: the cheat found no moment:\n%s", seed, buf.String())
	}
	if !cheated {
		t.Fatalf("the cheat never fired:\n%s", buf.String())
	}
	if code != exitViolation {
		t.Fatalf("selfplay exit %d, want %d:\n%s", code, exitViolation, buf.String())
	}
	honest := 1 - seat
	checkNamed(t, kind, seat, []*fairness.Result{results[honest]}, []string{paths[honest]})
}

// checkNamed checks that every honest seat stopped the match naming the
// cheater (the same message and reason everywhere) and that the audit of
// each honest transcript agrees.
func checkNamed(t *testing.T, kind string, cheater int, honest []*fairness.Result, paths []string) {
	t.Helper()
	if kind == cheat.Silent && len(honest) > 1 {
		// A free-for-all table plays on without the silent seat (issue
		// 14 requirement 4): the seat after it takes it off the table
		// and every honest seat finishes the game, its records clean.
		for i, r := range honest {
			if r.Closing != nil || !r.Outcome.Done || slices.Contains(r.Outcome.Winners, engine.Seat(cheater)) {
				t.Fatalf("honest seat %d: %+v; want the game's end without seat %d", i, r, cheater)
			}
			if rep := auditPath(t, paths[i]); rep.Verdict != fairness.Clean {
				t.Fatalf("audit of %s: %s", paths[i], rep.Summary())
			}
		}
		return
	}
	if kind == cheat.Silent {
		// The honest seat times out on the silent one.
		timeouts := 0
		for i, r := range honest {
			c := r.Closing
			if c == nil || c.Seat != cheater || (c.Closing != fairness.CloseTimeout && (len(honest) == 1 || c.Closing != fairness.CloseAbandoned)) {
				t.Fatalf("honest seat %d: closing %+v, want a timeout naming seat %d", i, c, cheater)
			}
			if c.Closing == fairness.CloseTimeout {
				timeouts++
			}
			if rep := auditPath(t, paths[i]); rep.Verdict != fairness.Forfeit {
				t.Fatalf("audit of %s: %s", paths[i], rep.Summary())
			}
		}
		if timeouts < len(honest)-1 {
			t.Fatalf("only %d of %d honest seats timed out", timeouts, len(honest))
		}
		return
	}
	first := honest[0].Violation
	for i, r := range honest {
		v := r.Violation
		if v == nil || int(v.Seat) != cheater {
			t.Fatalf("honest seat %d: violation %v, want one naming seat %d", i, v, cheater)
		}
		if v.Seq != first.Seq || !sameReason(v.Err, first.Err) {
			t.Fatalf("honest seats disagree:\n%v\n%v", first, v)
		}
		rep := auditPath(t, paths[i])
		if rep.Verdict != fairness.Violated || int(rep.Violation.Seat) != cheater || rep.Violation.Seq != v.Seq || rep.Violation.Err.Error() != v.Err.Error() {
			t.Fatalf("audit of %s: %s; live: %v", paths[i], rep.Summary(), v)
		}
	}
	t.Logf("%s: %v", kind, first)
}

// sameReason reports whether two peers' violations give the same reason.
// Out-of-turn is the exception: the cheater's extra message and the honest
// seat's message of the same number race on the topic, so a peer that got
// the honest one first finds the extra one repeating its number, and one
// that got the extra one first finds it out of turn; both name the same
// seat and message number, in other words.
func sameReason(a, b error) bool {
	if errors.Is(a, fairness.ErrOutOfTurn) && errors.Is(b, fairness.ErrOutOfTurn) {
		return true
	}
	return a.Error() == b.Error()
}

// groupCheats are the cheats played at a table of three or four over the
// gossipsub topic (more of them with -long or without the race detector).
var groupCheats = []struct {
	kind    string
	players int
	seat    int
	always  bool // also under the race detector
}{
	{cheat.ChangedChoice, 3, 1, true},
	{cheat.WrongUnmask, 4, 3, false},
	{cheat.CardNotInHand, 3, 1, false}, // an honest seat's reveal brings it to light
	{cheat.ShotOutOfCone, 4, 2, false},
	{"forged-roll", 3, 0, false},
	{"out-of-turn", 4, 1, false},
	{cheat.Silent, 3, 2, false},
	{cheat.Silent, 4, 1, false},
}

// At a table of three or four, every honest peer checks every envelope on
// the topic itself: each one names the cheater, with the same message and
// reason, and the audit of each honest transcript does too. A seat that
// goes silent is taken off the table and the others play on.
func TestAirCheatsInGroupsAreNamedByEveryone(t *testing.T) {
	for _, c := range groupCheats {
		if raceEnabled && !*long && !c.always {
			continue
		}
		t.Run(fmt.Sprintf("%d-players/%s/seat-%d", c.players, c.kind, c.seat), func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "m.jsonl")
			g := groupOptions{
				selfplayOptions: selfplayOptions{Game: "air", Seed: 5, Out: out, Cheat: c.kind, Transport: "tcp", Timeout: 20 * time.Second},
				Players:         c.players, CheatSeat: c.seat,
			}
			if c.kind == cheat.Silent {
				// A silent seat is claimed gone after the give-up time;
				// the default two minutes would only make CI wait.
				g.Timeout, g.GiveUp = 5*time.Second, 10*time.Second
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			res, err := groupSelfplay(ctx, g)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if code := groupReport(&buf, g, res); code != exitViolation {
				t.Fatalf("selfplay exit %d, want %d:\n%s", code, exitViolation, buf.String())
			}
			if !res.Cheated {
				t.Fatalf("the cheat never fired:\n%s", buf.String())
			}
			var honest []*fairness.Result
			var paths []string
			for s, r := range res.Results {
				if s != c.seat {
					honest, paths = append(honest, r), append(paths, res.Paths[s])
				}
			}
			checkNamed(t, c.kind, c.seat, honest, paths)
		})
	}
}

// playAirCheat2p plays one two-player Air match with seed in which seat
// cheats by kind, and reports it to buf.
func playAirCheat2p(t *testing.T, kind string, seat int, seed uint64, buf *bytes.Buffer) ([]*fairness.Result, []string, int, bool) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "m.jsonl")
	o := selfplayOptions{Game: "air", Seed: seed, Out: out, Cheat: kind, Bots: [2]string{"strong", "strong"}, Transport: "tcp", Timeout: 20 * time.Second}
	if kind == cheat.Silent {
		o.Timeout = 2 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if seat == 1 {
		res, err := selfplay(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		return res.Results[:], res.Paths[:], report(buf, o, res), res.Cheated
	}
	g := groupOptions{selfplayOptions: o, Players: 2, CheatSeat: seat}
	res, err := groupSelfplay(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	return res.Results, res.Paths, groupReport(buf, g, res), res.Cheated
}
