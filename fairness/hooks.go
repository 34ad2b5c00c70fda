package fairness

import (
	"context"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// Hooks are the seams through which a peer departs from the protocol on
// purpose: the cheating peers of package fairness/cheat, shipped for
// practice (a bot that cheats, for a player to watch being caught) and for
// the tests that show every check at work. An honest referee runs with
// none (Config.Hooks nil), and every field may be nil. They change only
// what the local seat sends; what arrives is checked as always.
type Hooks struct {
	// Input may change an input the referee produced honestly for the
	// local seat (sec holds the seat's secrets) before it is staged.
	Input func(m *Match, sec *Secrets, st Step, in *WireInput)
	// Envelope returns what to send in place of e, an envelope the
	// referee sealed and wrote to its transcript: e itself, changed or
	// not, and possibly more.
	Envelope func(m *Match, e *Envelope, key crypto.PrivKey) []*Envelope
	// Refused is asked when the local engine refuses the local seat's own
	// input: true sends it all the same, with what was staged before it,
	// signed under the state as it stands, and ends the referee's part
	// (see Done); false keeps the honest course.
	Refused func(st Step, err error) bool
	// Done is asked before the referee waits for another seat: true ends
	// its part there, as a peer that has sent what it meant to and hangs up.
	Done func() bool
}

func (h *Hooks) input(m *Match, sec *Secrets, st Step, in *WireInput) {
	if h != nil && h.Input != nil {
		h.Input(m, sec, st, in)
	}
}

func (h *Hooks) envelope(m *Match, e *Envelope, key crypto.PrivKey) []*Envelope {
	if h == nil || h.Envelope == nil {
		return []*Envelope{e}
	}
	return h.Envelope(m, e, key)
}

func (h *Hooks) refused(st Step, err error) bool {
	return h != nil && h.Refused != nil && h.Refused(st, err)
}

func (h *Hooks) done() bool {
	return h != nil && h.Done != nil && h.Done()
}

// sendRefused sends the staged inputs, which the local engine refused, in
// an envelope under the state hash as it stands (Hooks.Refused).
func (r *Referee) sendRefused(ctx context.Context) error {
	e, err := r.draftStaged()
	if err != nil {
		return err
	}
	return r.send(ctx, e)
}

// lingerFor is how long a referee whose part ended early (Hooks) waits
// for the others to answer before it returns and its caller hangs up.
const lingerFor = 5 * time.Second

// linger gives the others a moment to read what was sent before a peer
// whose part ended early hangs up.
//
// An envelope of the match is no answer: the others' members of a parallel
// group (parallel.go) go out at once, whatever this peer did, and a peer
// gone silent on purpose must not hang up on them (its silence would read
// as a lost link, not as the timeout it is).
func (r *Referee) linger(ctx context.Context, frames <-chan frame) {
	t := time.NewTimer(lingerFor)
	defer t.Stop()
	for {
		select {
		case f := <-frames:
			if e, err := DecodeEnvelope(f.b); f.err == nil && err == nil && e.Match == r.m.Header().Match {
				continue
			}
		case <-t.C:
		case <-ctx.Done():
		}
		return
	}
}
