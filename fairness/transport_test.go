package fairness

import (
	"context"
	"testing"
)

type seqRecorder struct {
	seqs  []uint64
	plain int
}

func (s *seqRecorder) Send(context.Context, []byte) error   { s.plain++; return nil }
func (s *seqRecorder) Recv(context.Context) ([]byte, error) { return nil, nil }
func (s *seqRecorder) SendSeq(_ context.Context, seq uint64, _ []byte) error {
	s.seqs = append(s.seqs, seq)
	return nil
}

// A transport that keeps what it sends by number is told each envelope's
// seq by the referee of a whole match, in order, and never has to decode
// a frame to learn it.
func TestTransportIsToldTheSeq(t *testing.T) {
	out := playPeekWith(t, 3, func(tr Transport) Transport { return &seqTap{Transport: tr, t: t} })
	for s, o := range out {
		if o.err != nil || o.res.Violation != nil || !o.res.Outcome.Done {
			t.Fatalf("seat %d: %v %+v", s, o.err, o.res)
		}
	}
	var plain seqRecorder
	if err := sendEnvelope(context.Background(), struct{ Transport }{&plain}, 4, nil); err != nil || plain.plain != 1 {
		t.Fatalf("a plain transport: %v, %d sends", err, plain.plain)
	}
}

// seqTap checks every envelope it is told the seq of against the frame.
type seqTap struct {
	Transport
	t    *testing.T
	last uint64
}

func (s *seqTap) SendSeq(ctx context.Context, seq uint64, b []byte) error {
	e, err := DecodeEnvelope(b)
	if err != nil || e.Seq != seq || seq <= s.last {
		s.t.Errorf("told seq %d (after %d) for envelope %d (%v)", seq, s.last, e.Seq, err)
	}
	s.last = seq
	return s.Transport.Send(ctx, b)
}
