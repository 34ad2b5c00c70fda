package ubuild

import "github.com/salvo-game/salvo/engine"

// quickFire and quickAnswer decode an honest volley and its answer
// straight into cells, ships and results, reading the move's names where
// they stand instead of a string for each (issue 15: decoding every move
// twice, for MustOpen and for Apply, with a string per cell, result and
// ship was a quarter of a U-Build audit's allocations). They read with the
// same MoveReader as readFire and readAnswer, so the same JSON, and take a
// move only when decodeFire and DecodeAnswer would accept it as it is
// parsed here; any other move, and every error, is theirs
// (FuzzQuickMoves holds them to it).

// quickFire is decodeFire for a well-formed volley, or false.
func quickFire(b []byte) (fire, bool) {
	var shots [MaxWeapons]Cell
	n, ship, valid := 0, NoShip, true
	var seen mask
	_, ok := engine.ReadMove(b, func(r *engine.MoveReader, _ *struct{}) {
		r.Object(func(key []byte) {
			switch string(key) {
			case "ship":
				if name := r.Bytes(); len(name) > 0 {
					ship, valid = shipOf(name, valid)
				}
			case "shots":
				if engine.List(r, func(r *engine.MoveReader) (none struct{}) {
					c, fault := parseCell(r.Bytes())
					if fault != cellOK || n == MaxWeapons || seen.has(c) {
						valid = false
						return none
					}
					seen.set(c)
					shots[n], n = c, n+1
					return none
				}) == nil {
					valid = false // null: no shots
				}
			default:
				r.Fail()
			}
		})
	})
	if !ok || !valid || n == 0 {
		return fire{}, false
	}
	return fire{ship: ship, shots: append([]Cell(nil), shots[:n]...)}, true
}

// shipOf returns the ship a move names, and valid unless it names none.
func shipOf(name []byte, valid bool) (Ship, bool) {
	s, ok := shipByKey(name)
	return s, valid && ok
}

// quickAnswer is DecodeAnswer for a well-formed answer, or false.
func quickAnswer(b []byte) ([]Report, bool) {
	var rs [MaxWeapons]Report
	n, valid, listed := 0, true, false
	_, ok := engine.ReadMove(b, func(r *engine.MoveReader, _ *struct{}) {
		r.Object(func(key []byte) {
			if string(key) != "results" {
				r.Fail()
				return
			}
			listed = engine.List(r, func(r *engine.MoveReader) (none struct{}) {
				rep, good := readReport(r)
				if !good || n == MaxWeapons {
					valid = false
					return none
				}
				rs[n], n = rep, n+1
				return none
			}) != nil
		})
	})
	if !ok || !valid || !listed || n == 0 {
		return nil, false
	}
	return append([]Report(nil), rs[:n]...), true
}

// readReport reads one result of an answer as DecodeAnswer parses it: a
// cell, a result, and a ship named exactly for hit and sunk.
func readReport(r *engine.MoveReader) (Report, bool) {
	var cell, result, ship []byte
	r.Object(func(key []byte) {
		switch string(key) {
		case "cell":
			cell = r.Bytes()
		case "result":
			result = r.Bytes()
		case "ship":
			ship = r.Bytes()
		default:
			r.Fail()
		}
	})
	c, fault := parseCell(cell)
	res, ok := parseResult(result)
	if fault != cellOK || !ok {
		return Report{}, false
	}
	if res == Miss {
		return Report{Cell: c, Result: Miss, Ship: NoShip}, len(ship) == 0
	}
	s, ok := shipByKey(ship)
	return Report{Cell: c, Result: res, Ship: s}, ok
}
