package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// record is a match transcript in the data directory, audited.
type record struct {
	path     string
	when     time.Time
	game     string
	opponent string
	result   string // "won", "lost", "draw" or "—"
	verdict  fairness.Verdict
	err      error
}

// loadRecords audits the n newest transcripts of dir.
func loadRecords(dir string, self peer.ID, n int) []record {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, file{filepath.Join(dir, e.Name()), info.ModTime()})
	}
	slices.SortFunc(files, func(a, b file) int { return b.mod.Compare(a.mod) })
	if len(files) > n {
		files = files[:n]
	}
	out := make([]record, 0, len(files))
	for _, f := range files {
		out = append(out, auditRecord(f.path, f.mod, self))
	}
	return out
}

func auditRecord(path string, mod time.Time, self peer.ID) record {
	r := record{path: path, when: mod, result: "—"}
	rep, err := fairness.AuditFile(path, games.Spec)
	if err != nil {
		r.err = err
		return r
	}
	h := rep.Header
	r.verdict = rep.Verdict
	if e, ok := games.Lookup(h.Game); ok {
		r.game = shortTitle(e.Spec.Title)
	} else {
		r.game = h.Game
	}
	me := h.Seat(self.String())
	for s, p := range h.Players {
		if engine.Seat(s) != me {
			r.opponent = p.Name
		}
	}
	o := rep.Outcome
	switch {
	case rep.Verdict == fairness.Violated && rep.Violation != nil && rep.Violation.Seat != me:
		r.result = "caught"
	case rep.Verdict == fairness.Violated:
		r.result = "stopped"
	case !o.Done:
	case o.Draw:
		r.result = "draw"
	case me != engine.NoSeat && slices.Contains(o.Winners, me):
		r.result = "won"
	case me != engine.NoSeat:
		r.result = "lost"
	}
	return r
}
