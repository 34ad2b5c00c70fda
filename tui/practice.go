package tui

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
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
	var ch fairness.Cheat
	var wrap func(engine.Agent) engine.Agent
	if a.cfg.BotCheat != "" {
		k, err := cheat.Lookup(game, a.cfg.BotCheat)
		if err != nil {
			a.lobby.status = err.Error()
			return
		}
		ch, wrap = k.Build()
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
		ours := make(chan struct{})
		botDone := make(chan struct{})
		var oursOnce sync.Once
		oursDone := func() { oursOnce.Do(func() { close(ours) }) }
		a.post(func() {
			if a.top() != ws {
				cancel() // the player went back meanwhile
				oursDone()
				return
			}
			a.startMatch(matchStart{m: pair.Seats[0], key: pair.Keys[0], opponent: botName, practice: true, timeout: BotTimeout,
				release: func() {
					oursDone()
					<-botDone
				}})
		})
		res, err := pair.Seats[1].Play(ctx, session.PlayConfig{Key: pair.Keys[1], Agent: bot, Transcript: botPath,
			Timeout: HumanTimeout, Cheat: ch, Logger: a.log})
		if err != nil || res != nil && (res.Closing != nil || res.Cheated) {
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
