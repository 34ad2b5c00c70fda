package tui

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/notation"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui/invite"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// Lobby panes.
const (
	paneMenu = iota
	panePeers
	paneRecords
	numPanes
)

// menuItem is one entry of the lobby's Play menu.
type menuItem struct {
	label string
	key   rune
	run   func()
}

// lobbyScreen is the first screen: what to do, the peers on the LAN, the
// recent matches.
type lobbyScreen struct {
	base
	a       *App
	menu    []menuItem
	sel     [numPanes]int
	pane    int
	records []record
	resumes []session.Saved // network matches in progress, listed first
	loading bool
	status  string
	rows    [numPanes]paneRows // where the last draw put each pane's rows
	players int                // the table's size for practice and hosting
}

// paneRows is where a pane's rows are on screen.
type paneRows struct {
	x, y, w, h, first int
}

func newLobby(a *App) *lobbyScreen {
	l := &lobbyScreen{a: a}
	l.menu = []menuItem{
		{"Practice against a bot", 'p', a.practice},
		{"Host a game", 'h', func() { a.push(newHostScreen(a)) }},
		{"Join with an invite code", 'j', func() { a.push(newJoinScreen(a)) }},
		{"Audit a match record", 'a', l.askAudit},
		{"How to play", 'H', func() { a.openHowto(a.game) }},
		{"Settings", 's', func() { a.openSettings() }},
		{"Quit", 'q', a.quit},
	}
	l.players = a.cfg.Players
	l.fitPlayers()
	return l
}

// players is the table size chosen in the lobby: 2, or 3-4 for a game
// that allows more.
func (a *App) players() int {
	if a.lobby == nil || a.lobby.players < 2 {
		return 2
	}
	return a.lobby.players
}

// seatCounts lists the table sizes the selected game and variant allow.
func (a *App) seatCounts() []int {
	e, ok := games.Lookup(a.game)
	if !ok {
		return []int{2}
	}
	var out []int
	for n := e.Spec.MinSeats; n <= e.Spec.MaxSeats; n++ {
		if _, err := e.Spec.New(engine.Setup{Seats: n, Variant: a.vari}); err == nil {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		out = []int{e.Spec.MinSeats}
	}
	return out
}

// fitPlayers keeps the table size one the game and variant allow (the
// smallest, if it was not).
func (l *lobbyScreen) fitPlayers() {
	ns := l.a.seatCounts()
	if !slices.Contains(ns, l.players) {
		l.players = ns[0]
	}
}

// cyclePlayers picks the next table size the variant allows.
func (l *lobbyScreen) cyclePlayers() {
	ns := l.a.seatCounts()
	i := slices.Index(ns, l.players)
	l.players = ns[(i+1)%len(ns)]
}

// inviteOrSay invites a LAN peer, or says why a table of more than two
// cannot be made by invitation.
func (l *lobbyScreen) inviteOrSay(p p2p.PeerInfo) {
	if l.a.players() > 2 {
		l.status = fmt.Sprintf("an invitation is for two players: host the table of %d and give out its code", l.a.players())
		return
	}
	l.a.invitePeer(p)
}

func (l *lobbyScreen) shown() {
	if !l.a.cfg.Offline {
		l.a.ensureNet(nil)
	}
	l.reload()
}

// reload audits the recent transcripts in the background, and lists the
// network matches in progress that can be resumed (session's store, in the
// same folder), whose transcripts it does not list again.
func (l *lobbyScreen) reload() {
	a := l.a
	dir := filepath.Join(a.cfg.DataDir, MatchesDir)
	store := a.store()
	left := maps.Clone(a.left)
	l.loading = true
	a.goBack(func() {
		var live []session.Saved
		skip := map[string]bool{}
		saved, err := store.List()
		if err != nil {
			a.log.Warn("cannot list the matches in progress", "err", err)
		}
		for _, sv := range saved {
			if _, known := games.Lookup(sv.Header.Game); sv.InProgress() && known && !left[sv.Match] {
				live = append(live, sv)
				skip[store.Transcript(sv.Match)] = true
			}
		}
		recs := loadRecords(dir, a.self, RecentRecords+len(skip))
		recs = slices.DeleteFunc(recs, func(r record) bool { return skip[r.path] })
		recs = recs[:min(len(recs), RecentRecords)]
		a.post(func() {
			l.records, l.resumes, l.loading = recs, live, false
			if n := l.count(paneRecords); n > 0 {
				l.sel[paneRecords] = min(l.sel[paneRecords], n-1)
			}
		})
	})
}

func (l *lobbyScreen) peers() []p2p.PeerInfo {
	if l.a.net == nil {
		return nil
	}
	var out []p2p.PeerInfo
	for _, p := range l.a.net.peers {
		if !p.Gone {
			out = append(out, p)
		}
	}
	return out
}

func (l *lobbyScreen) count(pane int) int {
	switch pane {
	case paneMenu:
		return len(l.menu)
	case panePeers:
		return len(l.peers())
	}
	return len(l.resumes) + len(l.records)
}

func (l *lobbyScreen) move(d int) {
	n := l.count(l.pane)
	if n == 0 {
		return
	}
	l.sel[l.pane] = (l.sel[l.pane] + d + n) % n
}

func (l *lobbyScreen) choose() {
	l.status = ""
	switch l.pane {
	case paneMenu:
		l.menu[l.sel[paneMenu]].run()
	case panePeers:
		ps := l.peers()
		if i := l.sel[panePeers]; i < len(ps) {
			l.joinPeer(ps[i])
		}
	case paneRecords:
		i := l.sel[paneRecords]
		switch {
		case i < len(l.resumes):
			l.a.resumeMatch(l.resumes[i])
		case i-len(l.resumes) < len(l.records):
			l.a.openAudit(l.records[i-len(l.resumes)].path)
		}
	}
}

// joinPeer joins the game a LAN peer offers, or invites it if idle.
func (l *lobbyScreen) joinPeer(p p2p.PeerInfo) {
	if watching(p.Offer) {
		l.a.openWatch(invite.FromPeer(p))
		return
	}
	if p.Offer == "" {
		l.inviteOrSay(p)
		return
	}
	js := newJoinScreen(l.a)
	js.field.SetText(invite.FromPeer(p))
	l.a.push(js)
	js.connect()
}

// askAudit offers the recent matches to pick from (the focus goes to them,
// on the newest): a player looking for a match's audit knows it by date and
// opponent, not by its file name. Asked again there, or with no recent
// match, it asks for a transcript's path.
func (l *lobbyScreen) askAudit() {
	if len(l.records) > 0 && l.pane != paneRecords {
		l.pane, l.sel[paneRecords] = paneRecords, len(l.resumes)
		l.status = "pick a match in Recent matches, enter audits it (a again: type a file's path)"
		return
	}
	dir, err := l.a.matchesDir()
	if err != nil {
		l.status = err.Error()
		return
	}
	dir += string(filepath.Separator)
	l.a.openOverlay(newPrompt(l.a, "Audit a match record", "file: ", dir, checkTranscriptPath, l.a.openAudit))
}

// checkTranscriptPath says whether path names a transcript, as it is typed.
func checkTranscriptPath(path string) (string, bool) {
	path = strings.TrimSpace(path)
	st, err := os.Stat(path)
	switch {
	case path == "":
		return "type the path of a transcript (.jsonl) or a match notation", false
	case err != nil:
		return "no such file yet", false
	case st.IsDir():
		n := 0
		if ents, err := os.ReadDir(path); err == nil {
			for _, e := range ents {
				if strings.HasSuffix(e.Name(), ".jsonl") {
					n++
				}
			}
		}
		return fmt.Sprintf("a folder with %d transcripts: type a file name", n), false
	}
	f, err := os.Open(path)
	if err != nil {
		return err.Error(), false
	}
	defer f.Close()
	if isNotation(path) {
		n, err := notation.Parse(f)
		if err != nil {
			return err.Error(), false
		}
		game, _ := n.Tag("Game")
		return fmt.Sprintf("a match notation of %s: shown unverified", game), true
	}
	h, _, err := fairness.ReadTranscript(f)
	if err != nil {
		return err.Error(), false
	}
	return fmt.Sprintf("a %s transcript of %d players", h.Game, len(h.Players)), true
}

func (l *lobbyScreen) cycleGame() {
	names := games.Names()
	for i, n := range names {
		if n == l.a.game {
			l.a.game = names[(i+1)%len(names)]
			break
		}
	}
	e, _ := games.Lookup(l.a.game)
	l.a.vari = e.Spec.Variants[0]
	if _, ok := e.Bots[l.a.bot]; !ok {
		l.a.bot = games.BotLevels[len(games.BotLevels)-1]
	}
	l.fitPlayers()
}

func (l *lobbyScreen) cycleVariant() {
	e, _ := games.Lookup(l.a.game)
	vs := e.Spec.Variants
	for i, v := range vs {
		if v == l.a.vari {
			l.a.vari = vs[(i+1)%len(vs)]
			break
		}
	}
	l.fitPlayers()
}

func (l *lobbyScreen) cycleBot() {
	ls := games.BotLevels
	for i, b := range ls {
		if b == l.a.bot {
			l.a.bot = ls[(i+1)%len(ls)]
			return
		}
	}
}

// you is the title bar's word on who this player is: the name, the short
// peer ID, and which player of this machine when another runs beside it.
func (a *App) you() string {
	s := fmt.Sprintf("you: %s (%s)", a.name, shortID(a.self.String()))
	if a.cfg.Profile > 1 {
		s += fmt.Sprintf(" · player %d here", a.cfg.Profile)
	}
	return s
}

func (l *lobbyScreen) draw(scr tcell.Screen, x, y, w, h int) {
	a, th := l.a, l.a.th
	titleBar(scr, th, x, y, w, []style.Seg{style.S("Salvo", th.Base)},
		[]style.Seg{style.S(a.you()+" · "+a.netStatus(), th.Base)})
	bodyY, bodyH := y+1, h-2
	leftW := 32
	border := func(p int) tcell.Style {
		if l.pane == p {
			return th.Accent
		}
		return th.Dim
	}
	// Play menu.
	ix, iy, iw, ih := boxed(scr, th, x, bodyY, leftW, bodyH, "Play", border(paneMenu))
	l.rows[paneMenu] = paneRows{ix, iy, iw, ih, 0}
	for i, m := range l.menu {
		if i >= ih {
			break
		}
		l.drawRow(scr, paneMenu, i, ix, iy+i, iw, []style.Seg{style.S(m.label, th.Base), style.S(fmt.Sprintf("  %c", m.key), th.Dim)})
	}
	// Peers.
	rx, rw := x+leftW, w-leftW
	peersH := max(5, bodyH/2)
	ix, iy, iw, ih = boxed(scr, th, rx, bodyY, rw, peersH, "Peers on this network", border(panePeers))
	l.rows[panePeers] = paneRows{ix, iy, iw, ih, 0}
	ps := l.peers()
	if len(ps) == 0 {
		msg := "no Salvo peers seen on this network yet"
		switch {
		case a.net == nil:
			msg = "offline: host or join to start the network"
		case a.net.host == nil && a.net.err == nil:
			msg = a.spinner() + " starting the network…"
		case a.net.err != nil:
			msg = "the network did not start: " + a.net.err.Error()
		case errors.Is(a.net.host.DiscoveryErr(), p2p.ErrDiscoveryOff):
			msg = "LAN discovery is off (salvo --mdns): use invite codes"
		case a.net.host.DiscoveryErr() != nil:
			msg = "no LAN discovery (" + a.net.host.DiscoveryErr().Error() + "): use invite codes"
		}
		style.Print(scr, ix+1, iy, iw-2, th.Dim, style.Truncate(msg, iw-2))
	}
	for i, p := range ps {
		if i >= ih {
			break
		}
		name := shownName(p.Name, FriendlyName(p.ID))
		act := "[i] invite"
		switch {
		case watching(p.Offer):
			act = "[enter] watch"
		case p.Offer != "":
			act = "[enter] join"
		}
		l.drawRow(scr, panePeers, i, ix, iy+i, iw, []style.Seg{style.S(style.Pad(name, 16), th.Base),
			style.S(style.Pad(describeOffer(p.Offer), max(8, iw-32)), th.Base), style.S(act, th.Dim)})
	}
	// Recent matches.
	recY := bodyY + peersH
	ix, iy, iw, ih = boxed(scr, th, rx, recY, rw, bodyH-peersH, "Recent matches", border(paneRecords))
	l.rows[paneRecords] = paneRows{ix, iy, iw, ih, 0}
	if l.count(paneRecords) == 0 {
		msg := "no matches played yet"
		if l.loading {
			msg = a.spinner() + " auditing recent matches…"
		}
		style.Print(scr, ix+1, iy, iw-2, th.Dim, msg)
	}
	for i, sv := range l.resumes {
		if i >= ih {
			break
		}
		l.drawRow(scr, paneRecords, i, ix, iy+i, iw, l.resumeSegs(sv, iw))
	}
	for j, r := range l.records {
		i := len(l.resumes) + j
		if i >= ih {
			break
		}
		l.drawRow(scr, paneRecords, i, ix, iy+i, iw, l.recordSegs(r, iw))
	}
	// Status line.
	ty := y + h - 1
	segs := []style.Seg{style.S("game ", th.Dim), style.S(a.gameTitle(), th.Base), style.S(" · variant ", th.Dim), style.S(a.vari, th.Base),
		style.S(" · bot ", th.Dim), style.S(a.bot, th.Base)}
	if e, ok := games.Lookup(a.game); ok && e.Spec.MaxSeats > 2 {
		segs = append(segs, style.S(" · players ", th.Dim), style.S(fmt.Sprint(a.players()), th.Base))
	}
	if l.status != "" {
		// What the player was just told comes first: at 80 columns the
		// game line after it may be cut, the message must not be.
		segs = append([]style.Seg{style.S(l.status+" · ", th.Warn)}, segs...)
	}
	style.PrintSegs(scr, x+1, ty, w-2, style.Fit(w-2, segs...)...)
}

// resumeSegs draws a network match in progress: game, opponent, where it
// stopped, and the resume mark.
func (l *lobbyScreen) resumeSegs(sv session.Saved, w int) []style.Seg {
	th := l.a.th
	game := sv.Header.Game
	if e, ok := games.Lookup(game); ok {
		game = shortTitle(e.Spec.Title)
	}
	who := opponentsText(playerNames(sv.Header), sv.Seat)
	return []style.Seg{style.S(style.Play+" resume  ", th.Accent), style.S(style.Pad(game+" vs "+who, max(10, w-10-22)), th.Base),
		style.S(fmt.Sprintf("at message %d", sv.Seq), th.Dim)}
}

func (l *lobbyScreen) recordSegs(r record, w int) []style.Seg {
	th := l.a.th
	if r.err != nil {
		return []style.Seg{style.S(style.Fail+" "+filepath.Base(r.path)+": "+r.err.Error(), th.Bad)}
	}
	v := style.S(style.OK+" clean", th.Good)
	switch r.verdict {
	case fairness.Clean:
	case fairness.Incomplete:
		v = style.S("… unfinished", th.Dim)
	case fairness.Forfeit:
		v = style.S("· forfeit", th.Warn)
	case fairness.Violated:
		v = style.S(style.Fail+" cheat", th.Bad)
	default:
		v = style.S(style.Fail+" "+string(r.verdict), th.Bad)
	}
	who := r.opponent
	if who == "" {
		who = "?"
	}
	return []style.Seg{style.S(r.when.Format("2006-01-02 15:04 "), th.Dim), style.S(style.Pad(r.game+" vs "+who, max(10, w-17-8-12-2)), th.Base),
		style.S(style.Pad(r.result, 8), th.Base), v}
}

// drawRow draws row i of a pane, highlighted when selected in the focused
// pane.
func (l *lobbyScreen) drawRow(scr tcell.Screen, pane, i, x, y, w int, segs []style.Seg) {
	th := l.a.th
	ptr := "  "
	if l.sel[pane] == i {
		ptr = style.Pointer + " "
		if l.pane == pane {
			style.Fill(scr, x, y, w, 1, th.Selected)
			for k := range segs {
				segs[k].Style = th.Selected
			}
		}
	}
	style.PrintSegs(scr, x, y, w, append([]style.Seg{style.S(ptr, th.Accent)}, segs...)...)
}

func (l *lobbyScreen) bindings() []keys.Binding {
	bs := []keys.Binding{
		{Keys: []keys.Key{keys.K(tcell.KeyUp)}, Label: "↑↓", Hint: "move", Help: "move in the focused pane", Run: func() { l.move(-1) }},
		{Keys: []keys.Key{keys.K(tcell.KeyDown)}, Label: "↓", Hint: "move", Hidden: true, Run: func() { l.move(1) }},
	}
	switch l.pane {
	case paneMenu:
		bs = append(bs, keys.Binding{Keys: []keys.Key{keyEnter}, Label: "enter", Hint: "choose", Help: "do the selected thing", Run: l.choose})
	case panePeers:
		if ps := l.peers(); len(ps) > 0 {
			p := ps[min(l.sel[panePeers], len(ps)-1)]
			switch {
			case watching(p.Offer):
				bs = append(bs, keys.Binding{Keys: []keys.Key{keyEnter}, Label: "enter", Hint: "watch", Help: "watch the match the selected peer plays (its host allowed spectators), every message checked", Run: l.choose})
			case p.Offer != "":
				bs = append(bs, keys.Binding{Keys: []keys.Key{keyEnter}, Label: "enter", Hint: "join", Help: "join the game the selected peer offers", Run: l.choose})
			}
			bs = append(bs, keys.Binding{Keys: []keys.Key{keys.R('i')}, Label: "i", Hint: "invite", Help: "invite the selected peer to your game (game and variant below)", Run: func() { l.inviteOrSay(p) }})
		}
	case paneRecords:
		switch i := l.sel[paneRecords]; {
		case i < len(l.resumes):
			bs = append(bs, keys.Binding{Keys: []keys.Key{keyEnter}, Label: "enter", Hint: "resume", Help: "take the selected match up again where it stopped (the other player must be back within its give-up time)", Run: l.choose})
		case i-len(l.resumes) < len(l.records):
			bs = append(bs, keys.Binding{Keys: []keys.Key{keyEnter}, Label: "enter", Hint: "audit", Help: "open the selected match in the audit viewer", Run: l.choose})
		}
	}
	bs = append(bs,
		keys.Binding{Keys: []keys.Key{keys.K(tcell.KeyTab)}, Label: "tab", Hint: "pane", Help: "next pane: play menu, LAN peers, recent matches", Run: func() { l.pane = (l.pane + 1) % numPanes }},
		keys.Binding{Keys: []keys.Key{keys.K(tcell.KeyBacktab)}, Label: "shift-tab", Hint: "pane", Hidden: true, Help: "previous pane", Run: func() { l.pane = (l.pane + numPanes - 1) % numPanes }},
		keys.Binding{Keys: []keys.Key{keys.R('g')}, Label: "g", Hint: "game: " + shortTitle(l.a.gameTitle()), Help: "the next game (for practice, hosting and invitations)", Run: l.cycleGame},
		keys.Binding{Keys: []keys.Key{keys.R('v')}, Label: "v", Hint: "variant: " + l.a.vari, Help: "the game's next variant", Run: l.cycleVariant},
		keys.Binding{Keys: []keys.Key{keys.R('b')}, Label: "b", Hint: "bot: " + l.a.bot, Help: "the practice bot's level", Run: l.cycleBot},
		keys.Binding{Keys: []keys.Key{keys.R('w')}, Label: "w", Hint: "spectators: " + onOff(l.a.watchable),
			Help: "whether the matches you host may be watched (salvo watch): every player's record is then served to a few spectators, who pass it on", Run: func() { l.a.watchable = !l.a.watchable }},
	)
	if len(l.a.seatCounts()) > 1 {
		bs = append(bs, keys.Binding{Keys: []keys.Key{keys.R('n')}, Label: "n", Hint: fmt.Sprintf("players: %d", l.a.players()),
			Help: "the table's size for practice (you and bots) and hosting: the sizes the game and variant allow", Run: l.cyclePlayers})
	}
	for _, m := range l.menu {
		m := m
		bs = append(bs, keys.Binding{Keys: []keys.Key{keys.R(m.key)}, Label: string(m.key), Hint: menuHint(m.label), Help: m.label, Hidden: !strings.ContainsRune("qaHs", m.key), Pin: m.key == 'q', Run: func() {
			l.status = ""
			m.run()
		}})
	}
	return bs
}

// menuHint is a menu entry's word on the key bar: the entry when it is
// short ("how to play"), else its first word ("audit").
func menuHint(label string) string {
	if w := strings.Fields(strings.ToLower(label)); len(w) > 3 {
		return w[0]
	}
	return strings.ToLower(label)
}

// mouse selects a row with a click and chooses it with a double click;
// a click anywhere in a pane focuses it.
func (l *lobbyScreen) mouse(action tview.MouseAction, ev *tcell.EventMouse) bool {
	if action != tview.MouseLeftClick && action != tview.MouseLeftDoubleClick {
		return false
	}
	mx, my := ev.Position()
	for p, r := range l.rows {
		if mx < r.x || mx >= r.x+r.w || my < r.y || my >= r.y+r.h {
			continue
		}
		i := my - r.y
		if i >= l.count(p) {
			l.pane = p // a click on a pane's empty rows focuses it
			return true
		}
		l.pane, l.sel[p] = p, i
		if action == tview.MouseLeftDoubleClick || p == paneMenu {
			l.choose()
		}
		return true
	}
	return false
}
