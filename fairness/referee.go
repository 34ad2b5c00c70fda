package fairness

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
)

// Transport carries encoded envelopes between the local seat and the others.
// In a two-seat match it is the match stream to the opponent; Send delivers
// to every other seat.
type Transport interface {
	Send(ctx context.Context, frame []byte) error
	Recv(ctx context.Context) ([]byte, error)
}

// LinkWatcher is a Transport that knows when its link is down (a
// transport that reconnects, between two streams). While it is, waiting
// for a remote seat's step does not count against Config.Timeout: a
// player is not to blame for an outage, and the transport's own give-up
// time (which ends Recv) is the only clock then. The step's Timeout
// starts again once the link is back.
type LinkWatcher interface {
	LinkDown() bool
}

// linkPoll is how often a step's wait looks again at a link that is down.
const linkPoll = 250 * time.Millisecond

// GroupTransport is a Transport shared by more than two seats (a pubsub
// topic): it also says which peer each frame came from, its author (on a
// topic the peer that signed the pubsub message, whoever relayed it; never
// the last hop), so that a frame that is not even a valid envelope can be
// blamed on its author, and one in another seat's name that the seat did
// not sign is not blamed on that seat (see screen.go). Frames may arrive out
// of order; the referee puts them back in order.
type GroupTransport interface {
	Transport
	RecvFrom(ctx context.Context) (frame []byte, from string, err error)
}

// Note is one line of the verification log: something sent, accepted,
// checked or refused. Game is a snapshot of the game after it, safe to read
// from another goroutine.
type Note struct {
	Seq    uint64
	Seat   engine.Seat
	Dir    Dir
	OK     bool
	Text   string       // seats written "seat N"; Words keeps them apart
	words  engine.Words // Text with its seats apart (WithText)
	Events []engine.Event
	State  Digest
	Game   engine.Game
	// Secrets is a copy of what the local seat knows after it (its own
	// committed values and the cards dealt to it), safe to read elsewhere.
	Secrets engine.Secrets
	Kind    InputKind   // for DirLocal: the kind of input staged
	Need    engine.Need // for DirWait: what the match waits for
	Wait    engine.Seat // for DirWait: who it waits for
}

// Words returns the note's text as [engine.Words]: an interface names the
// seats it speaks of by their players (Words.Say), never by searching Text.
func (n Note) Words() engine.Words {
	if n.words.String() != n.Text {
		return engine.Plain(n.Text) // Text set by hand
	}
	return n.words
}

// WithText returns the note with w as its text: Text is w's, and Words
// keeps the seats w names apart.
func (n Note) WithText(w engine.Words) Note {
	n.Text, n.words = w.String(), w
	return n
}

// Immediate is implemented by agents that decide at once (bots). The
// referee then adds their decisions to the envelope it is building instead of
// sending what it has before asking.
type Immediate interface {
	Immediate() bool
}

// Config sets up a referee for one seat of one match.
type Config struct {
	Match      *Match
	Seat       engine.Seat
	Key        crypto.PrivKey
	Agent      engine.Agent
	Transport  Transport
	Transcript *TranscriptWriter
	// Timeout is how long a remote seat may take to send before it
	// forfeits. Zero means five minutes.
	Timeout time.Duration
	// Observe, if set, is called with every note of the verification log.
	Observe func(Note)
	Logger  *slog.Logger
	// Hooks let a peer depart from the protocol on purpose (see Hooks);
	// nil for every honest one.
	Hooks *Hooks
	// SecretsPath, if set, is where the seat's secrets (its dice-chain seed
	// and every committed vector) are kept, written and synced before
	// anything that depends on them is sent, so that a restarted peer can
	// resume the match. If the file exists, the referee resumes from it.
	SecretsPath string
	// AskLate asks the agent only at the seat's own turn, never ahead of
	// it while other seats are still committing or choosing (early.go).
	AskLate bool
}

// Result is how a match ended for this referee.
type Result struct {
	Outcome   engine.Outcome
	Violation *Violation // a violation by another seat, detected here
	Closing   *Closing   // the closing record written, if the match did not end by the rules
	Sent      int        // envelopes sent
	Received  int        // envelopes accepted
	BytesSent int64
	BytesRecv int64
	// Dropped counts envelopes that proved nothing against anyone (not
	// signed by the seat they name, for this match, and not sent by it;
	// or, in a group match, not following the message held before them).
	Dropped int
	// HeldPeak is the most bytes held at once ahead of their turn.
	HeldPeak int64
	// Removed is set when the others took this seat off the table (it
	// was silent past their give-up time) and play on without it.
	Removed bool
}

// Referee drives one seat of a match in lockstep with the other seats. It
// asks the local agent for decisions, produces openings and dice preimages
// from the seat's secrets, signs and sends envelopes, and checks and applies
// everything that arrives.
type Referee struct {
	cfg Config
	m   *Match
	// resumedAt is the last message of the match when this referee took
	// it up: 0 for a new match, the transcript's last for a resumed one.
	// Messages this side signed after it were signed after the outage
	// that ended with the resume (see notBeforeOurs).
	resumedAt uint64
	secrets   *Secrets
	chain     *Dice
	staged    []WireInput
	res       Result
	log       *slog.Logger
	early     earlyBuffer // validly signed envelopes that arrived ahead of their turn
	// lost is the transport's report that the others are gone, held while
	// the match waits for this seat: a forfeit may only blame a seat the
	// match waits for (forfeitFits), so this seat makes its move first and
	// then records the forfeit of the seat that owes the next message.
	lost error
	// leaving holds the left records of players who left a game that
	// plays on, until this seat can sequence them (sequenceLeft).
	leaving map[engine.Seat]*Closing
	// held is a claim of silence held until this referee's own give-up
	// time for the seat (claimhold.go); gone is the transport's latest
	// report of a seat gone that long; waitSeq and waitSince say since
	// when the match has waited here for what it waits for.
	held      *heldClaim
	gone      goneReport
	waitSeq   uint64
	waitSince time.Time
	// ahead is the agent's decision asked for ahead of the seat's turn
	// (early.go), nil when none is.
	ahead *ask
	// memberSent is the place of the last member this seat sent at once
	// (referee_member.go), so that it is sent once.
	memberSent memberKey
	// decidedAt is, per vector name, what stood (askFence) when this
	// referee made the seat's decision (keptDecision).
	decidedAt map[string]askFence
}

// NewReferee prepares a referee; Run plays the match.
func NewReferee(cfg Config) (*Referee, error) {
	if cfg.Match == nil || cfg.Key == nil || cfg.Agent == nil || cfg.Transport == nil {
		return nil, errors.New("referee: match, key, agent and transport are required")
	}
	if cfg.Seat < 0 || int(cfg.Seat) >= cfg.Match.Seats() {
		return nil, fmt.Errorf("referee: seat %d is not at this table", cfg.Seat)
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 5 * time.Minute
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &Referee{cfg: cfg, m: cfg.Match, log: log, resumedAt: cfg.Match.Seq()}
	if cfg.SecretsPath != "" {
		store, err := loadSecrets(cfg.SecretsPath, cfg.Match.ID(), cfg.Seat)
		switch {
		case err == nil:
			r.secrets, r.chain = store.secrets, store.chain
			return r, nil
		case !errors.Is(err, os.ErrNotExist):
			return nil, fmt.Errorf("referee: resume: %w", err)
		case cfg.Match.Seq() > 0:
			return nil, fmt.Errorf("referee: resume at message %d: the seat's secrets are lost (%s)", cfg.Match.Seq(), cfg.SecretsPath)
		}
	}
	chain, err := NewChain(cfg.Match.ID(), cfg.Seat)
	if err != nil {
		return nil, err
	}
	r.secrets, r.chain = NewSecrets(cfg.Seat), chain
	if err := r.saveSecrets(); err != nil {
		return nil, err
	}
	return r, nil
}

// saveSecrets writes the seat's secrets, if the referee keeps them on disk.
func (r *Referee) saveSecrets() error {
	if r.cfg.SecretsPath == "" {
		return nil
	}
	return saveSecrets(r.cfg.SecretsPath, r.m.ID(), r.cfg.Seat, r.chain, r.secrets)
}

// Secrets returns the local seat's secrets (read them only from the
// goroutine running the referee, or after Run returns).
func (r *Referee) Secrets() *Secrets { return r.secrets }

type frame struct {
	b    []byte
	from string // the sending peer, when the transport knows it
	err  error
}

// Run plays the match to its end and returns how it ended. An error means
// the local side failed (a broken transport, a bug); the other seats'
// misbehaviour is reported in the Result.
//
// The reader keeps the caller's ctx: ending Run does not cancel a pending
// receive (on a libp2p stream that would reset it and could drop the last
// message still in flight); the caller closes the transport when Run returns.
func (r *Referee) Run(ctx context.Context) (*Result, error) {
	stop := make(chan struct{})
	defer close(stop)
	defer r.leaveIfAsked(ctx)
	defer r.dropAhead()
	frames := make(chan frame, 16)
	go r.receive(ctx, frames, stop)
	for {
		r.waitStarted()
		if err := r.releaseClaim(ctx); !errors.Is(err, errIgnored) && (err != nil || r.res.Closing != nil) {
			return &r.res, err
		}
		if r.m.Removed(r.cfg.Seat) {
			return r.removedHere()
		}
		st, ok := r.m.Next()
		if !ok {
			if err := r.flush(ctx); err != nil {
				return &r.res, err
			}
			r.res.Outcome = r.m.Outcome()
			r.note(Note{Dir: DirStop, OK: true}.WithText(engine.Wordsf("match over: %s", r.res.Outcome.Why())))
			return &r.res, nil
		}
		if r.adoptLeft() {
			return &r.res, nil // a leaver's forfeit, in its own words
		}
		if r.sequenceLeft(st) {
			continue // what the match waits for has changed
		}
		if st.Seat == r.cfg.Seat && len(r.staged) == 0 {
			if err := r.sendMember(ctx); err != nil {
				return &r.res, err
			}
		}
		if st.Seat == r.cfg.Seat && r.heldDue(true) {
			// Our member, sent at once, is the next message: apply it.
			if err := r.drain(ctx, isGroup(r.cfg.Transport)); err != nil {
				return &r.res, err
			}
			continue
		}
		if st.Seat == r.cfg.Seat {
			stop, err := r.local(ctx, st, frames)
			if err == nil && r.m.Removed(r.cfg.Seat) {
				return r.removedHere() // while this seat was deciding
			}
			if err != nil || stop {
				return &r.res, err
			}
			continue
		}
		if err := r.flush(ctx); err != nil {
			return &r.res, err
		}
		if r.cfg.Hooks.done() {
			r.linger(ctx, frames)
			return &r.res, nil
		}
		if err := r.sendMember(ctx); err != nil {
			return &r.res, err
		}
		if r.heldDue(false) {
			// Held ahead of its turn, and its turn came with our own last
			// message: no frame will arrive to apply it.
			if err := r.drain(ctx, isGroup(r.cfg.Transport)); err != nil {
				return &r.res, err
			}
			continue
		}
		stop, err := r.remote(ctx, st, frames)
		if err != nil || stop {
			return &r.res, err
		}
	}
}

func (r *Referee) receive(ctx context.Context, out chan<- frame, stop <-chan struct{}) {
	group, _ := r.cfg.Transport.(GroupTransport)
	for {
		select {
		case <-stop:
			return // the match is over for this referee: read nothing more
		default:
		}
		var f frame
		if group != nil {
			f.b, f.from, f.err = group.RecvFrom(ctx)
		} else {
			f.b, f.err = r.cfg.Transport.Recv(ctx)
		}
		err := f.err
		select {
		case out <- f:
		case <-stop:
			return
		}
		var gone *SeatGone
		if err != nil && !errors.As(err, &gone) {
			return // a seat away past the give-up time is no end of reading
		}
	}
}

// local produces the local seat's next input and stages it.
func (r *Referee) local(ctx context.Context, st Step, frames <-chan frame) (stop bool, err error) {
	slow := st.Kind == InMove && !st.Need.Auto || st.Kind == InCommit || st.Kind == InChoose
	if slow && !isImmediate(r.cfg.Agent) {
		if err := r.flush(ctx); err != nil {
			return true, err
		}
	}
	place := len(r.staged) == 0 && r.m.inRun()
	in, stop, err := r.produce(ctx, st, frames)
	if err != nil || stop {
		return true, err
	}
	r.cfg.Hooks.input(r.m, r.secrets, st, &in)
	if seq, ok := r.ownMemberPlace(); ok && r.cfg.Hooks == nil {
		// The next message is a member's place of ours: sent in the member
		// form whether or not produceMember could build it ahead, so the
		// place has one version only (a referee resumed after sending it
		// before a crash signs the very same envelope again).
		return false, r.sendMemberAt(ctx, seq, st, in)
	}
	evs, serr := r.m.Stage(r.cfg.Seat, in)
	if serr != nil {
		if r.cfg.Hooks.refused(st, serr) {
			r.staged = append(r.staged, in)
			if err := r.sendRefused(ctx); err != nil {
				return true, err
			}
			r.linger(ctx, frames)
			return true, nil
		}
		if blamed := engine.Blame(serr, r.cfg.Seat); blamed != r.cfg.Seat {
			// Our honest input completed something another seat had
			// spoiled (a hidden choice that breaks the rules, found once
			// every choice is open): send it all the same, so that every
			// peer and the auditor meet the same fault at this message.
			r.staged = append(r.staged, in)
			return true, r.sendFault(ctx, serr)
		}
		return true, fmt.Errorf("referee: own %s refused: %w", st.Kind, serr)
	}
	r.staged = append(r.staged, in)
	if err := r.peekDealt(); err != nil {
		return true, err
	}
	r.note(Note{Seat: r.cfg.Seat, Dir: DirLocal, Kind: st.Kind, OK: true, Events: evs}.WithText(engine.Wordsf("%s: %s", st.Kind, describe(st.Need))))
	if place {
		// A place of a run that another place follows: one message (runs.go).
		return false, r.flush(ctx)
	}
	return false, nil
}

// ownMemberPlace returns the number of the next message when it is a
// member's place of the local seat with nothing staged before it.
func (r *Referee) ownMemberPlace() (uint64, bool) {
	if len(r.staged) > 0 {
		return 0, false
	}
	seq, _, _, _, ok := r.m.MemberPlace(r.cfg.Seat, 0)
	return seq, ok && seq == r.m.Seq()+1
}

func isImmediate(a engine.Agent) bool {
	i, ok := a.(Immediate)
	return ok && i.Immediate()
}

// produce builds the honest input for the local seat's step.
func (r *Referee) produce(ctx context.Context, st Step, frames <-chan frame) (WireInput, bool, error) {
	seat, m := r.cfg.Seat, r.m
	switch st.Kind {
	case InHello:
		return WireInput{T: InHello, Tip: hexDigest(r.chain.Tip()), Links: r.chain.Len()}, false, nil
	case InShare:
		pos := m.used[seat] + 1
		if st.Pos > 0 {
			pos = st.Pos // a later roll's place in a run of rolls
		}
		link, next, err := r.chain.Share(pos)
		if err != nil {
			return WireInput{}, true, fmt.Errorf("referee: %w", err)
		}
		in := WireInput{T: InShare, Roll: st.Roll, Link: hexDigest(link)}
		if next != nil {
			in.Next = hexDigest(*next)
		}
		return in, false, nil
	case InOpen:
		return r.openNeed(st.Need.Open)
	case InReveal:
		o, err := r.secrets.Open(engine.Slot{Owner: seat, Name: st.Need.Name, Index: 0})
		return WireInput{T: InReveal, Open: []Opening{o}}, false, err
	case InMove:
		var move []byte
		if st.Need.Auto {
			a, ok := m.Game().(engine.Answerer)
			if !ok {
				return WireInput{}, true, fmt.Errorf("referee: %s asks for an automatic answer but cannot give one", r.m.spec.Name)
			}
			var err error
			if move, err = a.Answer(seat, st.Need, r.secrets); err != nil {
				return WireInput{}, true, fmt.Errorf("referee: answer: %w", err)
			}
		} else {
			d, stop, err := r.decide(ctx, st, frames)
			if err != nil || stop {
				return WireInput{}, true, err
			}
			move = d.Move
		}
		slots, err := m.Game().MustOpen(seat, move)
		if err != nil {
			return WireInput{}, true, fmt.Errorf("referee: own move: %w", err)
		}
		in := WireInput{T: InMove, Move: move}
		var own []engine.Slot
		for _, s := range slots {
			if s.Owner != engine.NoSeat {
				own = append(own, s)
				continue
			}
			b, err := r.openShare(s)
			if err != nil {
				return WireInput{}, true, err
			}
			in.Shares = append(in.Shares, b)
		}
		in.Open, err = r.openAll(own)
		return in, false, err
	case InCommit, InChoose:
		if in, ok := r.keptDecision(st); ok {
			// Made already: sent as a member whose group broke up (a
			// seat taken off the table), or before a crash.
			return in, false, nil
		}
		d, stop, err := r.decide(ctx, st, frames)
		if err != nil || stop {
			return WireInput{}, true, err
		}
		in, err := r.commitDecision(st, d)
		return in, err != nil, err
	case InDeckKey, InShuffle, InUnmask:
		in, err := r.produceDeck(st)
		return in, err != nil, err
	case InRelease:
		in, err := r.produceRelease(st)
		return in, err != nil, err
	}
	return WireInput{}, true, fmt.Errorf("referee: cannot produce %q", st.Kind)
}

// openNeed opens the slots of a NeedOpen: a vector whose every hidden leaf
// is called for goes whole (no paths), the rest one opening each.
func (r *Referee) openNeed(slots []engine.Slot) (WireInput, bool, error) {
	in := WireInput{T: InOpen}
	whole := map[string]bool{}
	var single []engine.Slot
	for _, s := range slots {
		if s.Owner == engine.NoSeat {
			b, err := r.openShare(s)
			if err != nil {
				return WireInput{}, true, err
			}
			in.Shares = append(in.Shares, b)
			continue
		}
		if _, seen := whole[s.Name]; !seen {
			v, ok := r.secrets.Vector(s.Name)
			whole[s.Name] = ok && s.Owner == r.cfg.Seat && r.m.fullyOpenable(s.Owner, s.Name, slots)
			if whole[s.Name] {
				in.Full = append(in.Full, v.Full())
			}
		}
		if !whole[s.Name] {
			single = append(single, s)
		}
	}
	opens, err := r.openAll(single)
	if err != nil {
		return WireInput{}, true, err
	}
	in.Open = opens
	return in, false, nil
}

func (r *Referee) openAll(slots []engine.Slot) ([]Opening, error) {
	out := make([]Opening, len(slots))
	for i, s := range slots {
		o, err := r.secrets.Open(s)
		if err != nil {
			return nil, fmt.Errorf("referee: %w", err)
		}
		out[i] = o
	}
	return out, nil
}

// decide asks the agent, while watching the network: anything that arrives
// now is out of turn. The agent runs on its own goroutine while this one
// handles whatever arrives, so it is shown copies of the game and of the
// seat's secrets: whatever the loop does meanwhile, and whatever the agent
// does with what it was shown, neither reads what the other writes.
func (r *Referee) decide(ctx context.Context, st Step, frames <-chan frame) (engine.Decision, bool, error) {
	a := r.askFor(ctx, st) // asked early (early.go), or now
	cancel, done := a.cancel, a.done
	defer cancel()
	for {
		select {
		case a := <-done:
			if a.err != nil {
				return engine.Decision{}, true, fmt.Errorf("referee: agent: %w", a.err)
			}
			return a.d, false, nil
		case f := <-frames:
			// Nothing may arrive now but a harmless duplicate: anything
			// else is out of turn and stops the match.
			err := r.handleFrame(ctx, f)
			if errors.Is(err, errIgnored) {
				continue
			}
			cancel()
			<-done
			return engine.Decision{}, true, err
		case <-r.claimDue():
			// A claim of this seat's silence, held until now: this seat
			// was silent past its give-up time after all.
			err := r.releaseClaim(ctx)
			if errors.Is(err, errIgnored) {
				continue
			}
			cancel()
			<-done
			return engine.Decision{}, true, err
		case <-ctx.Done():
			return engine.Decision{}, true, ctx.Err()
		}
	}
}

// abandon ends the match with the abandoned forfeit of the seat the match
// waits for, after the transport reported err: the others are gone.
func (r *Referee) abandon(ctx context.Context, err error) error {
	st, _ := r.m.Next()
	return r.close(ctx, CloseAbandoned, st.Seat, engine.Wordsf("connection lost: %v", err))
}

// remote waits for the seat whose turn it is, and checks what it sends.
func (r *Referee) remote(ctx context.Context, st Step, frames <-chan frame) (bool, error) {
	if r.lost != nil {
		return true, r.abandon(ctx, r.lost)
	}
	r.note(Note{Dir: DirWait, OK: true, Need: st.Need, Wait: st.Seat}.WithText(engine.Wordsf("waiting for %s: %s", st.Seat, describe(st.Need))))
	r.askAhead(ctx, st)
	timer := time.NewTimer(r.cfg.Timeout)
	defer timer.Stop()
	linkWasDown, graced := false, false
	answered := r.earlyMember()
	for {
		select {
		case <-answered:
			if a := r.ahead; a != nil && a.ans.err == nil {
				// The seat's early answer is in: the loop sends it as
				// a member at once instead of holding it for its turn.
				return false, nil
			}
			answered = nil // a failed answer is the seat's turn's business
		case f := <-frames:
			err := r.handleFrame(ctx, f)
			if errors.Is(err, errIgnored) {
				continue
			}
			return err != nil || r.res.Closing != nil, err
		case <-r.claimDue():
			err := r.releaseClaim(ctx)
			if errors.Is(err, errIgnored) {
				continue
			}
			return err != nil || r.res.Closing != nil, err
		case <-timer.C:
			if lw, ok := r.cfg.Transport.(LinkWatcher); ok && lw.LinkDown() {
				linkWasDown = true
				timer.Reset(linkPoll)
				continue
			}
			if linkWasDown { // back: the step's time starts again
				linkWasDown = false
				timer.Reset(r.cfg.Timeout)
				continue
			}
			staged, wait, err := r.onSilence(st, &graced)
			switch {
			case err != nil || staged:
				return err != nil, err
			case wait:
				timer.Reset(r.cfg.Timeout)
				continue
			}
			return true, r.close(ctx, CloseTimeout, st.Seat, engine.Wordsf("no message for %s while waiting for its %s", r.cfg.Timeout, st.Kind))
		case <-ctx.Done():
			return true, ctx.Err()
		}
	}
}

var errIgnored = errors.New("frame ignored")

// handleFrame checks and applies one frame from the network. It returns nil
// when the frame was accepted, errIgnored for a harmless duplicate, and nil
// with r.res.Closing set when the match stopped on a violation or a drop.
func (r *Referee) handleFrame(ctx context.Context, f frame) error {
	peerOf := func() string {
		if f.from != "" {
			return f.from
		}
		// In a two-seat match the only other seat is the sender.
		for s, p := range r.m.Header().Players {
			if engine.Seat(s) != r.cfg.Seat {
				return p.Peer
			}
		}
		return ""
	}
	if f.err != nil {
		if ctx.Err() != nil {
			// Our own shutdown, not the other side leaving: the match can
			// be resumed from the transcript and the secrets file.
			return ctx.Err()
		}
		if g, ok := r.seatGone(f.err); ok {
			return r.onGone(g)
		}
		var there *EndedThere
		if errors.As(f.err, &there) && there.Closing != nil {
			err := r.adopt(there.Closing)
			if err == nil {
				return nil
			}
			r.log.Warn("the other side's closing record is refused", "err", err)
			f.err = fmt.Errorf("%w (its closing record is refused: %v)", f.err, err)
		}
		if st, _ := r.m.Next(); st.Seat == r.cfg.Seat {
			// We owe the next message: a forfeit claimed now would be
			// refused (errOwnTurn). Our move goes into our transcript,
			// and the seat that owes the one after it forfeits.
			r.lost = f.err
			r.note(Note{Dir: DirLost, OK: false}.WithText(engine.Wordsf("the other players are gone (%v): make your move, then the forfeit of the player who owes the next one is recorded", f.err)))
			return errIgnored
		}
		return r.abandon(ctx, f.err)
	}
	r.res.BytesRecv += int64(len(f.b))
	e, err := DecodeEnvelope(f.b)
	if err != nil {
		if c := r.vouchedCopy(f.b); c != nil {
			return r.handleEnvelope(ctx, c, len(f.b), peerOf(), f.from != "")
		}
		seat := r.m.Header().Seat(peerOf())
		if r.fromRemoved(seat) {
			return errIgnored
		}
		if c := r.leftFrame(f.b); c != nil {
			return r.onLeft(c)
		}
		if werr := r.cfg.Transcript.Raw(f.b, peerOf()); werr != nil {
			return werr
		}
		r.res.Violation = &Violation{Seat: seat, Peer: peerOf(), Seq: r.m.Seq() + 1, Err: err}
		return r.close(ctx, CloseViolation, seat, engine.WordsOf(err))
	}
	return r.handleEnvelope(ctx, e, len(f.b), peerOf(), f.from != "")
}

// acceptEnvelope checks and applies one decoded envelope; see handleFrame.
func (r *Referee) acceptEnvelope(ctx context.Context, e *Envelope) error {
	evs, err := r.m.Accept(e)
	if errors.Is(err, ErrRepeated) {
		r.log.Debug("duplicate message dropped", "seq", e.Seq)
		return errIgnored
	}
	if werr := r.cfg.Transcript.Envelope(e); werr != nil {
		return werr
	}
	if err != nil {
		var v *Violation
		if !errors.As(err, &v) {
			return fmt.Errorf("referee: %w", err)
		}
		r.res.Violation = v
		return r.close(ctx, CloseViolation, v.Seat, engine.WordsOf(v.Err))
	}
	r.waitStarted()
	if err := r.peekDealt(); err != nil {
		return err
	}
	if r.m.Header().Seat(e.From) == r.cfg.Seat {
		// Our own member, sent at once (referee_member.go), now in its place.
		r.note(Note{Seq: e.Seq, Seat: r.cfg.Seat, Dir: DirOut, OK: true, Text: fmt.Sprintf("message %d (sent at once) takes its place: every check and the state hash agree", e.Seq), Events: evs, State: r.m.StateHash()})
		return nil
	}
	r.res.Received++
	r.note(Note{Seq: e.Seq, Seat: r.m.Header().Seat(e.From), Dir: DirIn, OK: true, Text: fmt.Sprintf("message %d accepted: signature, chain, every check and the state hash agree", e.Seq), Events: evs, State: r.m.StateHash()})
	return nil
}

// flush seals and sends what the local seat has staged.
func (r *Referee) flush(ctx context.Context) error {
	if len(r.staged) == 0 {
		return nil
	}
	r.addPreshares()
	e, err := r.m.Seal(r.cfg.Seat, r.staged, r.cfg.Key)
	if err != nil {
		return err
	}
	inputs := len(r.staged)
	r.staged = nil
	r.waitStarted()
	if err := r.cfg.Transcript.Envelope(e); err != nil {
		return err
	}
	for _, x := range r.cfg.Hooks.envelope(r.m, e, r.cfg.Key) {
		if err := r.send(ctx, x); err != nil {
			return err
		}
	}
	r.note(Note{Seq: e.Seq, Seat: r.cfg.Seat, Dir: DirOut, OK: true, Text: fmt.Sprintf("message %d sent and signed (%d inputs)", e.Seq, inputs), State: r.m.StateHash()})
	return nil
}

// draftStaged signs the staged inputs, which the local engine refused, in
// an envelope under the state hash as it stands, and clears them.
func (r *Referee) draftStaged() (*Envelope, error) {
	e, err := r.m.Draft(r.staged, r.m.StateHash(), r.cfg.Key)
	if err != nil {
		return nil, fmt.Errorf("referee: draft the refused inputs: %w", err)
	}
	r.staged = nil
	return e, nil
}

func (r *Referee) send(ctx context.Context, e *Envelope) error {
	b, err := EncodeEnvelope(e)
	if err != nil {
		return err
	}
	if err := sendEnvelope(ctx, r.cfg.Transport, e.Seq, b); err != nil {
		if r.lost != nil {
			// The others are gone: the message is in our transcript,
			// which is all a forfeit recorded after it needs.
			r.log.Debug("message not sent: the others are gone", "seq", e.Seq, "err", err)
			return nil
		}
		return fmt.Errorf("referee: send message %d: %w", e.Seq, err)
	}
	r.res.Sent++
	r.res.BytesSent += int64(len(b))
	return nil
}

// close ends the match with a signed closing record blaming seat; the
// record's detail is detail's text.
func (r *Referee) close(ctx context.Context, reason CloseReason, seat engine.Seat, detail engine.Words) error {
	seq := r.m.Seq()
	if reason == CloseViolation && r.res.Violation != nil {
		seq = r.res.Violation.Seq
	}
	c := &Closing{Closing: reason, Match: r.m.Header().Match, Seat: int(seat), Seq: seq, Detail: detail.String()}
	if err := c.Sign(r.cfg.Key); err != nil {
		return err
	}
	return r.record(c, engine.Wordsf("match stopped: %s by %s: %s", reason, seat, detail))
}

// adopt ends the match with a closing record another player wrote and
// signed (a forfeit it recorded: it gave up waiting, or saw a seat leave;
// or its own forfeit: it left on purpose), after checking it as the
// auditor will: the transcript then ends with that player's own word
// instead of a rival record of ours. A record dated
// before a message we held when it arrived is refused (notBeforeOurs): our
// transcript would refute it.
func (r *Referee) adopt(c *Closing) error {
	if err := c.Verify(); err != nil {
		return err
	}
	h := r.m.Header()
	if h.Seat(c.By) == r.cfg.Seat {
		return fmt.Errorf("%w: it is signed with our own key", errClosingMisfit)
	}
	if c.Closing == CloseLeft {
		// Its writer's word about itself: it holds at any turn, and the
		// messages of ours after it are ones its writer never received
		// (admissionFits refuses it if any later message is the writer's).
		if _, err := forfeitFits(h, r.m, c); err != nil {
			return err
		}
		return r.record(c, engine.Wordsf("match stopped: %s left the match after message %d (its own signed word): %s",
			engine.Seat(c.Seat), c.Seq, c.Detail))
	}
	if err := notBeforeOurs(r.m, r.cfg.Seat, r.cfg.Transport, r.resumedAt, c); err != nil {
		return err
	}
	next, err := forfeitFits(h, r.m, c)
	if err != nil {
		return err
	}
	if c.Seq == r.m.Seq() && next.Seat != engine.Seat(c.Seat) {
		// A record of our forfeit at a step where the match waited for
		// someone else (its writer, say) is no give-up on us.
		return fmt.Errorf("%w: it blames seat %d while the match waited for seat %d", errClosingMisfit, c.Seat, next.Seat)
	}
	return r.record(c, engine.Wordsf("match stopped: %s recorded %s's forfeit (%s) after message %d: %s",
		h.Seat(c.By), engine.Seat(c.Seat), c.Closing, c.Seq, c.Detail))
}

// record ends the match with the closing record c, signed and checked: it
// writes c to the transcript and keeps it as the result's, gives the match
// to the other seats when c is a forfeit (a violation's outcome is left to
// the audit), and notes the stop with text.
func (r *Referee) record(c *Closing, text engine.Words) error {
	r.res.Closing = c
	if err := r.cfg.Transcript.WriteClosing(c); err != nil {
		return fmt.Errorf("referee: record the %s closing: %w", c.Closing, err)
	}
	blamed := engine.Seat(c.Seat)
	if c.Closing != CloseViolation {
		r.res.Outcome = r.m.forfeitOutcome(blamed, engine.Wordsf("%s forfeits (%s)", blamed, c.Closing))
	}
	r.note(Note{Seq: c.Seq, Seat: blamed, Dir: DirStop, OK: false}.WithText(text))
	return nil
}

func (r *Referee) note(n Note) {
	if r.cfg.Observe == nil {
		return
	}
	if n.Game == nil {
		n.Game = r.m.Game().Clone()
	}
	if n.Secrets == nil {
		n.Secrets = r.secrets.Snapshot()
	}
	if n.State == (Digest{}) {
		n.State = r.m.StateHash()
	}
	r.cfg.Observe(n)
}

// sendFault seals the staged inputs, whose last one our own match refused
// because of another seat's fault (err), records the violation exactly as
// every other peer and the auditor will find it at this message, and sends
// the envelope so that they do.
func (r *Referee) sendFault(ctx context.Context, err error) error {
	inputs := r.staged
	e, derr := r.draftStaged()
	if derr != nil {
		return derr
	}
	v := r.m.refused(r.cfg.Seat, e, len(inputs), inputs[len(inputs)-1], err)
	if err := r.cfg.Transcript.Envelope(e); err != nil {
		return err
	}
	if err := r.send(ctx, e); err != nil {
		return err
	}
	r.res.Violation = v
	return r.close(ctx, CloseViolation, v.Seat, engine.WordsOf(v.Err))
}
