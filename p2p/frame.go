package p2p

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	pool "github.com/libp2p/go-buffer-pool"
)

// Frame errors. ReadFrame and Conn.Recv wrap them with details.
var (
	// ErrFrameTooLarge means a frame's length is over the limit.
	ErrFrameTooLarge = errors.New("frame too large")
	// ErrTruncatedFrame means the stream ended inside a frame.
	ErrTruncatedFrame = errors.New("truncated frame")
	// ErrMalformedFrame means a frame's length prefix is not a minimal
	// unsigned varint of at most 64 bits.
	ErrMalformedFrame = errors.New("malformed frame length")
)

// WriteFrame writes p to w as one frame: its length as an unsigned varint,
// then the bytes, in a single Write call. Frames over MaxFrame are refused
// before anything is written.
func WriteFrame(w io.Writer, p []byte) error {
	if _, err := writeFrame(w, p); err != nil {
		return fmt.Errorf("p2p: %w", err)
	}
	return nil
}

// writeFrame is WriteFrame with errors not yet prefixed by the package; it
// also reports how many bytes the writer took.
func writeFrame(w io.Writer, p []byte) (int, error) {
	if len(p) > MaxFrame {
		return 0, fmt.Errorf("write frame: %w: %d bytes, limit %d", ErrFrameTooLarge, len(p), MaxFrame)
	}
	// One Write per frame (one muxer frame on a stream) from a pooled
	// buffer; io.Writer implementations must not keep it.
	buf := pool.Get(binary.MaxVarintLen64 + len(p))
	defer pool.Put(buf)
	n := binary.PutUvarint(buf, uint64(len(p)))
	n += copy(buf[n:], p)
	written, err := w.Write(buf[:n])
	if err != nil {
		return written, fmt.Errorf("write frame of %d bytes: %w", len(p), err)
	}
	return written, nil
}

// ReadFrame reads one frame from r and returns its payload (never nil,
// empty for an empty frame). A frame longer than max is refused before its
// payload is read or allocated, and the payload's buffer grows only as its
// bytes arrive (at most frameChunk ahead of them); max is capped at MaxFrame, and max <= 0
// means MaxFrame. A stream that ends cleanly before the first byte of a
// frame gives io.EOF itself; ending anywhere inside a frame gives
// ErrTruncatedFrame; a length that is not a minimal varint gives
// ErrMalformedFrame. When r is an io.ByteReader (a *bufio.Reader, say) the
// length is read through it; otherwise it is read one byte at a time, so
// no byte after the frame is consumed.
func ReadFrame(r io.Reader, max int) ([]byte, error) {
	p, err := readFrame(r, max)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	return p, err
}

// readFrame is ReadFrame with errors not yet prefixed by the package.
func readFrame(r io.Reader, max int) ([]byte, error) {
	if max <= 0 || max > MaxFrame {
		max = MaxFrame
	}
	br, ok := r.(io.ByteReader)
	if !ok {
		br = &oneByteReader{r: r}
	}
	n, err := readLength(br)
	if err != nil {
		return nil, err
	}
	if n > uint64(max) {
		return nil, fmt.Errorf("read frame: %w: %d bytes, limit %d", ErrFrameTooLarge, n, max)
	}
	return readBody(r, int(n))
}

// frameChunk is the most a frame's buffer holds before its bytes arrive:
// the buffer starts at min(length, frameChunk) and doubles as it fills, so
// a peer that announces a large frame and then sends nothing (or drips it)
// costs this much, not the announced length.
const frameChunk = 64 << 10

// readBody reads the n bytes of a frame's payload, growing the buffer only
// as they arrive (see frameChunk).
func readBody(r io.Reader, n int) ([]byte, error) {
	p := make([]byte, 0, min(n, frameChunk))
	for {
		// Never past n: Grow may round the capacity up, and bytes after the
		// frame belong to the next one.
		got, err := io.ReadFull(r, p[len(p):min(cap(p), n)])
		p = p[:len(p)+got]
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return nil, fmt.Errorf("read frame: %w: got %d of %d bytes", ErrTruncatedFrame, len(p), n)
			}
			return nil, fmt.Errorf("read frame body (%d of %d bytes): %w", len(p), n, err)
		}
		if len(p) == n {
			return p, nil
		}
		p = slices.Grow(p, min(n, 2*len(p))-len(p))
	}
}

// readLength reads a minimal unsigned varint of at most 64 bits.
func readLength(br io.ByteReader) (uint64, error) {
	var x uint64
	for i := 0; i < binary.MaxVarintLen64; i++ {
		b, err := br.ReadByte()
		if err != nil {
			if i == 0 && errors.Is(err, io.EOF) {
				return 0, io.EOF
			}
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return 0, fmt.Errorf("read frame: %w: stream ended inside the length", ErrTruncatedFrame)
			}
			return 0, fmt.Errorf("read frame length: %w", err)
		}
		if i == binary.MaxVarintLen64-1 && b > 1 {
			return 0, fmt.Errorf("read frame: %w: over 64 bits", ErrMalformedFrame)
		}
		x |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			if b == 0 && i > 0 {
				return 0, fmt.Errorf("read frame: %w: not minimally encoded", ErrMalformedFrame)
			}
			return x, nil
		}
	}
	return 0, fmt.Errorf("read frame: %w: over 64 bits", ErrMalformedFrame)
}

// oneByteReader reads single bytes straight from r, buffering nothing.
type oneByteReader struct {
	r   io.Reader
	buf [1]byte
}

// ReadByte reads one byte; io.ErrUnexpectedEOF is never produced here, a
// clean end gives io.EOF.
func (o *oneByteReader) ReadByte() (byte, error) {
	if _, err := io.ReadFull(o.r, o.buf[:]); err != nil {
		return 0, err
	}
	return o.buf[0], nil
}
