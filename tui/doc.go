// Package tui is Salvo's terminal interface, built on tview: the lobby (LAN
// peers, practice, host, join, recent matches, audits), the host and join
// screens with invite codes, the match screen (a game's board, the
// verification log, the status and key-hint bars, the cheat panel), and the
// audit viewer.
//
// # Screens
//
//   - Lobby: the Play menu, the Salvo peers mDNS finds on the LAN (join the
//     game one offers, or invite an idle one), and the recent matches in the
//     data directory, each re-audited in the background.
//   - Host: the invite code (package invite; copy with c, also written to
//     the data directory) and what the host is doing while it waits.
//   - Join: a field that checks the code as it is typed, then dials, opens
//     the match stream and runs the handshake.
//   - Practice: a bot on a second libp2p host in this process, connected over
//     loopback (session.Loopback), so every protocol step runs for real.
//   - Tables of 3-4 (games that allow them, such as Mission Command Air): n
//     in the lobby picks the size among those the game and variant allow.
//     Practice seats you and the bots on loopback hosts (session.
//     LoopbackGroup; a cheating bot takes the last seat); the host screen
//     gathers the table (session.HostGroup), listing who has taken a seat,
//     and offers "game variant N" on the LAN and to info queries; a joiner
//     reads that offer and runs the group handshake (session.JoinGroup). The
//     match then runs over a gossipsub topic, through the pubsub router the
//     main host starts the first time.
//   - Match: the title bar (game, opponent, whose turn, connection kind,
//     round-trip time, sequence number and hash agreement), the game's board
//     (package board; U-Build's is package ubuildview), the verification log
//     (every message sent and accepted, each commitment, opening and joint
//     roll as it is checked; l widens it, enter shows a message as signed and
//     the commitments its openings answer), the prompt line (what is awaited,
//     from whom, for how long), and the red cheat panel that replaces the
//     board when the other side is caught.
//   - Audit viewer: the messages of a transcript, the board as it stood after
//     the selected one with both sides' hidden data from the audit's
//     openings, and the verdict; n/p step, v jumps to the first violation, /
//     searches.
//
// Every screen's hint bar is drawn from the same binding table that handles
// its keys (package keys), so it never lies; ? opens the full, searchable
// list. Below 80x24 the interface only says "terminal too small". Colours
// are optional: every state has a glyph, and NO_COLOR selects a monochrome
// theme (package style).
//
// # Concurrency
//
// Everything that draws or handles input runs on the tview goroutine. Other
// goroutines (the referee, the network, timers) never touch screens: they
// hand functions to App.post, a queue drained into QueueUpdateDraw that
// never blocks the caller (so posting from a key handler is safe too). The
// referee's notes carry cloned game snapshots, and the local player's agent
// (board.Human) reaches the board only through post. The referee's Observe
// hook also refreshes the human's copy of the cards a shared deck dealt it
// (board.Human.Refresh), on the referee's goroutine.
//
// # House values
//
// The interface's own choices are constants in house.go: the 80x24 minimum,
// how long a remote human (10 min) or the practice bot (1 min) may take for
// a step, the dial timeout (20 s), the verification pane's widths (27 and 60
// columns), the number of recent matches listed (8), the data-directory
// folder of transcripts ("matches") and the invite file ("invite.txt"), the
// longest list of opponents the title bar names (32 cells, else "3
// opponents") and how long practice bots may take to finish after the
// player (5 s). The
// made-up player names (an adjective and a sea creature chosen by the peer
// ID's hash) are in names.go.
package tui
