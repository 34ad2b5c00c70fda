package watch

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"golang.org/x/time/rate"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
)

// RequestTimeout bounds the wait for a spectator's request.
const RequestTimeout = 10 * time.Second

// reasonNoMatch is the decline of a request for a match not served here.
const reasonNoMatch = "no such match here"

// maxLimiters bounds the request limiters a server keeps; past it they are
// dropped and start afresh (a peer gains at most one burst by it).
const maxLimiters = 1024

// Server answers watch streams on one host for the records it serves: a
// player's own matches and the matches it watches. There is one per host
// (serverOf), alive while it serves a record.
type Server struct {
	h   host.Host
	log *slog.Logger

	mu       sync.Mutex
	records  map[string]*served
	latest   string // the match a request with no match ID gets
	watchers map[peer.ID]bool
	limits   map[peer.ID]*rate.Limiter

	sent atomic.Int64 // bytes of frames sent to spectators
}

// served is one record a server answers for.
type served struct {
	rec     *Record
	allow   bool      // the header opened the match to watchers
	players []peer.ID // the match's players, to send spectators on to
	users   int       // registrations not yet released
	// served counts the spectators given this record; recent are the
	// last MaxPeers of them, who pass it on (Config.Linger after its end).
	served int
	recent []peer.ID
}

var servers = struct {
	sync.Mutex
	m map[host.Host]*Server
}{m: map[host.Host]*Server{}}

// ServerOf returns h's server, nil when it serves nothing.
func ServerOf(h host.Host) *Server {
	servers.Lock()
	defer servers.Unlock()
	return servers.m[h]
}

// Watching returns how many spectators this server is serving now.
func (s *Server) Watching() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.watchers)
}

// Sent returns the bytes this server has sent to spectators.
func (s *Server) Sent() int64 { return s.sent.Load() }

// Serve has h answer watch requests for match from rec until release is
// called, then linger longer. A match its header does not open to
// watchers (allow false) is registered too, so that a request for it is
// told so rather than that there is no match.
func Serve(h host.Host, hd fairness.Header, rec *Record, linger time.Duration, log *slog.Logger) (release func()) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	servers.Lock()
	defer servers.Unlock()
	s := servers.m[h]
	if s == nil {
		s = &Server{h: h, log: log.With("component", "watch"), records: map[string]*served{},
			watchers: map[peer.ID]bool{}, limits: map[peer.ID]*rate.Limiter{}}
		servers.m[h] = s
		h.SetStreamHandler(Protocol, s.handle)
	}
	s.mu.Lock()
	sv := s.records[hd.Match]
	if sv == nil || sv.rec != rec {
		sv = &served{rec: rec, allow: hd.Watch}
		for _, p := range hd.Players {
			if id, err := peer.Decode(p.Peer); err == nil && id != h.ID() {
				sv.players = append(sv.players, id)
			}
		}
		s.records[hd.Match] = sv
	}
	sv.users++
	s.latest = hd.Match
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() { time.AfterFunc(linger, func() { s.unserve(hd.Match, sv) }) })
	}
}

// ServeTranscript has a player's host h serve the match of header hd from
// its transcript at path, followed as the referee writes it (Follow),
// until release is called (the match is over here: the record ends with
// what the file then holds), then Linger longer.
//
// A match not open to watchers is registered with an empty record, never
// read: a request for it is declined (say why), and its file is not
// followed.
func ServeTranscript(h host.Host, hd fairness.Header, path string, log *slog.Logger) (release func()) {
	rec := NewRecord()
	stop := make(chan struct{})
	if hd.Watch {
		go Follow(path, rec, stop)
	}
	unserve := Serve(h, hd, rec, Linger, log)
	var once sync.Once
	return func() {
		once.Do(func() {
			close(stop)
			unserve()
		})
	}
}

// unserve drops one registration of a record; the last one of the host's
// last record takes the handler down.
func (s *Server) unserve(match string, sv *served) {
	servers.Lock()
	defer servers.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if sv.users--; sv.users > 0 || s.records[match] != sv {
		return
	}
	delete(s.records, match)
	if len(s.records) == 0 && servers.m[s.h] == s {
		delete(servers.m, s.h)
		s.h.RemoveStreamHandler(Protocol)
	}
}

// enter admits one request of p: no other stream of p's being served, and
// within its request rate.
func (s *Server) enter(p peer.ID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watchers[p] {
		return false
	}
	l := s.limits[p]
	if l == nil {
		if len(s.limits) >= maxLimiters {
			clear(s.limits)
		}
		l = rate.NewLimiter(RequestRate, RequestBurst)
		s.limits[p] = l
	}
	return l.Allow()
}

// handle answers one watch stream. A peer that asks while it is being
// served, or faster than RequestRate, has its stream reset unread.
func (s *Server) handle(st network.Stream) {
	remote := st.Conn().RemotePeer()
	if !s.enter(remote) {
		s.log.Debug("watch refused", "peer", p2p.ShortID(remote))
		_ = st.ResetWithError(network.StreamResourceLimitExceeded)
		return
	}
	if err := s.answer(st, remote); err != nil {
		s.log.Debug("watch ended", "peer", p2p.ShortID(remote), "err", err)
		_ = st.Reset()
		return
	}
	_ = st.Close()
}

// answer reads the request and sends the record from the line asked for,
// as it grows, to its end; or the answer that it will not.
func (s *Server) answer(st network.Stream, remote peer.ID) error {
	_ = st.SetReadDeadline(time.Now().Add(RequestTimeout))
	b, err := p2p.ReadFrame(st, p2p.MaxFirstFrame)
	if err != nil {
		return err
	}
	req, err := decodeFrame(b)
	if err != nil {
		return err
	}
	if req.T != tWatch {
		return errors.New("watch: the first frame is no request")
	}
	_ = st.SetReadDeadline(time.Time{})
	match, sv, refusal := s.admit(req, remote)
	if refusal != nil {
		return s.send(st, *refusal)
	}
	defer s.leave(remote)
	if err := s.send(st, frame{T: tOK, Match: match}); err != nil {
		return err
	}
	// A spectator sends nothing after its request: the stream's end (or
	// any byte) stops the answer.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_, _ = st.Read(make([]byte, 1))
		cancel()
	}()
	for n := req.From; ; n++ {
		line, err := sv.rec.Line(ctx, n)
		if errors.Is(err, io.EOF) {
			return s.send(st, frame{T: tEnd, Lines: n - 1})
		}
		if err != nil {
			return err
		}
		if err := s.sendRaw(st, line); err != nil {
			return err
		}
	}
}

// admit finds the record asked for (the latest served when the request
// names none) and takes remote on as one of its watchers, or returns the
// answer that refuses it: no such match, not open to watchers, or busy.
// Busy is every seat taken (MaxWatchers), or, for a request not marked
// direct, a record already given to MaxWatchers spectators, who pass it
// on: so a player's upload stays at about MaxWatchers copies of its
// record however many come, at once or one after another, while a
// spectator whose relays all failed still gets it here (direct).
func (s *Server) admit(req frame, remote peer.ID) (string, *served, *frame) {
	s.mu.Lock()
	defer s.mu.Unlock()
	match := req.Match
	if match == "" {
		match = s.latest
	}
	sv := s.records[match]
	switch {
	case sv == nil:
		return "", nil, &frame{T: tDecline, Reason: reasonNoMatch}
	case !sv.allow:
		return "", nil, &frame{T: tDecline, Reason: "this match does not allow watching (its host chose so at set-up)"}
	case len(s.watchers) >= MaxWatchers:
		return "", nil, &frame{T: tBusy, Match: match, Peers: s.others(sv, remote)}
	case sv.served >= MaxWatchers && !req.Direct:
		if peers := s.others(sv, remote); len(peers) > 0 {
			return "", nil, &frame{T: tBusy, Match: match, Peers: peers}
		}
	}
	s.watchers[remote] = true
	sv.served++
	sv.recent = append(sv.recent, remote)
	if len(sv.recent) > MaxPeers {
		sv.recent = sv.recent[1:]
	}
	return match, sv, nil
}

// others lists, for a busy answer, the peers that can serve instead: the
// spectators this peer serves and served last (each passes on what it
// verified), then the match's other players, with the addresses this
// host knows (s.mu held).
func (s *Server) others(sv *served, remote peer.ID) []PeerInfo {
	var out []PeerInfo
	add := func(p peer.ID) {
		if p == remote || len(out) >= MaxPeers {
			return
		}
		addrs := s.h.Peerstore().Addrs(p)
		if len(addrs) == 0 {
			return
		}
		pi := PeerInfo{Peer: p.String()}
		for _, a := range addrs[:min(len(addrs), MaxAddrs)] {
			pi.Addrs = append(pi.Addrs, a.String())
		}
		out = append(out, pi)
	}
	for p := range s.watchers {
		add(p)
	}
	for i := len(sv.recent) - 1; i >= 0; i-- {
		if !s.watchers[sv.recent[i]] {
			add(sv.recent[i])
		}
	}
	for _, p := range sv.players {
		add(p)
	}
	return out
}

func (s *Server) leave(p peer.ID) {
	s.mu.Lock()
	delete(s.watchers, p)
	s.mu.Unlock()
}

func (s *Server) send(st network.Stream, f frame) error {
	_ = st.SetWriteDeadline(time.Now().Add(WriteTimeout))
	return writeFrame(countWriter{st, &s.sent}, f)
}

func (s *Server) sendRaw(st network.Stream, b []byte) error {
	_ = st.SetWriteDeadline(time.Now().Add(WriteTimeout))
	return p2p.WriteFrame(countWriter{st, &s.sent}, b)
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n *atomic.Int64
}

func (c countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n.Add(int64(n))
	return n, err
}
