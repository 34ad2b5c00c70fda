package fairness

import "context"

// SeqTransport is a Transport that keeps what it sends by sequence number
// (a transport that reconnects sends the messages the other side missed
// again): the referee hands it each envelope's seq with the encoded
// envelope, so that nothing decodes what was just encoded. Frames it is
// given through Send carry no envelope.
type SeqTransport interface {
	Transport
	SendSeq(ctx context.Context, seq uint64, frame []byte) error
}

// sendEnvelope sends the encoded envelope b, numbered seq, on t.
func sendEnvelope(ctx context.Context, t Transport, seq uint64, b []byte) error {
	if st, ok := t.(SeqTransport); ok {
		return st.SendSeq(ctx, seq, b)
	}
	return t.Send(ctx, b)
}
