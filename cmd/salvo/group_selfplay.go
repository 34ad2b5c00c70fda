package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/cheat"
	"github.com/salvo-game/salvo/p2p/group"
	"github.com/salvo-game/salvo/p2p/session"
)

// groupOptions are the settings of a selfplay among 2 to 4 bots: two play
// over a match stream as in selfplay, three or four over a gossipsub topic.
type groupOptions struct {
	selfplayOptions
	Players   int
	CheatSeat int      // the seat that cheats when Cheat is set
	SeatBots  []string // each seat's bot; missing ones are "strong"
	// GiveUp is how long a silent seat is waited for before it is taken
	// off the table or forfeits (0: session.DefaultGiveUp).
	GiveUp time.Duration
}

// groupResult is what a selfplay among several bots produced, by seat.
type groupResult struct {
	Results []*fairness.Result
	Paths   []string
	Topics  []group.Stats // for 3 or more players
	Wall    time.Duration // hosts up, handshake and match
	Setup   time.Duration // hosts up and handshake done
	Deal    time.Duration // at seat 0: from the first message to the first card choice (keys, shuffles, first deal)
	Cheated bool          // the cheating seat's cheat fired
}

// seatPlayer plays one agreed seat (a two-player match or a group match).
type seatPlayer interface {
	Play(ctx context.Context, cfg session.PlayConfig) (*fairness.Result, error)
}

func runGroupSelfplay(o selfplayOptions, players, cheatSeat int, bots []string, stdout, stderr io.Writer) int {
	g := groupOptions{selfplayOptions: o, Players: players, CheatSeat: cheatSeat, SeatBots: bots}
	if cheatSeat < 0 {
		g.CheatSeat = players - 1
	}
	res, err := groupSelfplay(context.Background(), g)
	if err != nil {
		fmt.Fprintf(stderr, "salvo selfplay: %v\n", err)
		return exitUsage
	}
	status := groupReport(stdout, g, res)
	if ds, err := deckCost(res.Paths[0]); err == nil && ds.Shuffles > 0 {
		fmt.Fprintf(stdout, "shared deck: %s\n", ds)
	}
	return status
}

// groupSelfplay plays one match among o.Players bots on loopback hosts and
// writes every seat's transcript (seat 0's at o.Out, the others beside it).
func groupSelfplay(ctx context.Context, o groupOptions) (*groupResult, error) {
	entry, ok := games.Lookup(o.Game)
	if !ok {
		return nil, fmt.Errorf("unknown game %q (games: %s)", o.Game, strings.Join(games.Names(), ", "))
	}
	n := o.Players
	if n < entry.Spec.MinSeats || n > entry.Spec.MaxSeats {
		return nil, fmt.Errorf("%s takes %d to %d players, not %d", o.Game, entry.Spec.MinSeats, entry.Spec.MaxSeats, n)
	}
	agents := make([]engine.Agent, n)
	for s := range agents {
		kind := "strong"
		if s < len(o.SeatBots) && o.SeatBots[s] != "" {
			kind = o.SeatBots[s]
		}
		a, err := newBot(o.Game, kind, o.Seed, s)
		if err != nil {
			return nil, err
		}
		agents[s] = a
	}
	if o.Cheat != "" && (o.CheatSeat < 0 || o.CheatSeat >= n) {
		return nil, fmt.Errorf("cheat seat %d: the table has seats 0 to %d", o.CheatSeat, n-1)
	}
	ch, err := cheatSeat(o.Game, o.Cheat, agents, o.CheatSeat)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	seats, keys, topics, closer, err := loopbackTable(ctx, o)
	if err != nil {
		return nil, err
	}
	defer closer()
	res := &groupResult{Results: make([]*fairness.Result, n), Paths: make([]string, n), Setup: time.Since(start)}
	errs := make([]error, n)
	var deal dealClock
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for s := range n {
		res.Paths[s] = seatPath(o.Out, s)
		cfg := session.PlayConfig{Key: keys[s], Agent: agents[s], Transcript: res.Paths[s], Timeout: o.Timeout, GiveUp: o.GiveUp}
		if s == 0 {
			cfg.Observe = deal.observe
		}
		if ch != nil && s == o.CheatSeat {
			cfg.Hooks = ch.Hooks()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res.Results[s], errs[s] = seats[s].Play(ctx, cfg)
		}()
	}
	wg.Wait()
	res.Wall = time.Since(start)
	res.Deal = deal.took()
	res.Cheated = ch.Cheated()
	for s, err := range errs {
		if err != nil && (ch == nil || s != o.CheatSeat) {
			return nil, fmt.Errorf("seat %d: %w", s, err)
		}
		if res.Results[s] == nil {
			res.Results[s] = &fairness.Result{}
		}
	}
	for _, t := range topics {
		res.Topics = append(res.Topics, t.Stats())
	}
	return res, nil
}

// loopbackTable brings up the hosts and agrees the match: a match stream
// for two players, a gossipsub topic for more.
func loopbackTable(ctx context.Context, o groupOptions) ([]seatPlayer, []crypto.PrivKey, []*group.Topic, func(), error) {
	offer := session.Offer{Game: o.Game, Variant: o.Variant}
	if o.Players == 2 {
		pair, err := session.Loopback(ctx, session.LoopbackConfig{Offer: offer, HostName: "bot-a", GuestName: "bot-b", Transport: o.Transport, Delay: o.Delay})
		if err != nil {
			return nil, nil, nil, nil, err
		}
		return []seatPlayer{pair.Seats[0], pair.Seats[1]}, pair.Keys[:], nil, func() { pair.Close() }, nil
	}
	tb, err := session.LoopbackGroup(ctx, session.GroupLoopbackConfig{Offer: offer, Players: o.Players, Transport: o.Transport, Delay: o.Delay})
	if err != nil {
		return nil, nil, nil, nil, err
	}
	seats := make([]seatPlayer, len(tb.Seats))
	topics := make([]*group.Topic, len(tb.Seats))
	for i, m := range tb.Seats {
		seats[i], topics[i] = m, m.Topic
	}
	return seats, tb.Keys, topics, func() { tb.Close() }, nil
}

// dealClock times, at one seat, the shared deck's set-up: from the first
// message to the first card choice the rules ask for.
type dealClock struct {
	mu          sync.Mutex
	first, done time.Time
}

func (d *dealClock) observe(n fairness.Note) {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := time.Now()
	if d.first.IsZero() && (n.Dir == fairness.DirOut || n.Dir == fairness.DirIn) {
		d.first = now
	}
	if d.done.IsZero() && !d.first.IsZero() && n.Game != nil && n.Game.Next().Kind == engine.NeedChoice {
		d.done = now
	}
}

func (d *dealClock) took() time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.first.IsZero() || d.done.IsZero() {
		return 0
	}
	return d.done.Sub(d.first)
}

// groupReport prints what happened at every seat and returns the exit
// status: 0 only if every seat finished by the rules.
func groupReport(w io.Writer, o groupOptions, res *groupResult) int {
	transport := o.Transport
	if o.Players > 2 {
		transport += " + gossipsub"
	}
	fmt.Fprintf(w, "%s %s, %d players, seed %d, over loopback %s: %s (hosts and handshake %s)\n", o.Game, orDefault(o.Variant), o.Players, o.Seed, transport,
		res.Wall.Round(time.Millisecond), res.Setup.Round(time.Millisecond))
	var sent []string
	var bytes int64
	for s, r := range res.Results {
		sent = append(sent, fmt.Sprintf("seat %d: %d (%d B)", s, r.Sent, r.BytesSent))
		bytes += r.BytesSent
	}
	fmt.Fprintf(w, "messages sent: %s; %d bytes in all\n", strings.Join(sent, ", "), bytes)
	if res.Deal > 0 {
		fmt.Fprintf(w, "shuffle and first deal: %s at seat 0\n", res.Deal.Round(time.Millisecond))
	}
	for s, t := range res.Topics {
		if t.Dropped > 0 || t.Rejected > 0 {
			fmt.Fprintf(w, "seat %d's topic: %d frames dropped, %d rejected\n", s, t.Dropped, t.Rejected)
		}
	}
	status := exitOK
	caught := 0
	for s, r := range res.Results {
		if o.Cheat != "" && s == o.CheatSeat {
			continue
		}
		switch {
		case r.Violation != nil:
			fmt.Fprintf(w, "seat %d caught a VIOLATION: %v\n", s, r.Violation)
			status = exitViolation
			caught++
		case r.Closing != nil:
			fmt.Fprintf(w, "seat %d stopped the match: %s by seat %d: %s\n", s, r.Closing.Closing, r.Closing.Seat, r.Closing.Detail)
			status = exitViolation
			caught++
		case o.Cheat == cheat.Silent && r.Outcome.Done && !slices.Contains(r.Outcome.Winners, engine.Seat(o.CheatSeat)):
			// A free-for-all plays on without a seat gone silent: the
			// seat after it took it off the table (issue 14 req. 4).
			fmt.Fprintf(w, "seat %d took the silent seat %d off the table and played on\n", s, o.CheatSeat)
			status = exitViolation
			caught++
		case !r.Outcome.Done:
			fmt.Fprintf(w, "seat %d: the match did not finish\n", s)
			status = exitViolation
		}
	}
	if caught == 0 {
		fmt.Fprintf(w, "result: %s\n", outcomeText(res.Results[0].Outcome))
	}
	if o.Cheat != "" {
		switch {
		case !res.Cheated:
			fmt.Fprintf(w, "seat %d never found a moment to cheat (%s): nothing to catch\n", o.CheatSeat, o.Cheat)
			status = exitViolation
		case caught < o.Players-1:
			fmt.Fprintf(w, "seat %d cheated (%s) and only %d of the %d other seats caught it\n", o.CheatSeat, o.Cheat, caught, o.Players-1)
			status = exitViolation
		}
	}
	fmt.Fprintf(w, "transcripts: %s\n", strings.Join(res.Paths, ", "))
	return status
}

// deckStats is what the shared deck cost in one match.
type deckStats struct {
	Shuffles            int
	KeyBytes, ShufBytes int64 // key shares with proofs; shuffled decks with proofs
	UnmaskBytes         int64 // unmasking shares of dealt cards, with proofs
	OpenBytes           int64 // the holder's own shares that turn played cards over
}

func (d deckStats) String() string {
	return fmt.Sprintf("%d shuffles; key shares %d B, shuffles %d B, unmasking shares %d B, played-card shares %d B",
		d.Shuffles, d.KeyBytes, d.ShufBytes, d.UnmaskBytes, d.OpenBytes)
}

// deckCost adds up, from a transcript, the bytes the shared deck's inputs
// take (each input's own JSON, base64 of the binary encodings included).
func deckCost(path string) (deckStats, error) {
	var d deckStats
	err := eachInput(path, func(in fairness.WireInput, size int64) {
		switch in.T {
		case fairness.InDeckKey:
			d.KeyBytes += size
		case fairness.InShuffle:
			d.Shuffles++
			d.ShufBytes += size
		case fairness.InUnmask:
			d.UnmaskBytes += size
		case fairness.InOpen, fairness.InMove:
			if len(in.Shares) > 0 {
				d.OpenBytes += size
			}
		}
	})
	return d, err
}
