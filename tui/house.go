package tui

import "time"

// House values of the interface: everything the brief and the UX notes
// leave open. Change them here and nowhere else.
const (
	// MinWidth and MinHeight are the smallest terminal the screens are laid
	// out for; below it the interface says so instead of drawing.
	MinWidth  = 80
	MinHeight = 24

	// HumanTimeout is how long a human opponent may take for one step
	// before forfeiting (a fleet placement takes a while).
	HumanTimeout = 10 * time.Minute
	// BotTimeout is the same limit for the practice bot.
	BotTimeout = time.Minute
	// ConnectTimeout bounds dialing a peer and opening the match stream.
	ConnectTimeout = 20 * time.Second
	// TickEvery is how often waiting screens redraw (spinner, timers).
	TickEvery = 500 * time.Millisecond
	// RTTEvery is how often a live match measures the round-trip time.
	RTTEvery = 3 * time.Second
	// KindEvery is how often a live network match reads the connection
	// kind for the title bar (so that "reconnecting" shows at once).
	KindEvery = 200 * time.Millisecond
	// LeaveNotifyTimeout bounds telling the other player, after leaving a
	// live match on purpose, that the match is over here (the resume
	// handshake and the end frame on a fresh stream).
	LeaveNotifyTimeout = 10 * time.Second
	// LogWidth and LogWideWidth are the verification pane's widths, normal
	// and widened with l.
	LogWidth     = 27
	LogWideWidth = 60
	// StatusRows is how many rows a match's prompt line may take: a
	// second when a refusal, a long name or a path would push its end off
	// the screen (the board gives up that row only then).
	StatusRows = 2
	// RecentRecords is how many recent match records the lobby lists.
	RecentRecords = 8
	// MatchesDir is the folder of the data directory that keeps match
	// transcripts.
	MatchesDir = "matches"
	// InviteFile is the file of the data directory the host screen writes
	// the invite code to, for copying when the terminal has no clipboard.
	InviteFile = "invite.txt"
	// DefaultBot is the practice bot's level.
	DefaultBot = "strong"
	// MaxOpponentsText is the longest list of opponents' names the title
	// bar shows; a longer one becomes "3 opponents".
	MaxOpponentsText = 32
	// BotsGrace is how long the bots of a practice table may take to finish
	// once the player's own match is over, before they are stopped (a
	// player who left would otherwise keep them waiting out their timeout).
	BotsGrace = 5 * time.Second
)
