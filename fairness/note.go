package fairness

// Dir is what one note of the verification log reports: a message that
// went out or came in, an input staged, a wait, the others lost, the end.
// Interfaces and tools tell notes apart by it (which to count, when the
// match is over), so it is a closed set of constants, never free text.
type Dir string

// The directions of a note.
const (
	DirOut   Dir = "out"   // a message of the local seat, signed and sent
	DirIn    Dir = "in"    // another seat's message, checked and accepted
	DirLocal Dir = "local" // an input of the local seat, staged for its next message
	DirWait  Dir = "wait"  // the match waits for another seat (Note.Need, Note.Wait)
	DirLost  Dir = "lost"  // the others are gone while the local seat owes a move
	DirStop  Dir = "stop"  // the match ended, by its rules or by a closing record
)
