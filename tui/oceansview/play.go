package oceansview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/oceans"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/keys"
)

// menu is the list of legal plays of the picked card, or of a battle's
// choices.
type menu = board.Menu[oceans.Move]

// commit answers the fleet deck's commitment with the deck shuffled.
func (v *View) commit() {
	if v.life.Req == nil {
		return
	}
	deck := oceans.DeckList()
	v.rand.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	leaves := make([][]byte, len(deck))
	for i, c := range deck {
		leaves[i] = oceans.EncodeCard(c)
	}
	v.reply(engine.Decision{Leaves: leaves})
}

// startPlay begins a turn's play: an ocean where an attack is possible is
// picked when an attack is due.
func (v *View) startPlay() {
	if v.g.Controller(v.ocean) != engine.NoSeat {
		v.moveOcean(1)
	}
	if v.g.MustAttack(v.seat()) && v.g.Plays() == 1 {
		if att := v.g.AttackOceans(v.seat()); len(att) > 0 && !slices.Contains(att, v.ocean) {
			v.ocean = att[0]
		}
	}
	v.fit()
}

// hand returns the local hand's leaves and cards (NoCard where unknown).
func (v *View) hand(s engine.Seat) ([]int, []oceans.Card) {
	leaves := v.g.Hand(s)
	cards := make([]oceans.Card, len(leaves))
	for i, l := range leaves {
		if b, ok := v.secrets().Value(engine.Slot{Owner: s, Name: oceans.FleetName, Index: l}); ok {
			if c, err := oceans.DecodeCard(b); err == nil {
				cards[i] = c
			}
		}
	}
	return leaves, cards
}

// picked returns the picked hand card.
func (v *View) picked() (int, oceans.Card, bool) {
	leaves, cards := v.hand(v.seat())
	if v.sel < 0 || v.sel >= len(leaves) {
		return 0, oceans.NoCard, false
	}
	return leaves[v.sel], cards[v.sel], true
}

// legal returns the legal moves now.
func (v *View) legal() []oceans.Move {
	ms, err := v.g.Moves(v.seat(), v.secrets())
	if err != nil {
		return nil
	}
	return ms
}

// send checks a move against the engine's list of legal moves and replies
// it, or says why it is refused. The list is needed on top of the check
// the request makes on a copy of the game: a card played facedown opens
// nothing, so only the list knows that an Element of Surprise may not join
// a task force.
func (v *View) send(m oceans.Move) {
	b := m.Encode()
	if !slices.ContainsFunc(v.legal(), func(x oceans.Move) bool { return string(x.Encode()) == string(b) }) {
		v.life.Msg = "refused: " + v.why(m)
		return
	}
	v.reply(engine.Decision{Move: b})
}

// why says why a move is not legal: the engine's reason where a copy of
// the game refuses it, else what the rules say.
func (v *View) why(m oceans.Move) string {
	b := m.Encode()
	g := v.g.Clone()
	slots, err := g.MustOpen(v.seat(), b)
	if err == nil {
		opened := make([]engine.Opened, 0, len(slots))
		for _, s := range slots {
			val, _ := v.secrets().Value(s)
			opened = append(opened, engine.Opened{Slot: s, Value: val})
		}
		_, err = g.Apply(engine.Input{Kind: engine.NeedMove, Seat: v.seat(), Move: b, Opened: opened})
	}
	if err != nil {
		return strings.TrimPrefix(v.life.Snap.Refusal(err), "refused: ")
	}
	if _, c, ok := v.picked(); ok && !c.CanJoin() && (m.Kind == oceans.Place || m.Kind == oceans.Deploy) {
		return fmt.Sprintf("%s cannot join a task force: d discards it for its command", cardWith(c))
	}
	return "not a legal play now: o lists the legal ones"
}

// openMenu lists the legal plays of the picked card and the attacks (or a
// battle's choices).
func (v *View) openMenu() {
	var moves []oceans.Move
	title := ""
	switch v.mode {
	case fighting:
		moves = v.legal()
		title = "Battle: " + v.life.Snap.Say(v.g.Next().Asks())
	case deploying, playing:
		leaf, c, ok := v.picked()
		for _, m := range v.legal() {
			if m.Kind == oceans.Attack || ok && m.Leaf == leaf {
				moves = append(moves, m)
			}
		}
		title = "Plays"
		if ok {
			title = "Plays of " + cardWith(c)
		}
	}
	if len(moves) == 0 {
		v.life.Msg = "nothing to do with this card now: tab picks another"
		return
	}
	items := make([]board.MenuItem[oceans.Move], len(moves))
	seen := map[string]int{}
	for i, m := range moves {
		items[i] = board.MenuItem[oceans.Move]{Label: v.moveLabel(m), Move: m}
		seen[items[i].Label]++
	}
	for i, it := range items {
		if seen[it.Label] > 1 && (it.Move.Kind == oceans.Target || it.Move.Kind == oceans.Zero) {
			items[i].Label += fmt.Sprintf(" (fleet card %d)", it.Move.Leaf)
		}
	}
	v.menu = menu{Title: title, Items: items}
}

func (v *View) closeMenu() {
	if v.mode != fighting {
		v.menu.Close()
	}
}

// enemyCard names an enemy task-force card: "bot's facedown card 2 in
// the Pacific", or "bot's Destroyer in the Pacific".
func (v *View) enemyCard(leaf int) string {
	foe := 1 - v.seat()
	o, _ := forceOf(v.g, foe, leaf)
	if c := v.g.Known(foe, leaf); c != oceans.NoCard {
		return fmt.Sprintf("%s's %s in the %s", v.life.Snap.Name(foe), c, o)
	}
	i := slices.IndexFunc(v.g.TaskForce(foe, o), func(c oceans.TaskForceCard) bool { return c.Leaf == leaf })
	return fmt.Sprintf("%s's card %d in the %s", v.life.Snap.Name(foe), i+1, o)
}

// moveLabel puts a legal move into words from the player's side.
func (v *View) moveLabel(m oceans.Move) string {
	switch m.Kind {
	case oceans.Deploy:
		return "deploy it faceup to the " + m.Ocean.String()
	case oceans.Place:
		return "play it facedown to the " + m.Ocean.String()
	case oceans.Attack:
		foe := 1 - v.seat()
		return fmt.Sprintf("attack in the %s (%d cards against %d)", m.Ocean, len(v.g.TaskForce(v.seat(), m.Ocean)), len(v.g.TaskForce(foe, m.Ocean)))
	case oceans.Discard:
		_, c, _ := v.picked()
		if v.g.Known(v.seat(), m.Leaf) != oceans.NoCard {
			c = v.g.Known(v.seat(), m.Leaf)
		}
		switch {
		case c == oceans.PTBoat:
			return "discard it: blockade the " + m.Ocean.String()
		case len(m.Targets) == 0 && (c == oceans.Carrier || c == oceans.Fighter || c == oceans.Submarine || c == oceans.Destroyer):
			return "discard it with no target (the command is wasted)"
		case len(m.Targets) == 0:
			return "discard it: " + commandText[c]
		case c == oceans.Carrier || c == oceans.Fighter:
			var names []string
			for _, t := range m.Targets {
				names = append(names, v.enemyCard(t))
			}
			return "discard it: reveal " + strings.Join(names, " and ")
		}
		return "discard it: destroy " + v.enemyCard(m.Targets[0])
	case oceans.Zero:
		return "play your " + v.g.Known(v.seat(), m.Leaf).String()
	case oceans.Target:
		// A leaf number alone does not say whose card it is: the engine,
		// on a copy, says which card the choice destroys.
		evs, err := v.g.Clone().Apply(engine.Input{Kind: engine.NeedMove, Seat: v.seat(), Move: m.Encode()})
		if err == nil {
			for _, e := range evs {
				if e.Kind == "destroy" {
					return fmt.Sprintf("destroy %s %s", board.Possessive(v.who(e.Seat)), cardIn(e.Text))
				}
			}
		}
	}
	return fmt.Sprintf("%s %d", m.Kind, m.Leaf)
}

// place plays the picked card to the picked ocean: facedown in a turn,
// faceup in the opening deployment.
func (v *View) place() {
	leaf, _, ok := v.picked()
	if !ok {
		v.life.Msg = "your hand is empty"
		return
	}
	kind := oceans.Place
	if v.mode == deploying {
		kind = oceans.Deploy
	}
	v.send(oceans.Move{Kind: kind, Leaf: leaf, Ocean: v.ocean})
}

// attack attacks in the picked ocean.
func (v *View) attack() {
	if v.mode != playing {
		return
	}
	v.send(oceans.Move{Kind: oceans.Attack, Ocean: v.ocean})
}

// targeting reports whether card c's command names enemy cards.
func targeting(c oceans.Card) bool {
	return c == oceans.Carrier || c == oceans.Fighter || c == oceans.Submarine || c == oceans.Destroyer
}

// aimed returns the enemy leaf under the target cursor.
func (v *View) aimed() (int, bool) {
	tf := v.g.TaskForce(1-v.seat(), v.ocean)
	if v.tcol < 0 || v.tcol >= len(tf) {
		return 0, false
	}
	return tf[v.tcol].Leaf, true
}

// fits reports whether enemy leaf l is a target card c's command may name.
func (v *View) fits(c oceans.Card, l int) bool {
	k := v.g.Known(1-v.seat(), l)
	switch c {
	case oceans.Carrier, oceans.Fighter:
		return k == oceans.NoCard
	case oceans.Submarine:
		return k == oceans.Destroyer || k == oceans.PTBoat
	case oceans.Destroyer:
		return k == oceans.Submarine
	}
	return false
}

// mark marks or unmarks the enemy card under the target cursor.
func (v *View) mark() {
	_, c, ok := v.picked()
	l, aimed := v.aimed()
	switch {
	case !ok || !targeting(c):
		v.life.Msg = "only a Carrier, Fighter Plane, Submarine or Destroyer names enemy cards"
	case !aimed:
		v.life.Msg = "no enemy card there: ↑↓ picks an ocean with one"
	case slices.Contains(v.marks, l):
		v.marks = slices.DeleteFunc(v.marks, func(x int) bool { return x == l })
	case !v.fits(c, l):
		v.life.Msg = fmt.Sprintf("%s cannot name that card: %s", cardWith(c), commandText[c])
	case c == oceans.Carrier && len(v.marks) < oceans.CarrierReveals || len(v.marks) == 0:
		v.marks = append(v.marks, l)
	default:
		v.marks = []int{l}
	}
}

// discard discards the picked card for its command, with the marked enemy
// cards (or the one under the target cursor) as its targets.
func (v *View) discard() {
	leaf, c, ok := v.picked()
	if !ok {
		v.life.Msg = "your hand is empty"
		return
	}
	m := oceans.Move{Kind: oceans.Discard, Leaf: leaf}
	switch {
	case c == oceans.PTBoat:
		m.Ocean = v.ocean
	case targeting(c):
		// In the order of the task force, as the engine lists them.
		for _, tc := range v.g.TaskForce(1-v.seat(), v.ocean) {
			if slices.Contains(v.marks, tc.Leaf) {
				m.Targets = append(m.Targets, tc.Leaf)
			}
		}
		if len(m.Targets) == 0 {
			if l, ok := v.aimed(); ok && v.fits(c, l) {
				m.Targets = []int{l}
			}
		}
		if len(m.Targets) == 0 && !v.wasted {
			v.wasted = true
			v.life.Msg = fmt.Sprintf("no target under the cursor (%s): d again wastes the command", commandText[c])
			return
		}
	}
	v.send(m)
}

// moveOcean picks the next ocean still in play up (d=-1) or down (d=1).
func (v *View) moveOcean(d int) {
	for range oceans.NumOceans {
		v.ocean = oceans.Ocean((int(v.ocean) + d + oceans.NumOceans) % oceans.NumOceans)
		if v.g.Controller(v.ocean) == engine.NoSeat {
			break
		}
	}
	v.tcol, v.marks = 0, nil
}

func (v *View) moveTarget(d int) {
	n := len(v.g.TaskForce(1-v.seat(), v.ocean))
	if n == 0 {
		v.life.Msg = "no enemy card in the " + v.ocean.String()
		return
	}
	v.tcol = min(max(v.tcol+d, 0), n-1)
}

func (v *View) cycle(d int) {
	if n := len(v.g.Hand(v.seat())); n > 0 {
		v.sel = (v.sel + d + n) % n
		v.marks, v.wasted = nil, false
	}
}

func (v *View) playBindings() []keys.Binding {
	n := len(v.g.Hand(v.seat()))
	enter := "place"
	help := "play the picked card facedown to the picked ocean's task force (a click on your side of an ocean too)"
	if v.mode == deploying {
		enter, help = "deploy", "play the picked card faceup to the picked ocean (a click on your side of an ocean too)"
	}
	bs := []keys.Binding{
		{Keys: keys.Up, Label: "↑↓", Hint: "ocean", Help: "pick the ocean", Run: func() { v.moveOcean(-1) }},
		{Keys: keys.Down, Label: "↓", Hint: "ocean", Hidden: true, Run: func() { v.moveOcean(1) }},
		{Keys: keys.Enter, Label: "enter", Hint: enter, Help: help, Run: v.place},
		{Keys: keys.Tab, Label: "tab", Hint: "card", Help: "pick the next card of your hand (a click on a card too)", Run: func() { v.cycle(1) }},
		{Keys: keys.Backtab, Label: "shift-tab", Hint: "previous card", Hidden: true, Help: "pick the previous card of your hand", Run: func() { v.cycle(-1) }},
	}
	if v.mode == playing {
		bs = append(bs,
			keys.Binding{Keys: []keys.Key{keys.R('d')}, Label: "d", Hint: "discard", Help: "discard the picked card faceup for its special command (its targets: the marked enemy cards, or the one under the target cursor)", Run: v.discard},
			keys.Binding{Keys: []keys.Key{keys.R('a')}, Label: "a", Hint: "attack", Help: "attack in the picked ocean instead of playing a second card", Run: v.attack},
			keys.Binding{Keys: keys.Left, Label: "←→", Hint: "target", Help: "move the target cursor along the enemy task force of the picked ocean (a click on an enemy card too)", Run: func() { v.moveTarget(-1) }},
			keys.Binding{Keys: keys.Right, Label: "→", Hint: "target", Hidden: true, Run: func() { v.moveTarget(1) }},
			keys.Binding{Keys: []keys.Key{keys.R(' ')}, Label: "space", Hint: "mark", Help: "mark or unmark the enemy card under the target cursor as a command's target (a Carrier reveals two)", Run: v.mark},
		)
	}
	bs = append(bs, keys.Binding{Keys: []keys.Key{keys.R('o')}, Label: "o", Hint: "plays", Help: "list every legal play of the picked card (and the attacks) in words; a right click too", Run: v.openMenu})
	return append(bs, keys.Digits("card", "pick card N of your hand", n, func(i int) {
		v.sel = i
		v.marks, v.wasted = nil, false
	})...)
}

func (v *View) menuBindings() []keys.Binding {
	var back []keys.Binding
	if v.mode != fighting {
		back = append(back, keys.Binding{Keys: []keys.Key{keys.K(tcell.KeyEscape), keys.R('o')}, Label: "esc", Hint: "back", Help: "close the list", Run: v.closeMenu})
	}
	return v.menu.Bindings(v.send, back...)
}

func (v *View) deployPrompt() string {
	if v.menu.Open() {
		return "Deploy a card faceup: pick a play — enter plays it, esc goes back"
	}
	_, c, ok := v.picked()
	if !ok {
		return "Deploy a card faceup: your hand is empty"
	}
	return fmt.Sprintf("Deploy a card faceup: %s → %s — enter deploys", cardWith(c), v.ocean)
}

func (v *View) playPrompt() string {
	s := v.seat()
	if v.menu.Open() {
		return "Your turn: pick a play — enter plays it, esc goes back"
	}
	if v.g.Plays() == 1 && v.g.MustAttack(s) {
		return fmt.Sprintf("Your turn: every task force is full, attack — ↑↓ ocean (%s), a attacks", v.ocean)
	}
	_, c, ok := v.picked()
	if !ok {
		return "Your turn: your hand is empty"
	}
	head, tail := "Your turn", " (enter places it facedown, d discards it)"
	if !c.CanJoin() {
		tail = " (it joins no task force: d discards it)"
	}
	if v.g.Plays() == 1 {
		head, tail = "Your turn, a second card or attack", ""
		if v.g.Surprised(s) {
			head = "Your turn (surprised: one card only)"
		}
	}
	if targeting(c) {
		switch {
		case len(v.marks) > 0:
			tail = fmt.Sprintf(" · %d marked", len(v.marks))
		default:
			if l, ok := v.aimed(); ok {
				tail = " · aims at " + v.enemyCard(l)
			}
		}
	}
	return fmt.Sprintf("%s: %s → %s%s", head, cardWith(c), v.ocean, tail)
}

func (v *View) fightPrompt() string {
	if v.g.Next().Kind != engine.NeedMove {
		return ""
	}
	return "Battle: " + v.life.Snap.Say(v.g.Next().Asks()) + " — enter or 1-9 chooses"
}

// click handles a click at x, y.
func (v *View) click(x, y int, right bool) {
	if v.menu.TakeClick(x, y, right, v.send, v.closeMenu) {
		return
	}
	if v.mode != playing && v.mode != deploying {
		return
	}
	if i, ok := v.geo.handAt(x, y); ok {
		v.sel = i
		v.marks, v.wasted = nil, false
		if right {
			v.openMenu()
		}
		return
	}
	if right {
		v.openMenu()
		return
	}
	if o, i, ok := v.geo.enemyAt(x, y); ok {
		if o != v.ocean {
			v.ocean, v.marks = o, nil
		}
		v.tcol = i
		if _, c, ok := v.picked(); ok && targeting(c) && v.mode == playing {
			v.mark()
		}
		return
	}
	if o, own, ok := v.geo.oceanAt(x, y); ok {
		if o != v.ocean {
			v.ocean, v.tcol, v.marks = o, 0, nil
		}
		if own {
			v.place()
		}
	}
}
