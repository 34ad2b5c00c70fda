package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	ma "github.com/multiformats/go-multiaddr"
	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/session"
)

// netReport is what `salvo netplay` and `salvo resume` write with
// --report: the figures the network tests measure.
type netReport struct {
	Role         string        `json:"role"`
	Peer         string        `json:"peer"`
	Remote       string        `json:"remote,omitempty"`
	Match        string        `json:"match,omitempty"`
	Reachability string        `json:"reachability"`
	Reachable    []string      `json:"reachable,omitempty"`       // addresses AutoNAT v2 confirmed reachable
	Unreachable  []string      `json:"unreachable,omitempty"`     // addresses AutoNAT v2 found unreachable
	Untested     []string      `json:"untested,omitempty"`        // public addresses AutoNAT v2 has no verdict on yet
	PeersAtEnd   int           `json:"peers_at_end"`              // peers connected when the report was written
	ReachMS      float64       `json:"reachability_ms,omitempty"` // start → AutoNAT's first answer
	DiscoverMS   float64       `json:"discover_ms,omitempty"`     // start → the other peer found
	ConnectMS    float64       `json:"connect_ms,omitempty"`      // found → connected
	FirstKind    string        `json:"first_kind,omitempty"`
	Kinds        []string      `json:"kinds,omitempty"` // every stream the match used, in order
	Switches     int           `json:"switches"`
	Punches      []punchReport `json:"punches,omitempty"`
	ResumeMS     float64       `json:"resume_ms,omitempty"` // resume start → first message accepted
	MatchMS      float64       `json:"match_ms,omitempty"`
	Result       string        `json:"result,omitempty"`
	Closing      string        `json:"closing,omitempty"`
	Transcript   string        `json:"transcript,omitempty"`
	Error        string        `json:"error,omitempty"`
}

type punchReport struct {
	Success   bool      `json:"success"`
	ElapsedMS float64   `json:"elapsed_ms"`
	Error     string    `json:"error,omitempty"`
	At        time.Time `json:"at"` // when the attempt ended: before or after the match's end
}

// botOptions are the flags of the headless bot that plays for this peer.
type botOptions struct {
	level   string
	seed    uint64
	timeout time.Duration
	giveUp  time.Duration
	think   time.Duration
}

// register adds the flags; level is the bot's default level ("": no bot
// unless --bot names one).
func (b *botOptions) register(fs *flag.FlagSet, level string) {
	fs.StringVar(&b.level, "bot", level, "the bot that plays for this peer: "+strings.Join(games.BotLevels, ", "))
	fs.Uint64Var(&b.seed, "seed", 1, "seed of the bot's decisions")
	fs.DurationVar(&b.timeout, "timeout", time.Minute, "how long the other peer may take for one step before it forfeits")
	fs.DurationVar(&b.giveUp, "give-up", session.DefaultGiveUp, "how long the other peer may stay unreachable before it forfeits")
	fs.DurationVar(&b.think, "think", 0, "make the bot take this long for each decision (a slower, human-paced match)")
}

// playConfig is the config of agent's network play for this peer, its
// records kept in store.
func (b *botOptions) playConfig(cfg p2p.Config, agent engine.Agent, store session.Store) session.NetPlayConfig {
	return session.NetPlayConfig{
		Key: cfg.Key, Agent: agent, Timeout: b.timeout, Logger: cfg.Logger, Store: store,
		Reconnect: session.ReconnectConfig{GiveUp: b.giveUp},
	}
}

// logMessages logs, at debug level, every message the referee sends or
// accepts: a log then dates the moments a match went on (the namespace
// tests read it).
func logMessages(log *slog.Logger) func(fairness.Note) {
	return func(n fairness.Note) {
		if n.Dir == fairness.DirIn || n.Dir == fairness.DirOut {
			log.Debug("message "+string(n.Dir), "seq", n.Seq, "seat", n.Seat)
		}
	}
}

// playOut waits for the runner's match to end (a signal ends it at once,
// suspended: ctx is the runner's), lingering so that the other side has
// our last message, and records in rep how long it took, how often the
// link switched and over what.
func playOut(r *session.Runner, rep *netReport, start time.Time) (*fairness.Result, error) {
	result, err := r.Wait()
	rep.MatchMS = ms(time.Since(start))
	if rc := r.Transport(); rc != nil {
		rep.Switches, rep.Kinds = rc.Stats()
	}
	return result, err
}

func (b *botOptions) agent(game string, seat int) (engine.Agent, error) {
	a, err := newBot(game, b.level, b.seed, seat)
	if err != nil {
		return nil, err
	}
	if b.think > 0 {
		a = session.Paced(a, b.think)
	}
	return a, nil
}

// newBot makes the level bot for seat of a game (games.Bot), its random
// source seeded by seed and the seat.
func newBot(game, level string, seed uint64, seat int) (engine.Agent, error) {
	a, ok := games.Bot(game, level, rand.New(rand.NewPCG(seed, uint64(seat))))
	if !ok {
		return nil, fmt.Errorf("no %q bot for %s", level, game)
	}
	return a, nil
}

// runNetplay is `salvo netplay`: a headless bot plays one match against
// another peer over the network, found by invite code, DHT rendezvous or
// mDNS; the match survives dropped links and restarts (salvo resume).
func runNetplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("salvo netplay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var nf netFlags
	nf.register(fs, "")
	var bo botOptions
	bo.register(fs, "strong")
	role := fs.String("role", "", "host (offer a game and wait) or join")
	game := fs.String("game", "ubuild", "game to offer (host): "+strings.Join(games.Names(), ", "))
	variant := fs.String("variant", "", "variant to offer (host)")
	watchable := fs.Bool("watchable", false, "host: let spectators follow the match (salvo watch CODE); the choice is signed into the match header")
	watchLinger := fs.Duration("watch-linger", 5*time.Second, "after a watchable match, stay this long for late spectators (and while one catches up, 30s at most)")
	code := fs.String("code", "", "invite code to join (join)")
	codeFile := fs.String("code-file", "", "host: write the invite code here; join: read it from here (waiting for it)")
	rdv := fs.String("rendezvous", "", "match name to meet on through the DHT")
	shortFile := fs.String("short-code-file", "", "host: write the short invite code here once the DHT can find this peer")
	matchFile := fs.String("match-file", "", "write the match ID here once agreed (for salvo resume)")
	reportPath := fs.String("report", "", "write a JSON report of the connection and the match here")
	wait := fs.Duration("wait", 2*time.Minute, "how long to wait for the other peer")
	relayWait := fs.Duration("relay-wait", 20*time.Second, "host: how long to wait for a relay reservation before showing the code")
	players := fs.Int("players", 2, "the table's size, this peer included: 3 or 4 play over a gossipsub topic (host and joiners alike)")
	reachWait := fs.Duration("wait-reachability", 0, "before exiting, wait this long for AutoNAT to say whether this peer is reachable (for the report)")
	v2Wait := fs.Duration("wait-autonat-v2", 0, "before exiting, wait this long for AutoNAT v2 to confirm an address reachable or unreachable (for the report)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: salvo netplay --role host|join [flags]\n\nA bot plays one match against another peer over the network (headless).")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *role != "host" && *role != "join" {
		fmt.Fprintln(stderr, "salvo netplay: --role host or --role join")
		return exitUsage
	}
	if *role == "join" && *code == "" && *codeFile == "" && *rdv == "" && !nf.mdns {
		fmt.Fprintln(stderr, "salvo netplay: join needs --code, --code-file, --rendezvous or --mdns")
		return exitUsage
	}
	start := time.Now()
	np, err := nf.start("bot-"+*role, stderr, nil, false)
	if err != nil {
		fmt.Fprintf(stderr, "salvo netplay: %v\n", err)
		return exitUsage
	}
	defer np.close()
	cfg, ctx, h := np.cfg, np.ctx, np.h
	res := session.NewResumer(h, cfg.Logger)
	defer res.Close()
	store := np.dir.store()
	rep := &netReport{Role: *role, Peer: h.ID().String()}
	reachDone := make(chan struct{})
	go func() {
		defer close(reachDone)
		rctx, cancel := context.WithTimeout(ctx, *reachWait)
		defer cancel()
		if _, err := h.WaitReachability(rctx); err == nil {
			rep.ReachMS = ms(time.Since(start))
		}
		vctx, cancel := context.WithTimeout(ctx, *v2Wait-time.Since(start))
		defer cancel()
		_ = h.WaitConfirmedAddrs(vctx) // the report says what it found, if anything
	}()
	defer func() { <-reachDone; writeReport(*reportPath, h, rep, stderr) }()
	self := session.Self{Key: cfg.Key, Name: cfg.Name}
	wctx, cancel := context.WithTimeout(ctx, *wait)
	defer cancel()

	t := tableFlags{role: *role, players: *players, offer: session.Offer{Game: *game, Variant: *variant, Watch: *watchable}, code: *code,
		files: codeFiles{*codeFile, *shortFile}, rdv: *rdv, relayWait: *relayWait, relays: len(nf.relays) > 0, mdns: nf.mdns}
	agreed, err := t.agree(wctx, h, self, rep, start, stdout, cfg.Logger)
	if err != nil {
		rep.Error = err.Error()
		fmt.Fprintf(stderr, "salvo netplay: %v\n", err)
		return exitViolation
	}
	if *matchFile != "" {
		if err := writeAtomic(*matchFile, rep.Match+"\n"); err != nil {
			fmt.Fprintf(stderr, "salvo netplay: %v\n", err)
		}
	}
	agent, err := bo.agent(agreed.game, agreed.seat)
	if err != nil {
		fmt.Fprintf(stderr, "salvo netplay: %v\n", err)
		return exitUsage
	}
	matchStart := time.Now()
	pc := bo.playConfig(cfg, agent, store)
	pc.Observe = logMessages(cfg.Logger)
	result, err := playOut(agreed.start(ctx, res, pc), rep, matchStart)
	rep.Transcript = store.Transcript(rep.Match)
	if agreed.watch {
		lingerForSpectators(ctx, h, *watchLinger)
	}
	return finishReport(rep, result, err, stdout, stderr)
}

// hostNet offers a game and waits for a joiner: it shows the invite code
// (after the relay reservation, if a relay was given), advertises the
// rendezvous name in the DHT and offers the game on the LAN.
func hostNet(ctx context.Context, h *p2p.Host, self session.Self, offer session.Offer, files codeFiles, rdv string, relayWait time.Duration, relays bool, stdout io.Writer, rep *netReport, start time.Time, log *slog.Logger) (*session.Match, error) {
	if err := advertise(ctx, h, offer, files, rdv, relayWait, relays, stdout, log); err != nil {
		return nil, err
	}
	// Every joiner's handshake runs at once; one that fails (an oversized
	// frame, a stall, a decline) is turned away and the host keeps waiting.
	m, err := session.HostFirst(ctx, h.Incoming(), session.HostFirstConfig{Self: self, Offer: offer, Logger: log})
	if err != nil {
		return nil, err
	}
	rep.DiscoverMS = ms(time.Since(start))
	if c, ok := m.Stream.(*p2p.Conn); ok {
		rep.FirstKind = c.Kind()
	}
	return m, nil
}

// advertise shows the invite code (after the relay reservation, if a
// relay was given, and the short one once the DHT can find the host),
// advertises the rendezvous name in the DHT and offers the game on the
// LAN.
func advertise(ctx context.Context, h *p2p.Host, offer session.Offer, files codeFiles, rdv string, relayWait time.Duration, relays bool, stdout io.Writer, log *slog.Logger) error {
	if relays {
		deadline := time.Now().Add(relayWait)
		for len(h.RelayAddrs()) == 0 && time.Now().Before(deadline) && ctx.Err() == nil {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if len(h.RelayAddrs()) > 0 {
		// Joiners will come through the relay and punch: answer DCUtR
		// first. Without a relay the code is shown at once (a LAN match
		// never waits for the internet).
		h.WaitHolePunchReady(ctx)
	}
	code := h.InviteCode()
	fmt.Fprintf(stdout, "invite code: %s\n", code)
	if files.long != "" {
		if err := writeAtomic(files.long, code+"\n"); err != nil {
			return err
		}
	}
	go showShortCode(ctx, h, files.short, stdout, log)
	if rdv != "" {
		if err := h.Advertise(ctx, rdv); err != nil {
			return err
		}
	}
	_ = h.SetOffer(offer.Game)
	return nil
}

// codeFiles are where netplay's host writes its invite codes: the long
// one at once, the short one once the DHT can find the host.
type codeFiles struct{ long, short string }

// showShortCode waits until the DHT can find this host (it has joined and
// is reachable, publicly or through a relay), then shows the short code
// and writes it to path; the long code stays good. A LAN-only host never
// gets one.
func showShortCode(ctx context.Context, h *p2p.Host, path string, stdout io.Writer, log *slog.Logger) {
	for {
		if code, ok := h.ShortInviteCode(); ok {
			h.WaitHolePunchReady(ctx) // joiners come through the relay, and punch
			fmt.Fprintf(stdout, "short invite code: %s\n", code)
			if path != "" {
				if err := writeAtomic(path, code+"\n"); err != nil {
					log.Warn("short invite code not written", "err", err)
				}
			}
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// joinNet finds the host (invite code, DHT rendezvous or mDNS), connects,
// and joins its match.
func joinNet(ctx context.Context, h *p2p.Host, self session.Self, code, codeFile, rdv string, mdns bool, rep *netReport, start time.Time) (*session.Match, error) {
	c, err := openHost(ctx, h, code, codeFile, rdv, mdns, rep, start)
	if err != nil {
		return nil, err
	}
	return session.Join(ctx, c, self, nil)
}

// openHost finds the host (invite code, DHT rendezvous or mDNS), connects,
// and opens a match stream to it.
func openHost(ctx context.Context, h *p2p.Host, code, codeFile, rdv string, mdns bool, rep *netReport, start time.Time) (*p2p.Conn, error) {
	var target peer.ID
	switch {
	case code != "" || codeFile != "":
		if code == "" {
			var err error
			if code, err = waitFile(ctx, codeFile); err != nil {
				return nil, err
			}
		}
		inv, err := p2p.ParseInvite(code)
		if err != nil {
			return nil, err
		}
		found := time.Now()
		rep.DiscoverMS = ms(found.Sub(start))
		if target, err = h.ConnectInvite(ctx, inv); err != nil {
			return nil, err
		}
		rep.ConnectMS = ms(time.Since(found))
	case rdv != "":
		ai, err := h.Rendezvous(ctx, rdv)
		if err != nil {
			return nil, err
		}
		rep.DiscoverMS = ms(time.Since(start)) // found and connected
		target = ai.ID
	default:
		for target == "" {
			select {
			case pi, ok := <-h.LANPeers():
				if !ok {
					return nil, errors.New("host closed")
				}
				if !pi.Gone && pi.Offer != "" {
					target = pi.ID
				}
			case <-ctx.Done():
				return nil, fmt.Errorf("no host found on the LAN: %w", ctx.Err())
			}
		}
		rep.DiscoverMS = ms(time.Since(start)) // found by mDNS, connected, and asked for its offer
	}
	c, err := h.OpenMatch(ctx, target)
	if err != nil {
		return nil, err
	}
	rep.FirstKind = c.Kind()
	return c, nil
}

// finishReport fills the report from the match result, prints a summary
// and returns the exit status.
func finishReport(rep *netReport, result *fairness.Result, err error, stdout, stderr io.Writer) int {
	if err != nil {
		rep.Error = err.Error()
		fmt.Fprintf(stderr, "salvo: %v\n", err)
		return exitViolation
	}
	rep.Result = outcomeText(result.Outcome)
	if result.Closing != nil {
		rep.Closing = string(result.Closing.Closing) + ": " + result.Closing.Detail
	}
	fmt.Fprintf(stdout, "match %.12s… over (%s, %d stream switches, streams %v): %s\n", rep.Match, time.Duration(rep.MatchMS*float64(time.Millisecond)).Round(time.Millisecond), rep.Switches, rep.Kinds, rep.Result)
	if result.Closing != nil || result.Violation != nil {
		return exitViolation
	}
	return exitOK
}

// writeReport writes the JSON report, with the host's hole punches and
// reachability.
func writeReport(path string, h *p2p.Host, rep *netReport, stderr io.Writer) {
	if path == "" {
		return
	}
	rep.Reachability = h.Reachability().String()
	reachable, unreachable, untested := h.ConfirmedAddrs()
	rep.Reachable, rep.Unreachable, rep.Untested = addrStrings(reachable), addrStrings(unreachable), addrStrings(untested)
	rep.PeersAtEnd = len(h.Libp2p().Network().Peers())
	for _, p := range h.Punches() {
		rep.Punches = append(rep.Punches, punchReport{Success: p.Success, ElapsedMS: ms(p.Elapsed), Error: p.Error, At: p.At})
	}
	b, _ := json.MarshalIndent(rep, "", "  ")
	if err := writeAtomic(path, string(b)+"\n"); err != nil {
		fmt.Fprintf(stderr, "salvo: report: %v\n", err)
	}
}

// writeAtomic writes a file through a temporary one, so a reader polling
// for it never sees half of it.
func writeAtomic(path, s string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(s), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// waitFile waits for a file to exist and returns its trimmed content.
func waitFile(ctx context.Context, path string) (string, error) {
	for {
		b, err := os.ReadFile(path)
		if err == nil && len(strings.TrimSpace(string(b))) > 0 {
			return strings.TrimSpace(string(b)), nil
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("waiting for %s: %w", path, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// addrStrings spells multiaddrs out.
func addrStrings(addrs []ma.Multiaddr) []string {
	var out []string
	for _, a := range addrs {
		out = append(out, a.String())
	}
	return out
}
