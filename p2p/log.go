package p2p

import (
	"context"
	"log/slog"
	"sync"

	"github.com/libp2p/go-libp2p/gologshim"
)

// go-libp2p logs through gologshim, whose handler is process-wide and is
// fixed by each libp2p logger on its first record. So this package installs,
// at init, a handler that forwards every record to
// the logger of the most recently created Host that is still open (or
// drops it when there is none). Records are filtered by the subsystem
// levels of GOLOG_LOG_LEVEL, exactly as go-libp2p would filter them
// (default: errors only), and then by the target logger's own level.

// libp2pSinks is the stack of loggers of open hosts; the last one is used.
var libp2pSinks struct {
	sync.Mutex
	stack []*slog.Logger
}

// The shim is installed when the package is loaded, before any libp2p
// logger can have resolved its handler, so importing this package is what
// keeps go-libp2p off stderr.
func init() {
	gologshim.SetDefaultHandler(&shimHandler{})
}

// pushSink makes l the target of go-libp2p's logs until popSink(l).
func pushSink(l *slog.Logger) {
	libp2pSinks.Lock()
	libp2pSinks.stack = append(libp2pSinks.stack, l)
	libp2pSinks.Unlock()
}

// popSink removes l from the sinks.
func popSink(l *slog.Logger) {
	libp2pSinks.Lock()
	defer libp2pSinks.Unlock()
	s := libp2pSinks.stack
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == l {
			libp2pSinks.stack = append(s[:i:i], s[i+1:]...)
			return
		}
	}
}

// currentSink returns the logger go-libp2p's records go to, or nil.
func currentSink() *slog.Logger {
	libp2pSinks.Lock()
	defer libp2pSinks.Unlock()
	if n := len(libp2pSinks.stack); n > 0 {
		return libp2pSinks.stack[n-1]
	}
	return nil
}

// shimOp is one WithAttrs or WithGroup call, replayed on the target.
type shimOp struct {
	attrs []slog.Attr
	group string
}

// shimHandler forwards go-libp2p's records to currentSink.
type shimHandler struct {
	ops    []shimOp
	system string // value of the "logger" attribute gologshim adds
}

// Enabled reports whether the subsystem's GOLOG level and the target allow lvl.
func (h *shimHandler) Enabled(ctx context.Context, lvl slog.Level) bool {
	if lvl < gologshim.ConfigFromEnv().LevelForSystem(h.system) {
		return false
	}
	sink := currentSink()
	return sink != nil && sink.Handler().Enabled(ctx, lvl)
}

// Handle replays the recorded attributes and groups on the target handler.
func (h *shimHandler) Handle(ctx context.Context, r slog.Record) error {
	sink := currentSink()
	if sink == nil {
		return nil
	}
	target := sink.Handler()
	for _, op := range h.ops {
		if op.group != "" {
			target = target.WithGroup(op.group)
		} else {
			target = target.WithAttrs(op.attrs)
		}
	}
	if !target.Enabled(ctx, r.Level) {
		return nil
	}
	return target.Handle(ctx, r)
}

// WithAttrs records attrs, noting the libp2p subsystem name.
func (h *shimHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	n := &shimHandler{ops: append(h.ops[:len(h.ops):len(h.ops)], shimOp{attrs: attrs}), system: h.system}
	for _, a := range attrs {
		if a.Key == "logger" && len(h.ops) == 0 {
			n.system = a.Value.String()
		}
	}
	return n
}

// WithGroup records a group.
func (h *shimHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	return &shimHandler{ops: append(h.ops[:len(h.ops):len(h.ops)], shimOp{group: name}), system: h.system}
}
