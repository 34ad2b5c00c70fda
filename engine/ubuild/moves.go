package ubuild

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// Fire is an attacker's move: the ship that fires and its shots, such as
// {"ship":"battleship","shots":["C-2","C-4"]}. In the classic variant Ship is
// empty and there is exactly one shot.
type Fire struct {
	Ship  string   `json:"ship,omitempty"`
	Shots []string `json:"shots"`
}

// Answer is a defender's answer to a volley: one result per shot, in shot
// order.
type Answer struct {
	Results []ShotReport `json:"results"`
}

// ShotReport is the answer to one shot: its cell, "miss", "hit" or "sunk",
// and the ship hit (empty for a miss).
type ShotReport struct {
	Cell   string `json:"cell"`
	Result string `json:"result"`
	Ship   string `json:"ship,omitempty"`
}

// Result is the outcome of one shot.
type Result uint8

// The results of a shot; Unshot marks a cell nobody has called.
const (
	Unshot Result = iota
	Miss
	Hit
	Sunk
)

var resultNames = [...]string{"", "miss", "hit", "sunk"}

// String returns the result as in answers ("miss", "hit", "sunk"), or "" for
// Unshot.
func (r Result) String() string {
	if int(r) < len(resultNames) {
		return resultNames[r]
	}
	return fmt.Sprintf("result(%d)", uint8(r))
}

// parseResult reads a result name of an answer.
func parseResult[T string | []byte](s T) (Result, bool) {
	switch string(s) {
	case "miss":
		return Miss, true
	case "hit":
		return Hit, true
	case "sunk":
		return Sunk, true
	}
	return Unshot, false
}

// fire is a decoded and parsed Fire move.
type fire struct {
	ship  Ship
	shots []Cell
}

// DecodeFire decodes a Fire move strictly and parses its ship and cells. It
// checks the form only (a known ship name, well-formed distinct coordinates,
// at least one shot, at most MaxWeapons); the rules of the turn are checked
// by Apply. Errors wrap [engine.ErrIllegal].
func DecodeFire(b []byte) (Ship, []Cell, error) {
	f, err := decodeFire(b)
	return f.ship, f.shots, err
}

func decodeFire(b []byte) (fire, error) {
	if f, ok := quickFire(b); ok {
		return f, nil
	}
	return readFireMove(b)
}

// readFireMove is decodeFire for any move: it decodes the Fire, then
// parses its fields, and says what is wrong.
func readFireMove(b []byte) (fire, error) {
	var m Fire
	if err := engine.DecodeMoveWith(b, &m, readFire); err != nil {
		return fire{}, fmt.Errorf("fire: %w", err)
	}
	f := fire{ship: NoShip}
	if m.Ship != "" {
		s, ok := ShipByKey(m.Ship)
		if !ok {
			return fire{}, engine.Illegal("fire: unknown ship %q", m.Ship)
		}
		f.ship = s
	}
	if len(m.Shots) == 0 {
		return fire{}, engine.Illegal("fire: no shots")
	}
	if len(m.Shots) > MaxWeapons {
		return fire{}, engine.Illegal("fire: %d shots, more than any ship has weapons (%d)", len(m.Shots), MaxWeapons)
	}
	var seen mask
	for _, t := range m.Shots {
		c, err := ParseCell(t)
		if err != nil {
			return fire{}, fmt.Errorf("fire: %w", err)
		}
		if seen.has(c) {
			return fire{}, engine.Illegal("fire: %s called twice in one volley", c)
		}
		seen.set(c)
		f.shots = append(f.shots, c)
	}
	return f, nil
}

// readFire and readAnswer read a move's fields as encoding/json sets them
// (the fast path of decoding; FuzzReadMove holds them to
// engine.DecodeMove).
func readFire(r *engine.MoveReader, m *Fire) {
	r.Object(func(key []byte) {
		switch string(key) {
		case "ship":
			m.Ship = r.String()
		case "shots":
			m.Shots = engine.List(r, engine.ReadString)
		default:
			r.Fail()
		}
	})
}

func readAnswer(r *engine.MoveReader, m *Answer) {
	r.Object(func(key []byte) {
		if string(key) != "results" {
			r.Fail()
			return
		}
		m.Results = engine.List(r, readShotReport)
	})
}

func readShotReport(r *engine.MoveReader) ShotReport {
	var s ShotReport
	r.Object(func(key []byte) {
		switch string(key) {
		case "cell":
			s.Cell = r.String()
		case "result":
			s.Result = r.String()
		case "ship":
			s.Ship = r.String()
		default:
			r.Fail()
		}
	})
	return s
}

// DecodeAnswer decodes an Answer strictly and parses its cells, results and
// ships. It checks the form only (known names; a ship named exactly for hit
// and sunk); Apply checks the claims against the opened cells. Errors wrap
// [engine.ErrIllegal].
func DecodeAnswer(b []byte) ([]Report, error) {
	if rs, ok := quickAnswer(b); ok {
		return rs, nil
	}
	return readAnswerMove(b)
}

// readAnswerMove is DecodeAnswer for any move: it decodes the Answer,
// then parses its results, and says what is wrong.
func readAnswerMove(b []byte) ([]Report, error) {
	var m Answer
	if err := engine.DecodeMoveWith(b, &m, readAnswer); err != nil {
		return nil, fmt.Errorf("answer: %w", err)
	}
	if len(m.Results) == 0 || len(m.Results) > MaxWeapons {
		return nil, engine.Illegal("answer: %d results, want 1-%d", len(m.Results), MaxWeapons)
	}
	out := make([]Report, len(m.Results))
	for i, sr := range m.Results {
		c, err := ParseCell(sr.Cell)
		if err != nil {
			return nil, fmt.Errorf("answer: result %d: %w", i+1, err)
		}
		res, ok := parseResult(sr.Result)
		if !ok {
			return nil, engine.Illegal("answer: result %d: unknown result %q", i+1, sr.Result)
		}
		sh := NoShip
		switch {
		case res == Miss && sr.Ship != "":
			return nil, engine.Illegal("answer: result %d: a miss names ship %q", i+1, sr.Ship)
		case res != Miss:
			s, ok := ShipByKey(sr.Ship)
			if !ok {
				return nil, engine.Illegal("answer: result %d: %s must name a known ship, not %q", i+1, res, sr.Ship)
			}
			sh = s
		}
		out[i] = Report{Cell: c, Result: res, Ship: sh}
	}
	return out, nil
}

// Report is the answer to one shot, as the engine records it.
type Report struct {
	Cell   Cell
	Result Result
	Ship   Ship // NoShip for a miss
}

// encodeAnswer writes reports as an Answer move.
func encodeAnswer(rs []Report) ([]byte, error) {
	a := Answer{Results: make([]ShotReport, len(rs))}
	for i, r := range rs {
		a.Results[i] = ShotReport{Cell: r.Cell.String(), Result: r.Result.String(), Ship: r.Ship.Key()}
	}
	return engine.EncodeMove(a)
}

// EncodeFire writes a Fire move for ship (NoShip in the classic variant) and
// shots.
func EncodeFire(ship Ship, shots []Cell) ([]byte, error) {
	f := Fire{Ship: ship.Key(), Shots: make([]string, len(shots))}
	for i, c := range shots {
		f.Shots[i] = c.String()
	}
	return engine.EncodeMove(f)
}
