package watch

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Follow passes on whole lines only, in order, however the writer's bytes
// arrive (half a line, a line longer than the reader's buffer), and ends
// the record with what the file holds when it is stopped.
func TestFollowTakesWholeLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	long := bytes.Repeat([]byte("x"), 10_000)
	rec := NewRecord()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		Follow(path, rec, stop)
	}()
	write := func(s []byte) {
		if _, err := f.Write(s); err != nil {
			t.Fatal(err)
		}
		time.Sleep(3 * FollowPoll)
	}
	write([]byte("{\"salvo\":1}\n{\"ma"))
	if n, _ := rec.Len(); n != 1 {
		t.Fatalf("%d lines after one whole line and half of the next", n)
	}
	write([]byte("tch\":2}\n"))
	write(long[:5000])
	write(append(long[5000:], '\n'))
	write([]byte("{\"closing\":3}\n{\"unfinished"))
	close(stop)
	<-done
	want := [][]byte{[]byte(`{"salvo":1}`), []byte(`{"match":2}`), long, []byte(`{"closing":3}`)}
	got := rec.Lines()
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("line %d: %.40q, want %.40q", i+1, got[i], want[i])
		}
	}
	if _, err := rec.Line(context.Background(), 5); err == nil {
		t.Fatal("the record did not end")
	}
}
