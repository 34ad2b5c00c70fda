package p2p

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/libp2p/go-msgio"
)

// onlyReader hides every interface but io.Reader (no ByteReader fast path).
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

func header(n uint64) []byte { return binary.AppendUvarint(nil, n) }

func TestFrameRoundTrip(t *testing.T) {
	sizes := []int{0, 1, 127, 128, 300, 16383, 16384, 70000, MaxFrame}
	for _, wrap := range []struct {
		name string
		f    func(io.Reader) io.Reader
	}{
		{"plain reader", func(r io.Reader) io.Reader { return onlyReader{r} }},
		{"bufio reader", func(r io.Reader) io.Reader { return bufio.NewReader(r) }},
	} {
		t.Run(wrap.name, func(t *testing.T) {
			var buf bytes.Buffer
			var want [][]byte
			for i, n := range sizes {
				p := bytes.Repeat([]byte{byte(i + 1)}, n)
				want = append(want, p)
				if err := WriteFrame(&buf, p); err != nil {
					t.Fatalf("WriteFrame(%d bytes): %v", n, err)
				}
			}
			buf.WriteString("tail")
			r := wrap.f(&buf)
			for i, w := range want {
				got, err := ReadFrame(r, MaxFrame)
				if err != nil {
					t.Fatalf("frame %d: %v", i, err)
				}
				if got == nil || !bytes.Equal(got, w) {
					t.Fatalf("frame %d: got %d bytes, want %d", i, len(got), len(w))
				}
			}
			rest, _ := io.ReadAll(r)
			if string(rest) != "tail" {
				t.Fatalf("bytes after the frames: %q, want %q", rest, "tail")
			}
		})
	}
}

func TestFrameHeaderIsUvarint(t *testing.T) {
	for _, n := range []int{0, 5, 127, 128, 1 << 14, MaxFrame} {
		var buf bytes.Buffer
		if err := WriteFrame(&buf, make([]byte, n)); err != nil {
			t.Fatal(err)
		}
		h := header(uint64(n))
		if !bytes.Equal(buf.Bytes()[:len(h)], h) || buf.Len() != len(h)+n {
			t.Fatalf("n=%d: frame starts %x, len %d; want header %x and len %d", n, buf.Bytes()[:len(h)], buf.Len(), h, len(h)+n)
		}
	}
}

func TestFrameMsgioCompatible(t *testing.T) {
	payloads := [][]byte{[]byte("a"), bytes.Repeat([]byte("xy"), 200), []byte(`{"k":1}`)}
	t.Run("msgio writes, ReadFrame reads", func(t *testing.T) {
		var buf bytes.Buffer
		w := msgio.NewVarintWriter(&buf)
		for _, p := range payloads {
			if err := w.WriteMsg(p); err != nil {
				t.Fatal(err)
			}
		}
		for i, p := range payloads {
			got, err := ReadFrame(&buf, MaxFrame)
			if err != nil || !bytes.Equal(got, p) {
				t.Fatalf("frame %d: %q, %v; want %q", i, got, err, p)
			}
		}
	})
	t.Run("WriteFrame writes, msgio reads", func(t *testing.T) {
		var buf bytes.Buffer
		for _, p := range payloads {
			if err := WriteFrame(&buf, p); err != nil {
				t.Fatal(err)
			}
		}
		r := msgio.NewVarintReaderSize(&buf, MaxFrame)
		for i, p := range payloads {
			got, err := r.ReadMsg()
			if err != nil || !bytes.Equal(got, p) {
				t.Fatalf("frame %d: %q, %v; want %q", i, got, err, p)
			}
		}
	})
}

func TestWriteFrameTooLarge(t *testing.T) {
	var buf bytes.Buffer
	err := WriteFrame(&buf, make([]byte, MaxFrame+1))
	if !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("err = %v, want ErrFrameTooLarge", err)
	}
	if buf.Len() != 0 {
		t.Fatalf("%d bytes written for a refused frame", buf.Len())
	}
}

func TestReadFrameErrors(t *testing.T) {
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	tests := []struct {
		name string
		in   []byte
		max  int
		want error
	}{
		{"clean end before a frame", nil, MaxFrame, io.EOF},
		{"length over MaxFrame", header(MaxFrame + 1), MaxFrame, ErrFrameTooLarge},
		{"length over the caller's limit", cat(header(11), make([]byte, 11)), 10, ErrFrameTooLarge},
		{"limit above MaxFrame is capped", header(MaxFrame + 1), 1 << 30, ErrFrameTooLarge},
		{"zero limit means MaxFrame", header(MaxFrame + 1), 0, ErrFrameTooLarge},
		{"huge length", header(1 << 62), MaxFrame, ErrFrameTooLarge},
		{"end inside the length", []byte{0x80}, MaxFrame, ErrTruncatedFrame},
		{"end inside the length, 3 bytes", []byte{0xff, 0xff, 0x80}, MaxFrame, ErrTruncatedFrame},
		{"end inside the body", cat(header(10), []byte("abc")), MaxFrame, ErrTruncatedFrame},
		{"end right after the length", header(10), MaxFrame, ErrTruncatedFrame},
		{"non-minimal length", []byte{0x81, 0x00, 'x'}, MaxFrame, ErrMalformedFrame},
		{"non-minimal zero", []byte{0x80, 0x00}, MaxFrame, ErrMalformedFrame},
		{"length over 64 bits", bytes.Repeat([]byte{0xff}, 10), MaxFrame, ErrMalformedFrame},
		{"eleven continuation bytes", bytes.Repeat([]byte{0x80}, 11), MaxFrame, ErrMalformedFrame},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range []io.Reader{onlyReader{bytes.NewReader(tc.in)}, bufio.NewReader(bytes.NewReader(tc.in))} {
				got, err := ReadFrame(r, tc.max)
				if !errors.Is(err, tc.want) {
					t.Fatalf("%T: err = %v, want %v", r, err, tc.want)
				}
				if tc.want == io.EOF && err != io.EOF {
					t.Fatalf("%T: clean end must be io.EOF itself, got %v", r, err)
				}
				if got != nil {
					t.Fatalf("%T: payload %q returned with an error", r, got)
				}
			}
		})
	}
}

// FuzzReadFrame feeds arbitrary bytes to ReadFrame with a small limit: it
// must never panic, never return more than the limit, and whatever it
// accepts must be exactly what WriteFrame would have written.
func FuzzReadFrame(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte{3, 'a', 'b', 'c'})
	f.Add([]byte{0x80, 0x01})
	f.Add([]byte{0x81, 0x00})
	f.Add(bytes.Repeat([]byte{0xff}, 12))
	f.Add(append(header(300), make([]byte, 300)...))
	f.Fuzz(func(t *testing.T, in []byte) {
		const limit = 512
		r := bytes.NewReader(in)
		p, err := ReadFrame(onlyReader{r}, limit)
		if err != nil {
			if p != nil {
				t.Fatalf("payload with error %v", err)
			}
			if !errors.Is(err, io.EOF) && !errors.Is(err, ErrFrameTooLarge) &&
				!errors.Is(err, ErrTruncatedFrame) && !errors.Is(err, ErrMalformedFrame) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		if len(p) > limit {
			t.Fatalf("%d bytes over limit %d", len(p), limit)
		}
		var buf bytes.Buffer
		if err := WriteFrame(&buf, p); err != nil {
			t.Fatal(err)
		}
		used := len(in) - r.Len()
		if !bytes.Equal(buf.Bytes(), in[:used]) {
			t.Fatalf("accepted %x, canonical encoding %x", in[:used], buf.Bytes())
		}
	})
}
