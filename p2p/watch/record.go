package watch

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"time"
)

// Record is a match's record as one peer holds it: its lines in order
// (line 1 is the header), growing as the match goes on, until End says no
// more will come. A player's comes from its transcript file (Follow); a
// spectator's holds only lines it has verified. Readers wait on it for the
// next line; it is safe for concurrent use.
type Record struct {
	mu    sync.Mutex
	lines [][]byte
	ended bool
	grew  chan struct{} // closed, and replaced, at each change
}

// NewRecord returns an empty record.
func NewRecord() *Record { return &Record{grew: make(chan struct{})} }

// Append adds the next line (a copy of b, without its newline).
func (r *Record) Append(b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended {
		return
	}
	r.lines = append(r.lines, append([]byte(nil), b...))
	r.signal()
}

// End marks the record complete: readers past its last line get io.EOF.
func (r *Record) End() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ended {
		r.ended = true
		r.signal()
	}
}

func (r *Record) signal() {
	close(r.grew)
	r.grew = make(chan struct{})
}

// Len returns how many lines the record holds, and whether it has ended.
func (r *Record) Len() (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.lines), r.ended
}

// Lines returns a copy of the record's lines so far.
func (r *Record) Lines() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]byte(nil), r.lines...)
}

// Line returns line n (1-based), waiting until the record holds it; io.EOF
// when the record ended before it.
func (r *Record) Line(ctx context.Context, n int) ([]byte, error) {
	for {
		r.mu.Lock()
		if n >= 1 && n <= len(r.lines) {
			b := r.lines[n-1]
			r.mu.Unlock()
			return b, nil
		}
		ended, grew := r.ended, r.grew
		r.mu.Unlock()
		if ended {
			return nil, io.EOF
		}
		select {
		case <-grew:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// FollowPoll is how often Follow looks for new lines in a transcript file.
// The referee syncs each line before the match moves on, so a spectator
// sees a message at most this long after a player accepted it.
const FollowPoll = 20 * time.Millisecond

// Follow copies the whole lines of the transcript file at path into rec
// as they are written, until stop is closed; then it takes what is left
// and ends rec. A line still being written (no newline yet) waits for the
// next look. It returns when rec has ended.
func Follow(path string, rec *Record, stop <-chan struct{}) {
	defer rec.End()
	var off int64
	var partial []byte
	for {
		stopping := false
		select {
		case <-stop:
			stopping = true
		default:
		}
		var err error
		off, partial, err = readLines(path, off, partial, rec)
		if stopping || (err != nil && !errors.Is(err, os.ErrNotExist)) {
			return
		}
		select {
		case <-stop:
		case <-time.After(FollowPoll):
		}
	}
}

// readLines appends to rec the whole lines of the file at path from
// offset off (partial: the start of a line read before without its
// newline), and returns the new offset and the unfinished line.
func readLines(path string, off int64, partial []byte, rec *Record) (int64, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return off, partial, err
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return off, partial, err
	}
	br := bufio.NewReader(f)
	for {
		b, err := br.ReadSlice('\n')
		off += int64(len(b))
		switch {
		case err == nil:
			line := append(partial, b[:len(b)-1]...)
			partial = nil
			if len(line) > 0 {
				rec.Append(line)
			}
		case errors.Is(err, bufio.ErrBufferFull):
			partial = append(partial, b...)
		default:
			partial = append(partial, b...)
			if errors.Is(err, io.EOF) {
				return off, partial, nil
			}
			return off, partial, err
		}
	}
}
