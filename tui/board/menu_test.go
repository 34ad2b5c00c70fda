package board

import (
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/tui/style"
)

func TestMenu(t *testing.T) {
	var m Menu[int]
	if m.Open() {
		t.Fatal("the zero menu is open")
	}
	if _, ok := m.Chosen(); ok {
		t.Fatal("the zero menu has a choice")
	}
	m = Menu[int]{Title: "Pick", Items: []MenuItem[int]{{"one", 1}, {"two", 2}, {"three", 3}}}
	if !m.Open() {
		t.Fatal("a menu with items is closed")
	}
	scr := tcell.NewSimulationScreen("")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(20, 10)
	if next := m.Draw(scr, style.Default(), 0, 2, 20, 3); next != 5 {
		t.Fatalf("Draw returned line %d, want 5", next)
	}
	if mv, ok := m.Click(4, 4); !ok || mv != 2 || m.Idx != 1 {
		t.Fatalf("Click on the second row = %d, %v (idx %d)", mv, ok, m.Idx)
	}
	if _, ok := m.Click(4, 5); ok {
		t.Fatal("a click below the rows drawn chose")
	}
	var got []int
	for _, b := range m.Bindings(func(mv int) { got = append(got, mv) }) {
		if b.Label == "enter" {
			b.Run()
		}
	}
	if len(got) != 1 || got[0] != 2 {
		t.Fatalf("enter chose %v", got)
	}
	m.Undraw()
	if _, ok := m.Click(4, 4); ok {
		t.Fatal("a click chose after Undraw")
	}
	m.Close()
	if m.Open() || m.Title != "" {
		t.Fatal("Close left the menu open")
	}
}

func TestMenuTakeClick(t *testing.T) {
	m := Menu[int]{Items: []MenuItem[int]{{"one", 1}, {"two", 2}}}
	scr := tcell.NewSimulationScreen("")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(20, 10)
	m.Draw(scr, style.Default(), 0, 0, 20, 4)
	var chose []int
	closed := 0
	choose, close := func(mv int) { chose = append(chose, mv) }, func() { closed++ }
	row := m.Row(1)
	if !m.TakeClick(row.X, row.Y, false, choose, close) || len(chose) != 1 || chose[0] != 2 || closed != 0 {
		t.Fatalf("a click on the second entry: chose %v, closed %d", chose, closed)
	}
	if !m.TakeClick(19, 9, false, choose, close) || len(chose) != 1 || closed != 0 {
		t.Fatalf("a left click off the entries: chose %v, closed %d", chose, closed)
	}
	if !m.TakeClick(19, 9, true, choose, close) || closed != 1 {
		t.Fatalf("a right click off the entries closed %d times", closed)
	}
	m.Close()
	if m.TakeClick(row.X, row.Y, true, choose, close) || closed != 1 || len(chose) != 1 {
		t.Fatal("a closed menu took a click")
	}
}
