package tui

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness/cheat"
	"github.com/salvo-game/salvo/p2p/session"
)

// practice starts a match against a bot: two libp2p hosts in this process,
// connected over loopback, so the whole protocol runs for real (Noise,
// yamux, the match stream, every signature and check).
func (a *App) practice() {
	game, variant, level := a.game, a.vari, a.bot
	entry, _ := games.Lookup(game)
	mk, ok := entry.Bots[level]
	if !ok {
		a.lobby.status = fmt.Sprintf("no %q bot for %s", level, entry.Spec.Title)
		return
	}
	seed := a.cfg.BotSeed
	if seed == 0 {
		seed = rand.Uint64()
	}
	var ch *cheat.Peer
	var wrap func(engine.Agent) engine.Agent
	if a.cfg.BotCheat != "" {
		k, err := cheat.Lookup(game, a.cfg.BotCheat)
		if err != nil {
			a.lobby.status = err.Error()
			return
		}
		ch, wrap = k.Peer()
	}
	if n := a.players(); n > 2 {
		a.practiceTable(n, level, seed, mk, ch, wrap)
		return
	}
	botName := "bot (" + level + ")"
	ctx, cancel := context.WithCancel(a.ctx)
	ws := newWaitScreen(a, "Practice", "starting two libp2p hosts on loopback and shaking hands…", cancel)
	a.push(ws)
	a.goBack(func() {
		pair, err := session.Loopback(ctx, session.LoopbackConfig{
			Offer: session.Offer{Game: game, Variant: variant}, HostName: a.name, GuestName: botName,
			HostKey: a.cfg.Key, Logger: a.log,
		})
		if err != nil {
			a.post(func() { ws.fail(fmt.Errorf("practice: %w", err)) })
			return
		}
		bot := mk(rand.New(rand.NewPCG(seed, 1)))
		if wrap != nil {
			bot = wrap(bot)
		}
		botPath := filepath.Join(os.TempDir(), fmt.Sprintf("salvo-bot-%.12s.jsonl", pair.Seats[1].Header.Match))
		// The hosts close only once both sides are done: closing them as
		// soon as the bot's referee returns could cut our side off before
		// it reads the bot's last message.
		ours, botDone := a.handOver(ws, cancel, matchStart{m: pair.Seats[0], key: pair.Keys[0], opponent: botName, practice: true, timeout: BotTimeout})
		res, err := pair.Seats[1].Play(ctx, session.PlayConfig{Key: pair.Keys[1], Agent: bot, Transcript: botPath,
			Timeout: HumanTimeout, Hooks: ch.Hooks(), Logger: a.log})
		if err != nil || res != nil && res.Closing != nil || ch.Cheated() {
			if c, ok := pair.Seats[1].Stream.(interface{ Close() error }); ok {
				_ = c.Close()
			}
		}
		if err != nil && ctx.Err() == nil {
			a.log.Debug("practice bot stopped", "err", err)
		}
		select {
		case <-ours:
		case <-a.ctx.Done():
		}
		_ = pair.Close()
		_ = os.Remove(botPath)
		close(botDone)
	})
}

// handOver starts the practice match st on the match screen from the
// goroutine that set it up, unless the player left the wait screen ws
// meanwhile (then it cancels the setup). ours is closed once the player's
// side is done with the match (or never started it); the caller closes
// botsDone once the bots are done and their hosts closed, which the match
// screen's release waits for.
func (a *App) handOver(ws *waitScreen, cancel context.CancelFunc, st matchStart) (ours <-chan struct{}, botsDone chan struct{}) {
	oursCh := make(chan struct{})
	botsDone = make(chan struct{})
	var oursOnce sync.Once
	oursDone := func() { oursOnce.Do(func() { close(oursCh) }) }
	st.release = func() {
		oursDone()
		<-botsDone
	}
	a.post(func() {
		if a.top() != ws {
			cancel() // the player went back meanwhile
			oursDone()
			return
		}
		a.startMatch(st)
	})
	return oursCh, botsDone
}

// practiceTable starts a match of n players, the player against n-1 bots:
// n libp2p hosts in this process on loopback, the group handshake over
// match streams and the match over a gossipsub topic, as a real table
// plays. A cheating bot (Config.BotCheat) takes the last seat.
func (a *App) practiceTable(n int, level string, seed uint64, mk func(*rand.Rand) engine.Agent, ch *cheat.Peer, wrap func(engine.Agent) engine.Agent) {
	names := []string{a.name}
	for s := 1; s < n; s++ {
		names = append(names, fmt.Sprintf("bot-%d (%s)", s, level))
	}
	ctx, cancel := context.WithCancel(a.ctx)
	ws := newWaitScreen(a, "Practice", fmt.Sprintf("starting %d libp2p hosts on loopback and seating the table…", n), cancel)
	a.push(ws)
	offer := session.Offer{Game: a.game, Variant: a.vari}
	a.goBack(func() {
		defer cancel()
		tb, err := session.LoopbackGroup(ctx, session.GroupLoopbackConfig{Offer: offer, Players: n, Names: names,
			Keys: []crypto.PrivKey{a.cfg.Key}, Logger: a.log})
		if err != nil {
			a.post(func() { ws.fail(fmt.Errorf("practice: %w", err)) })
			return
		}
		ours, botsDone := a.handOver(ws, cancel, matchStart{group: tb.Seats[0], key: tb.Keys[0], practice: true, timeout: BotTimeout})
		var wg sync.WaitGroup
		var paths []string
		for s := 1; s < n; s++ {
			bot := mk(rand.New(rand.NewPCG(seed, uint64(s))))
			cfg := session.PlayConfig{Key: tb.Keys[s], Agent: bot, Timeout: HumanTimeout, Logger: a.log,
				Transcript: filepath.Join(os.TempDir(), fmt.Sprintf("salvo-bot%d-%.12s.jsonl", s, tb.Seats[s].Header.Match))}
			if ch != nil && s == n-1 {
				if wrap != nil {
					cfg.Agent = wrap(bot)
				}
				cfg.Hooks = ch.Hooks()
			}
			paths = append(paths, cfg.Transcript)
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := tb.Seats[s].Play(ctx, cfg); err != nil && ctx.Err() == nil {
					a.log.Debug("practice bot stopped", "seat", s, "err", err)
				}
			}()
		}
		bots := make(chan struct{})
		go func() { wg.Wait(); close(bots) }()
		select {
		case <-ours:
		case <-a.ctx.Done():
		}
		// A match over by the rules is over for the bots too; a player who
		// left would keep them waiting out their timeout.
		select {
		case <-bots:
		case <-time.After(BotsGrace):
			cancel()
			<-bots
		}
		_ = tb.Close()
		for _, p := range paths {
			_ = os.Remove(p)
		}
		close(botsDone)
	})
}
