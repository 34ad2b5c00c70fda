package seaview

import (
	"strings"

	"github.com/salvo-game/salvo/engine"
)

// refusal turns an engine's or the request's error into the one-line
// reason the prompt shows: the rule, without the layers of context.
func refusal(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, engine.ErrIllegal.Error()+": "); i >= 0 {
		s = s[i+len(engine.ErrIllegal.Error())+2:]
	}
	if s == "" {
		return "not allowed"
	}
	return s
}
