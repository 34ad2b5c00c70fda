package tui

import (
	"sync"

	"github.com/rivo/tview"
)

// poster runs functions on the tview goroutine, in the order they were
// posted, without ever blocking the poster: a queue drained by one
// goroutine that hands batches to QueueUpdateDraw. It is safe to post from
// any goroutine, key handlers included.
type poster struct {
	mu   sync.Mutex
	q    []func()
	wake chan struct{}
	done chan struct{}
	once sync.Once
}

func newPoster() *poster {
	return &poster{wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// post queues f.
func (p *poster) post(f func()) {
	p.mu.Lock()
	p.q = append(p.q, f)
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// run drains the queue into app until stop.
func (p *poster) run(app *tview.Application) {
	for {
		p.mu.Lock()
		batch := p.q
		p.q = nil
		p.mu.Unlock()
		if len(batch) == 0 {
			select {
			case <-p.wake:
				continue
			case <-p.done:
				return
			}
		}
		ran := make(chan struct{})
		go func() {
			// QueueUpdateDraw blocks until the event loop has run the batch;
			// if the application stops first it never returns, so the wait
			// below also watches done.
			app.QueueUpdateDraw(func() {
				for _, f := range batch {
					f()
				}
			})
			close(ran)
		}()
		select {
		case <-ran:
		case <-p.done:
			return
		}
	}
}

// stop ends run; later posts are dropped.
func (p *poster) stop() { p.once.Do(func() { close(p.done) }) }
