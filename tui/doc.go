// Package tui is Salvo's terminal interface, built on tview: the lobby (LAN
// peers, practice, host, join, recent matches, audits), the host and join
// screens with invite codes, the match screen (a game's board, the event
// feed, the verification log, the status and key-hint bars, the cheat panel), and the
// audit viewer.
//
// # Screens
//
//   - Lobby: the Play menu, the Salvo peers mDNS finds on the LAN (join the
//     game one offers, or invite an idle one), and the recent matches in the
//     data directory, each re-audited in the background. Network matches
//     in progress (session.Store.List) come first, marked "▶ resume": enter
//     takes one up again after this program or the other player's stopped
//     (session.Resume, with the player's own hidden data drawn again from
//     the commitments its transcript lists).
//   - Host: the invite code (package invite; copy with c, also written to
//     the data directory, and made again when the host's addresses change,
//     such as when a relay reservation comes through), whether the host is
//     reachable (AutoNAT: public, behind a NAT, the relays it is reachable
//     through) and what the host is doing while it waits.
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
//   - Network matches of two (host, join, invitations) run over session's
//     reconnecting transport (Match.PlayNet, the transcript, secrets and
//     peer record in the data directory's matches folder, which is
//     session.Store's): a dropped link is re-dialled and resumed with no
//     message lost while the title bar says "reconnecting · 23 s, gives up
//     in 1:37" and the wait line names who is gone; a dead link shows
//     within seconds (libp2p pings, p2p.Liveness), and a peer that stays
//     away for the give-up time (Config.GiveUp, 2 min by default)
//     forfeits, and the end screen says so. At a table the title and the
//     wait line name each player that is gone, with the same countdown
//     (liveness.go), and a seat the match waits for past give-up forfeits. Quitting the program (or its being stopped) only suspends the
//     match: it resumes from the lobby. Leaving on purpose (q, confirmed)
//     is a forfeit at once: the referee stops as a stopping program's
//     would, then our own signed forfeit (a "left" closing record) is
//     appended to our transcript and handed to the other peer on a fresh
//     resume stream, with the protocol's resume handshake and end frame
//     (session.Leave), so its referee records that same record at once
//     instead of waiting out the give-up time, and both transcripts end
//     alike; the store marks the match ended, so it is not offered for
//     resuming. Leaving practice or a table also signs our forfeit into
//     our own transcript (session.WriteAdmission).
//   - Match: the title bar (game, opponent, whose turn, connection kind as
//     it changes: LAN direct, direct, relayed, hole-punched,
//     reconnecting, gossipsub for tables, loopback for practice; the
//     round-trip time, sequence number and hash agreement), the game's board
//     (package board; U-Build's is package ubuildview), the event feed (every
//     move of every player and bot and what came of it, in the board's words:
//     board.Narrator; v shows all of it), the verification log
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
// from the note's copy of the seat's secrets (board.Human.Refresh), so a
// dealt hand shows before the player is asked anything. A network match's
// transport is read for the title bar by two goroutines (its kind every
// KindEvery, its round-trip time every RTTEvery) that post what they read.
//
// # House values
//
// The interface's own choices are constants in house.go: the 80x24 minimum,
// how long a remote human (10 min) or the practice bot (1 min) may take for
// a step, the dial timeout (20 s), how often a network match reads its
// connection kind (200 ms) and round-trip time (3 s), how long telling the
// other player that we left may take (10 s), the verification pane's
// widths (27 and 60 columns), the number of recent matches listed (8), the data-directory
// folder of transcripts ("matches") and the invite file ("invite.txt"), the
// longest list of opponents the title bar names (32 cells, else "3
// opponents") and how long practice bots may take to finish after the
// player (5 s). The
// made-up player names (an adjective and a sea creature chosen by the peer
// ID's hash) are in names.go.
package tui
