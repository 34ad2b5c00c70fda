package session

// The fetch protocol lets a player of a table take back envelopes it
// missed from any other player. Gossipsub keeps a message for its gossip
// only a few heartbeats (about 3 s): a player whose link was down longer,
// or whose process was restarted, would otherwise wait for a message
// that was sent while it was away until the seat after it forfeited.
//
//	asker → responder   {"t":"fetch","match":"<match ID>","from":N,"to":M}
//	responder → asker   the envelopes N…M it holds, one frame each, as its transcript has them
//	responder → asker   {"t":"done","seq":H}     H: the last message it holds
//	               or   {"t":"decline","reason":…}
//
// Every copy is checkable: the asker takes an envelope only if it is of
// this match, signed by the player it names, numbered in the range asked
// for and chained to the one before it in the answer; then it goes to the
// referee exactly as one from the topic, which takes it only where it
// follows the chain it holds. A responder can therefore send nothing
// false, only less than it has: the asker then asks another player.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"golang.org/x/time/rate"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
)

// FetchProtocol is the stream protocol of the fetch exchange.
const FetchProtocol protocol.ID = "/salvo/fetch/1"

// House bounds of the fetch protocol, on both sides.
const (
	// MaxFetchBatch is the most envelopes one answer carries; an asker
	// further behind asks again.
	MaxFetchBatch = 64
	// MaxFetchBytes bounds the envelopes of one answer: a responder stops
	// before it (one envelope always goes, a full-size one is
	// fairness.MaxEnvelope), an asker refuses an answer past it.
	MaxFetchBytes = 4 << 20
	// FetchTimeout bounds one exchange, on either side: a responder that
	// stalls costs the asker this much before it asks another player.
	FetchTimeout = 5 * time.Second
	// FetchRate and FetchBurst bound the requests one player may make of
	// this peer (per second, and at once after a quiet spell); one more
	// is refused (its stream reset) unread.
	FetchRate  = 2
	FetchBurst = 4
	// FetchLinger is how long a peer keeps answering for a match after it
	// ended here: a player still catching up needs the last messages.
	FetchLinger = 10 * time.Minute
)

// Kinds of the fetch frames.
const (
	tFetch = "fetch"
	tDone  = "done"
)

// fetchFrame is a fetch request, or the responder's last frame (done or
// decline).
type fetchFrame struct {
	T      string `json:"t"`
	Match  string `json:"match,omitempty"`
	From   uint64 `json:"from,omitempty"`
	To     uint64 `json:"to,omitempty"`
	Seq    uint64 `json:"seq,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// controlPrefix starts every fetch frame that is not an envelope (an
// envelope starts {"match":).
var controlPrefix = []byte(`{"t":`)

// decodeFetchFrame strictly reads one fetch frame: known fields only, a
// known kind and, for a request, a match ID and a range from 1 up.
func decodeFetchFrame(b []byte) (fetchFrame, error) {
	var f fetchFrame
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return fetchFrame{}, fmt.Errorf("session: fetch: malformed frame: %w", err)
	}
	if dec.More() {
		return fetchFrame{}, errors.New("session: fetch: data after the frame")
	}
	switch f.T {
	case tFetch:
		if !validMatchID(f.Match) {
			return fetchFrame{}, fmt.Errorf("session: fetch: match ID %q is not 64 hex digits", f.Match)
		}
		if f.From < 1 || f.To < f.From {
			return fetchFrame{}, fmt.Errorf("session: fetch: range %d to %d", f.From, f.To)
		}
	case tDone, tDecline:
	default:
		return fetchFrame{}, fmt.Errorf("session: fetch: unknown frame kind %q", f.T)
	}
	return f, nil
}

func writeFetchFrame(w io.Writer, f fetchFrame) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return p2p.WriteFrame(w, b)
}

// fetchServer answers fetch streams on one host for the tables it plays
// (and played, FetchLinger long), from their transcripts. There is one
// per host (fetchServerOf), alive while it serves a match.
type fetchServer struct {
	h   host.Host
	log *slog.Logger

	mu      sync.Mutex
	matches map[string]*servedMatch
	limits  map[peer.ID]*rate.Limiter // per player of a served match
	busy    map[peer.ID]bool          // a player with an exchange running
}

// servedMatch is one match a fetchServer answers for: who may ask, and an
// index of its transcript's envelope lines, extended as the file grows.
type servedMatch struct {
	players map[peer.ID]bool
	path    string
	serving int // Play runs that registered it and have not ended

	mu      sync.Mutex
	lines   []lineRef
	scanned int64 // the transcript's bytes indexed so far (whole lines)
}

// lineRef is where one envelope line of a transcript is.
type lineRef struct {
	seq      uint64
	off, len int64
}

var fetchServers = struct {
	sync.Mutex
	m map[host.Host]*fetchServer
}{m: map[host.Host]*fetchServer{}}

// serveFetch has h answer fetch requests for match (whose players are in
// header) from the transcript at path until the returned function is
// called, then FetchLinger longer.
func serveFetch(h host.Host, header fairness.Header, path string, log *slog.Logger) (release func()) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	fetchServers.Lock()
	defer fetchServers.Unlock()
	s := fetchServers.m[h]
	if s == nil {
		s = &fetchServer{h: h, log: log.With("component", "fetch"), matches: map[string]*servedMatch{},
			limits: map[peer.ID]*rate.Limiter{}, busy: map[peer.ID]bool{}}
		fetchServers.m[h] = s
		h.SetStreamHandler(FetchProtocol, s.handle)
	}
	s.mu.Lock()
	sm := s.matches[header.Match]
	if sm == nil {
		sm = &servedMatch{players: map[peer.ID]bool{}, path: path}
		for _, p := range header.Players {
			if id, err := peer.Decode(p.Peer); err == nil {
				sm.players[id] = true
			}
		}
		s.matches[header.Match] = sm
	}
	sm.serving++
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() { time.AfterFunc(FetchLinger, func() { s.unserve(header.Match, sm) }) })
	}
}

// unserve drops one registration of a match; the last one of the host's
// last match takes the handler down.
func (s *fetchServer) unserve(match string, sm *servedMatch) {
	fetchServers.Lock()
	defer fetchServers.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if sm.serving--; sm.serving > 0 || s.matches[match] != sm {
		return
	}
	delete(s.matches, match)
	for p := range s.limits {
		if !s.player(p) {
			delete(s.limits, p)
		}
	}
	if len(s.matches) == 0 && fetchServers.m[s.h] == s {
		delete(fetchServers.m, s.h)
		s.h.RemoveStreamHandler(FetchProtocol)
	}
}

// player reports whether p plays a match served here (s.mu held).
func (s *fetchServer) player(p peer.ID) bool {
	for _, sm := range s.matches {
		if sm.players[p] {
			return true
		}
	}
	return false
}

// enter admits one exchange with p: a player of a served match, with no
// other exchange running and within its request rate.
func (s *fetchServer) enter(p peer.ID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.player(p) || s.busy[p] {
		return false
	}
	l := s.limits[p]
	if l == nil {
		l = rate.NewLimiter(FetchRate, FetchBurst)
		s.limits[p] = l
	}
	if !l.Allow() {
		return false
	}
	s.busy[p] = true
	return true
}

func (s *fetchServer) leave(p peer.ID) {
	s.mu.Lock()
	delete(s.busy, p)
	s.mu.Unlock()
}

// handle answers one fetch stream. A peer that is no player of a match
// served here, one that asks while its last exchange runs, or faster than
// FetchRate, has its stream reset before a byte is read.
func (s *fetchServer) handle(st network.Stream) {
	remote := st.Conn().RemotePeer()
	if !s.enter(remote) {
		s.log.Debug("fetch refused", "peer", p2p.ShortID(remote))
		_ = st.ResetWithError(network.StreamResourceLimitExceeded)
		return
	}
	defer s.leave(remote)
	_ = st.SetDeadline(time.Now().Add(FetchTimeout))
	if err := s.answer(st, remote); err != nil {
		s.log.Debug("fetch failed", "peer", p2p.ShortID(remote), "err", err)
		_ = st.Reset()
		return
	}
	_ = st.Close()
}

// answer reads the request and sends the envelopes asked for that the
// transcript holds, within MaxFetchBatch and MaxFetchBytes.
func (s *fetchServer) answer(st network.Stream, remote peer.ID) error {
	b, err := p2p.ReadFrame(st, p2p.MaxFirstFrame)
	if err != nil {
		return err
	}
	req, err := decodeFetchFrame(b)
	if err != nil {
		return err
	}
	if req.T != tFetch {
		return fmt.Errorf("session: fetch: got %q, want a request", req.T)
	}
	s.mu.Lock()
	sm := s.matches[req.Match]
	s.mu.Unlock()
	if sm == nil || !sm.players[remote] {
		return writeFetchFrame(st, fetchFrame{T: tDecline, Reason: "no such match here"})
	}
	to := min(req.To, req.From+MaxFetchBatch-1)
	envs, high, err := sm.read(req.From, to)
	if err != nil {
		return err
	}
	for _, e := range envs {
		if err := p2p.WriteFrame(st, e); err != nil {
			return err
		}
	}
	return writeFetchFrame(st, fetchFrame{T: tDone, Seq: high})
}

// read returns the envelope lines numbered from to to (as many as fit in
// MaxFetchBytes, at least one), in transcript order, and the last number
// the transcript holds.
func (sm *servedMatch) read(from, to uint64) ([][]byte, uint64, error) {
	sm.mu.Lock()
	defer sm.mu.Unlock()
	f, err := os.Open(sm.path)
	if err != nil {
		return nil, 0, fmt.Errorf("session: fetch: %w", err)
	}
	defer f.Close()
	if err := sm.index(f); err != nil {
		return nil, 0, err
	}
	var out [][]byte
	var high uint64
	size, full := 0, false
	for _, l := range sm.lines {
		high = max(high, l.seq)
		if l.seq < from || l.seq > to || full {
			continue
		}
		// The answer stops at the first envelope past the byte bound: one
		// skipped and a smaller one after it sent would be a gap, which
		// the asker refuses as a false answer.
		if full = len(out) > 0 && size+int(l.len) > MaxFetchBytes; full {
			continue
		}
		b := make([]byte, l.len)
		if _, err := f.ReadAt(b, l.off); err != nil {
			return nil, 0, fmt.Errorf("session: fetch: %w", err)
		}
		out = append(out, b)
		size += len(b)
	}
	return out, high, nil
}

// index extends the index of envelope lines with the whole lines written
// since the last call (a line still being written waits for the next).
// Only each line's number is read: the asker checks everything.
func (sm *servedMatch) index(f *os.File) error {
	if _, err := f.Seek(sm.scanned, io.SeekStart); err != nil {
		return fmt.Errorf("session: fetch: %w", err)
	}
	br := bufio.NewReaderSize(f, 4096)
	for {
		head, n, err := readLine(br)
		if err != nil {
			return nil // io.EOF or a partial last line: later
		}
		off := sm.scanned
		sm.scanned += n
		if off == 0 {
			continue // the header
		}
		if seq, ok := headSeq(head); ok {
			sm.lines = append(sm.lines, lineRef{seq: seq, off: off, len: n - 1})
		}
	}
}

// readLine reads one line ending in '\n' and returns its first bytes (up
// to the reader's buffer) and its whole length with the newline; a line
// without its newline yet is an error.
func readLine(br *bufio.Reader) ([]byte, int64, error) {
	var head []byte
	var n int64
	for {
		b, err := br.ReadSlice('\n')
		if head == nil {
			head = append([]byte(nil), b...)
		}
		n += int64(len(b))
		switch {
		case err == nil:
			return head, n, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, 0, err
		}
	}
}

// headSeq reads the number of an envelope line from its first bytes,
// {"match":"<64 hex>","seq":N,…, the one form Salvo writes.
func headSeq(b []byte) (uint64, bool) {
	const pre = `{"match":"`
	const mid = `","seq":`
	if !bytes.HasPrefix(b, []byte(pre)) || len(b) < len(pre)+64+len(mid) || !bytes.HasPrefix(b[len(pre)+64:], []byte(mid)) {
		return 0, false
	}
	rest := b[len(pre)+64+len(mid):]
	end := bytes.IndexByte(rest, ',')
	if end < 0 {
		return 0, false
	}
	seq, err := strconv.ParseUint(string(rest[:end]), 10, 64)
	return seq, err == nil
}
