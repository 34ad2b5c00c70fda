// Package keys declares key bindings once, so that the same table both
// handles the keys and draws the key-hint bar and the help: a hint can never
// name a key that does nothing, nor miss one that does something.
package keys

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// Key is one key a binding answers: a special key, or a character (Key is
// then tcell.KeyRune).
type Key struct {
	Key  tcell.Key
	Rune rune
}

// R returns the key that types r.
func R(r rune) Key { return Key{Key: tcell.KeyRune, Rune: r} }

// K returns a special key, such as tcell.KeyEnter.
func K(k tcell.Key) Key { return Key{Key: k} }

// Matches reports whether ev is this key.
func (k Key) Matches(ev *tcell.EventKey) bool {
	if ev.Key() != k.Key {
		return false
	}
	return k.Key != tcell.KeyRune || ev.Rune() == k.Rune
}

// Binding is one action of a view: the keys that run it, how the hint bar
// names it, and a sentence for the full help.
type Binding struct {
	Keys   []Key
	Label  string // the keys as shown: "enter", "←↑↓→", "space"
	Hint   string // the action in a word or two: "fire"
	Help   string // one sentence for the ? help
	Hidden bool   // left out of the hint bar (still active, still in the help)
	Pin    bool   // always shown, at the end of the hint bar (help, quit)
	Run    func()
}

// Matches reports whether ev is one of the binding's keys.
func (b Binding) Matches(ev *tcell.EventKey) bool {
	for _, k := range b.Keys {
		if k.Matches(ev) {
			return true
		}
	}
	return false
}

// Dispatch runs the first binding that ev matches and reports whether there
// was one.
func Dispatch(bs []Binding, ev *tcell.EventKey) bool {
	for _, b := range bs {
		if b.Run != nil && b.Matches(ev) {
			b.Run()
			return true
		}
	}
	return false
}

// Find returns the first binding that ev matches.
func Find(bs []Binding, ev *tcell.EventKey) (Binding, bool) {
	for _, b := range bs {
		if b.Matches(ev) {
			return b, true
		}
	}
	return Binding{}, false
}

// Bound is implemented by views that declare the keys they handle now.
type Bound interface {
	Bindings() []Binding
}

// Merge concatenates binding lists; when two bindings share a key, the
// earlier one wins and the later one loses that key (and is dropped when it
// has none left), so that a view's keys shadow the screen's.
func Merge(lists ...[]Binding) []Binding {
	var out []Binding
	taken := map[Key]bool{}
	for _, l := range lists {
		for _, b := range l {
			var ks []Key
			for _, k := range b.Keys {
				if !taken[k] {
					ks = append(ks, k)
				}
			}
			if len(ks) == 0 {
				continue
			}
			for _, k := range ks {
				taken[k] = true
			}
			b.Keys = ks
			out = append(out, b)
		}
	}
	return out
}

// Filter returns the bindings whose label, hint or help contains query
// (case-insensitive).
func Filter(bs []Binding, query string) []Binding {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return bs
	}
	var out []Binding
	for _, b := range bs {
		if strings.Contains(strings.ToLower(b.Label+" "+b.Hint+" "+b.Help), q) {
			out = append(out, b)
		}
	}
	return out
}
