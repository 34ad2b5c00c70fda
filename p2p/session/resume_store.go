package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/group"
	"github.com/salvo-game/salvo/p2p/watch"
)

// Store is the directory of matches played over the network: the
// transcript (synced at every accepted message, named as every transcript
// is, TranscriptName), <match ID>.secrets (the seat's secrets) and
// <match ID>.peer.json (who the other peer is and where, which side
// re-dials, and the transcript's file name), enough for a restarted
// process to resume; while a match runs, <match ID>.alive is its
// heartbeat, which dates a restart's outage (alive.go). A match stored
// before transcripts had readable names keeps <match ID>.jsonl.
type Store struct{ Dir string }

// Transcript is the path of a match's transcript, found by its match ID:
// the name its peer record keeps, else the old <match ID>.jsonl. match
// must be a match ID (as Load, List and the header give them); the
// methods that read or write the store's files check it (file).
func (s Store) Transcript(match string) string {
	if pr, err := s.readPeer(match); err == nil && storedTranscriptName(pr.Transcript) {
		return filepath.Join(s.Dir, pr.Transcript)
	}
	return filepath.Join(s.Dir, match+".jsonl")
}

// TranscriptFor is the path of the transcript seat keeps of the match h
// in the store: the stored match's own file when it is in the store (a
// resume), else the name PlayNet will give it. An interface calls it
// before the match starts, to name the file on screen.
func (s Store) TranscriptFor(h fairness.Header, seat engine.Seat) string {
	if pr, err := s.readPeer(h.Match); err == nil {
		return s.transcriptOf(pr)
	}
	return filepath.Join(s.Dir, TranscriptName(h, seat))
}

// transcriptOf is Transcript for a peer record already read.
func (s Store) transcriptOf(pr peerRecord) string {
	if storedTranscriptName(pr.Transcript) {
		return filepath.Join(s.Dir, pr.Transcript)
	}
	return filepath.Join(s.Dir, pr.Match+".jsonl")
}

// Secrets is the path of a match's secrets file; match as for Transcript.
func (s Store) Secrets(match string) string { return filepath.Join(s.Dir, match+".secrets") }

func (s Store) peerFile(match string) string { return filepath.Join(s.Dir, match+".peer.json") }

// file is the guard of every Store method that touches a match's files:
// the path that named(match) gives, or an error if match is not a match
// ID, so that no other string names a file in or out of the store.
func (s Store) file(match string, named func(string) string) (string, error) {
	if !validMatchID(match) {
		return "", fmt.Errorf("session: match ID %q is not 64 hex digits", match)
	}
	return named(match), nil
}

// peerRecord is the .peer.json file.
type peerRecord struct {
	Match  string   `json:"match"`
	Seat   int      `json:"seat"`
	Remote string   `json:"remote"`
	Addrs  []string `json:"addrs,omitempty"`
	Dialer bool     `json:"dialer"`
	Listen []string `json:"listen,omitempty"`
	// Relays and Bootstrap are this side's relays and bootstrap peers
	// (its flags' and its invite code's), which a resume uses again so
	// that it is reachable, and punches, as the match was.
	Relays    []string `json:"relays,omitempty"`
	Bootstrap []string `json:"bootstrap,omitempty"`
	// Ended is empty while the match may go on; once it ended here it is
	// endedOver (by the rules) or why it stopped, and Load no longer
	// replays the transcript to find out.
	Ended string `json:"ended,omitempty"`
	// Seq is the last message of a match that ended.
	Seq uint64 `json:"seq,omitempty"`
	// Transcript is the transcript's file name in the store's folder
	// (TranscriptName): the index from match ID to file. Empty in a
	// record of an older Salvo, whose transcript is <match ID>.jsonl.
	Transcript string `json:"transcript,omitempty"`
	// Table, for a match of more than two over a topic, lists every
	// seat's peer and its last known addresses (group_store.go).
	Table []PeerAddrs `json:"table,omitempty"`
}

// endedOver is peerRecord.Ended of a match that ended by the rules.
const endedOver = "over"

// ended fills in how a match that ended here ended, from the referee's
// result; it reports false for a match that may still go on (our own
// shutdown, or an error before the end).
func (pr *peerRecord) ended(res *fairness.Result, fm *fairness.Match, err error) bool {
	switch {
	case err != nil || res == nil:
		return false
	case res.Closing != nil:
		pr.Ended = fmt.Sprintf("%s of seat %d: %s", res.Closing.Closing, res.Closing.Seat, res.Closing.Detail)
	case res.Outcome.Done:
		pr.Ended = endedOver
	default:
		return false
	}
	pr.Seq = fm.Seq()
	return true
}

// Saved is a match found in a Store.
type Saved struct {
	Match  string
	Header fairness.Header
	Seat   engine.Seat
	Remote peer.ID
	// Seq is the last message in the transcript.
	Seq uint64
	// Over reports a match that ended by the rules; Stopped one that ended
	// otherwise (a violation, a forfeit), with StopReason.
	Over, Stopped bool
	StopReason    string
	// Listen are the addresses this side listened on, to listen on again.
	Listen []string
	// Relays and Bootstrap are the relays and bootstrap peers this side
	// used, to use again (multiaddrs ending in /p2p/<ID>).
	Relays, Bootstrap []string
	// Group is set for a table of more than two (Remote is then its
	// first other seat); resuming it needs NetPlayConfig.Router.
	Group bool
}

// InProgress reports a match that can be resumed.
func (s Saved) InProgress() bool { return !s.Over && !s.Stopped }

// ErrMatchOver is returned by Resume for a match that cannot go on.
var ErrMatchOver = errors.New("the match is over")

// List returns the matches in the store, newest transcript first.
func (s Store) List() ([]Saved, error) {
	ents, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("session: list matches: %w", err)
	}
	type item struct {
		s  Saved
		at time.Time
	}
	var items []item
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".peer.json")
		if !ok {
			continue
		}
		sv, err := s.Load(id)
		if err != nil {
			continue
		}
		fi, _ := os.Stat(s.Transcript(id))
		var at time.Time
		if fi != nil {
			at = fi.ModTime()
		}
		items = append(items, item{sv, at})
	}
	slices.SortFunc(items, func(a, b item) int { return b.at.Compare(a.at) })
	out := make([]Saved, len(items))
	for i, it := range items {
		out[i] = it.s
	}
	return out, nil
}

// Load reads one match of the store, checking its transcript as the
// auditor would.
func (s Store) Load(match string) (Saved, error) {
	pr, err := s.readPeer(match)
	if err != nil {
		return Saved{}, err
	}
	sv := Saved{Match: match, Seat: engine.Seat(pr.Seat), Listen: pr.Listen, Relays: pr.Relays, Bootstrap: pr.Bootstrap, Group: len(pr.Table) > 0}
	if sv.Remote, err = peer.Decode(pr.Remote); err != nil {
		return Saved{}, fmt.Errorf("session: %s: remote peer: %w", s.peerFile(match), err)
	}
	if pr.Ended != "" {
		// Ended here: the header is enough, no replay.
		sv.Header, sv.Seq = s.header(match), pr.Seq
		sv.Over = pr.Ended == endedOver
		if !sv.Over {
			sv.Stopped, sv.StopReason = true, pr.Ended
		}
		return sv, nil
	}
	m, _, err := fairness.LoadMatch(games.Spec, s.transcriptOf(pr))
	if err != nil {
		sv.Stopped, sv.StopReason = true, err.Error()
		sv.Header = s.header(match)
		return sv, nil
	}
	sv.Header, sv.Seq, sv.Over = m.Header(), m.Seq(), m.Done()
	return sv, nil
}

// header reads the header line of a match's transcript; a zero Header if
// it cannot.
func (s Store) header(match string) fairness.Header {
	path, err := s.file(match, s.Transcript)
	if err != nil {
		return fairness.Header{}
	}
	f, err := os.Open(path)
	if err != nil {
		return fairness.Header{}
	}
	defer f.Close()
	h, _, err := fairness.ReadTranscript(f)
	if err != nil {
		return fairness.Header{}
	}
	return h
}

func (s Store) readPeer(match string) (peerRecord, error) {
	path, err := s.file(match, s.peerFile)
	if err != nil {
		return peerRecord{}, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return peerRecord{}, fmt.Errorf("session: %w", err)
	}
	var pr peerRecord
	if err := json.Unmarshal(b, &pr); err != nil {
		return peerRecord{}, fmt.Errorf("session: %s: %w", path, err)
	}
	if pr.Match != match {
		return peerRecord{}, fmt.Errorf("session: %s names match %.12s…", path, pr.Match)
	}
	return pr, nil
}

// writePeer writes the .peer.json file atomically.
func (s Store) writePeer(pr peerRecord) error {
	path, err := s.file(pr.Match, s.peerFile)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("session: store: %w", err)
	}
	b, err := json.MarshalIndent(pr, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("session: store: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("session: store: %w", err)
	}
	return nil
}

// NetPlayConfig says how to play a match over the network so that it
// survives lost connections and restarts.
type NetPlayConfig struct {
	Key     crypto.PrivKey
	Agent   engine.Agent
	Timeout time.Duration // how long the other seat may take for one step
	Observe func(fairness.Note)
	Hooks   *fairness.Hooks // a cheating peer's (fairness/cheat); nil for an honest one
	Logger  *slog.Logger
	// Store keeps the transcript, the secrets and the peer record.
	Store Store
	// Reconnect sets the give-up time and who re-dials (Dialer is set
	// by PlayNet and kept by Resume).
	Reconnect ReconnectConfig
	// OnTransport, if set, gets the match transport once it exists (a
	// status line reads Kind and RTT from it).
	OnTransport func(*Reconnecting)
	// Router is the host's pubsub router, which resuming a table of more
	// than two needs (StartGroup's table has its topic already).
	Router *group.Router
}

// PlayNet plays an agreed match over a Reconnecting transport, keeping
// everything a restart needs in cfg.Store. dialer is true on the side
// that opened the match stream (the joiner, or an inviting host).
func (m *Match) PlayNet(ctx context.Context, res *Resumer, dialer bool, cfg NetPlayConfig) (*fairness.Result, error) {
	fm, err := fairness.NewMatch(m.Entry.Spec, m.Header)
	if err != nil {
		return nil, err
	}
	id := m.Header.Match
	h := res.Host()
	// The peer, read once: refresh runs on other goroutines, and
	// m.Stream is replaced by the reconnecting transport below.
	remote := m.Stream.Remote()
	pr := peerRecord{Match: id, Seat: int(m.Seat), Remote: remote.String(), Dialer: dialer,
		Transcript: TranscriptName(m.Header, m.Seat)}
	for _, a := range h.Libp2p().Network().ListenAddresses() {
		pr.Listen = append(pr.Listen, a.String())
	}
	var prMu sync.Mutex
	over := make(chan struct{}) // closed (under prMu) when the match is over here
	// refresh records where the other peer can be found now: the
	// peerstore (identify may finish after the match started) and the
	// connections to it.
	refresh := func() error {
		prMu.Lock()
		defer prMu.Unlock()
		select {
		case <-over:
			return nil
		default:
		}
		pr.Addrs = peerAddrs(h, remote)
		pr.Relays, pr.Bootstrap = h.NetPeers()
		return cfg.Store.writePeer(pr)
	}
	if err := refresh(); err != nil {
		return nil, err
	}
	tw, err := fairness.CreateTranscript(cfg.Store.transcriptOf(pr), m.Header)
	if err != nil {
		return nil, err
	}
	defer tw.Close()
	rcfg := cfg.Reconnect
	rcfg.Dialer = dialer
	rc, err := res.Wrap(id, m.Stream, rcfg)
	if err != nil {
		return nil, err
	}
	var bg sync.WaitGroup
	known := func() []ma.Multiaddr {
		prMu.Lock()
		defer prMu.Unlock()
		return parseAddrs(pr.Addrs)
	}
	rc.remember(known())
	upd := func() { // a no-op once over is closed
		_ = refresh()
		rc.remember(known())
	}
	rc.mu.Lock()
	rc.onUp = upd
	rc.mu.Unlock()
	bg.Add(1)
	go func() { // once identify has told us the peer's listen addresses
		defer bg.Done()
		select {
		case <-time.After(time.Second):
			upd()
		case <-over:
		}
	}()
	m.Stream = rc
	result, err := runNet(ctx, fm, m.Seat, rc, tw, cfg)
	prMu.Lock()
	close(over)
	if pr.ended(result, fm, err) {
		if werr := cfg.Store.writePeer(pr); werr != nil {
			err = errors.Join(err, werr)
		}
	}
	rc.mu.Lock()
	rc.onUp = nil
	rc.mu.Unlock()
	prMu.Unlock()
	bg.Wait()
	return result, err
}

// runNet runs the referee of one seat over rc and closes rc after.
func runNet(ctx context.Context, fm *fairness.Match, seat engine.Seat, rc *Reconnecting, tw *fairness.TranscriptWriter, cfg NetPlayConfig) (*fairness.Result, error) {
	if cfg.OnTransport != nil {
		cfg.OnTransport(rc)
	}
	ref, err := fairness.NewReferee(fairness.Config{
		Match: fm, Seat: seat, Key: cfg.Key, Agent: cfg.Agent, Transport: rc, Transcript: tw,
		Timeout: cfg.Timeout, Observe: cfg.Observe, Logger: cfg.Logger, Hooks: cfg.Hooks,
		SecretsPath: cfg.Store.Secrets(fm.Header().Match),
	})
	if err != nil {
		_ = rc.Close()
		return nil, err
	}
	stopAlive := cfg.Store.keepAlive(fm.Header().Match, rc)
	defer watch.ServeTranscript(rc.h.Libp2p(), fm.Header(), tw.Path(), cfg.Logger)()
	result, err := ref.Run(ctx)
	stopAlive()
	if ctx.Err() != nil {
		// Our own shutdown: leave the match resumable; say nothing to the
		// other side but drop the stream, so it starts waiting for us.
		rc.abandon()
		return result, err
	}
	cfg.Store.dropAlive(fm.Header().Match)
	if c := ownForfeitRecord(result, cfg.Key); c != nil {
		_ = rc.closeWithForfeit(c)
	} else {
		_ = rc.Close()
	}
	return result, err
}

// ownForfeitRecord is the closing record of a match that ended here by
// the other peer's forfeit, written and signed by key; nil otherwise.
func ownForfeitRecord(res *fairness.Result, key crypto.PrivKey) *fairness.Closing {
	if res == nil {
		return nil
	}
	if id, err := peer.IDFromPrivateKey(key); err != nil || !isOwnForfeit(res.Closing, id.String()) {
		return nil
	}
	return res.Closing
}

// abandon drops the transport without the graceful end (the process is
// stopping mid-match and will resume).
func (r *Reconnecting) abandon() {
	r.mu.Lock()
	r.moveLink(evAbandon)
	c := r.cur
	r.cur = nil
	r.mu.Unlock()
	r.end(fmt.Errorf("session: match transport %w", p2p.ErrClosed))
	if c != nil {
		c.Abort()
	}
	r.release()
}

// Resume goes on with a match of the store after this process stopped: it
// rebuilds the match from the transcript (checked line by line), reopens
// the transcript and the secrets, waits for the other peer (re-dialing it
// if this side is the dialer), runs the resume handshake so that no
// message is lost or played twice, and plays to the end. A peer that does
// not come back within cfg.Reconnect.GiveUp forfeits, and the transcript
// says so. cfg.Observe first gets one note per message of the transcript
// (replayNotes), then the referee's. ResumeMatch runs it below an
// interface.
func Resume(ctx context.Context, res *Resumer, match string, cfg NetPlayConfig) (*fairness.Result, error) {
	pr, err := cfg.Store.readPeer(match)
	if err != nil {
		return nil, err
	}
	if len(pr.Table) > 0 {
		return resumeGroup(ctx, res, pr, cfg)
	}
	remote, err := peer.Decode(pr.Remote)
	if err != nil {
		return nil, fmt.Errorf("session: resume: remote peer: %w", err)
	}
	fm, envs, err := fairness.LoadMatch(games.Spec, cfg.Store.transcriptOf(pr))
	if err != nil {
		return nil, fmt.Errorf("session: resume: %w", err)
	}
	if fm.Done() {
		return nil, fmt.Errorf("session: resume %.12s…: %w", match, ErrMatchOver)
	}
	me, err := peer.IDFromPrivateKey(cfg.Key)
	if err != nil {
		return nil, err
	}
	seat := fm.Header().Seat(me.String())
	if seat != engine.Seat(pr.Seat) {
		return nil, fmt.Errorf("session: resume: this key is not seat %d of match %.12s…", pr.Seat, match)
	}
	sent, err := ownFrames(envs, me.String())
	if err != nil {
		return nil, fmt.Errorf("session: resume: %w", err)
	}
	if err := replayNotes(fm.Header(), envs, me.String(), cfg.Observe); err != nil {
		return nil, err
	}
	tw, err := fairness.AppendTranscript(cfg.Store.transcriptOf(pr))
	if err != nil {
		return nil, err
	}
	defer tw.Close()
	h := res.Host()
	// The relays and bootstrap peers the match was played with, whatever
	// this host was started with (the lobby's, a bare salvo resume's).
	if err := h.UseNetPeers(pr.Relays, pr.Bootstrap); err != nil {
		res.log.Warn("stored relays unusable; resuming without them", "match", short(match), "err", err)
	}
	// The peer record's addresses, and circuits through our relays: a
	// peer behind a NAT is reachable only there.
	addrs := append(parseAddrs(pr.Addrs), h.CircuitAddrs()...)
	h.AddPeerAddrs(remote, addrs)
	rcfg := cfg.Reconnect
	rcfg.Dialer = pr.Dialer
	rc, err := res.register(match, remote, rcfg)
	if err != nil {
		return nil, err
	}
	rc.remember(addrs)
	rc.mu.Lock()
	rc.sent = append(rc.sent, sent...)
	rc.maxSeq = fm.Seq()
	rc.mark.Reset(fm.Seq())
	rc.link.since = time.Now() // waiting for the other peer from now
	// Away since the heartbeat stopped, or not at all (no heartbeat: a
	// match of an older Salvo): never since the transcript's last write,
	// which a long think with the link up leaves far behind, nor since the
	// link went down while a process of ours still ran.
	since, ok, aerr := cfg.Store.awaySince(match)
	if ok {
		rc.absent, rc.downSince = max(0, rc.link.since.Sub(since)), since
	}
	rc.mu.Unlock()
	if aerr != nil {
		rc.log.Warn("heartbeat unreadable: the outage counts from this process's start", "err", aerr)
	}
	rc.startGiveUp()
	go rc.punchAgain()
	if pr.Dialer {
		rc.redial()
	} else {
		go rc.poke(addrs)
	}
	result, err := runNet(ctx, fm, seat, rc, tw, cfg)
	if pr.ended(result, fm, err) {
		if werr := cfg.Store.writePeer(pr); werr != nil {
			err = errors.Join(err, werr)
		}
	}
	return result, err
}

// poke connects (no stream) to the other peer until a stream is up, so a
// dialer that has not noticed this side restarted sees a new connection
// and opens a resume stream on it.
func (r *Reconnecting) poke(addrs []ma.Multiaddr) {
	wait := RedialFirst
	for {
		r.mu.Lock()
		done := r.cur != nil || r.link.phase.over() || r.goneErr != nil
		r.mu.Unlock()
		if done {
			return
		}
		ctx, cancel := context.WithTimeout(r.ctx, ResumeTimeout)
		r.readdAddrs() // no dial backoff left from the last try
		_ = r.h.Libp2p().Connect(ctx, peer.AddrInfo{ID: r.remote, Addrs: addrs})
		cancel()
		select {
		case <-time.After(wait):
		case <-r.ctx.Done():
			return
		}
		wait = min(2*wait, RedialMax)
	}
}
