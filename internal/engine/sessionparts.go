package engine

// A Session's methods are grouped by job into views, as a Target's are (targetparts.go): small
// values holding the session, under its lock; a view holds nothing of its own.

// Settings is what the user asked of a session's debugger, whichever target they asked through:
// breakpoints and logpoints as asked, the exception mode and classes, blackbox patterns and
// hooks (debug.go, throws.go, offline.go and the files of each).
type Settings struct{ s *Session }

// Settings is the session's settings view.
func (s *Session) Settings() Settings { return Settings{s} }

// Tree is a session's process tree beyond its main thread: the registry's queries, the workers
// and child processes followed, and the announcements children make (registry.go, workers.go,
// children.go).
type Tree struct{ s *Session }

// Tree is the session's process tree view.
func (s *Session) Tree() Tree { return Tree{s} }

// Timeline reads a session's recorded events: pages, waits, history and the output a command
// made (session.go, browse.go, execoutput.go, startoutput.go).
type Timeline struct{ s *Session }

// Timeline is the session's event view.
func (s *Session) Timeline() Timeline { return Timeline{s} }
