package main

import (
	"fmt"
	"path/filepath"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui"
)

// dataDir is the data directory this process claimed: its own identity,
// match store and log, even when other players run on the same machine.
type dataDir struct {
	path    string
	profile int // 1 for the data directory itself, N for players/N
	release func()
}

// claimDataDir claims the first free profile of the data directory
// ($SALVO_HOME; see p2p.DataDir and p2p.ClaimDataDir).
func claimDataDir() (*dataDir, error) {
	base, err := p2p.DataDir()
	if err != nil {
		return nil, err
	}
	path, profile, release, err := p2p.ClaimDataDir(base)
	if err != nil {
		return nil, err
	}
	return &dataDir{path: path, profile: profile, release: release}, nil
}

// key loads the directory's persistent identity, creating it the first
// time, so the peer ID survives restarts (a resumed match needs it).
func (d *dataDir) key() (crypto.PrivKey, error) {
	k, err := p2p.LoadOrCreateIdentity(filepath.Join(d.path, p2p.IdentityFile))
	if err != nil {
		return nil, fmt.Errorf("identity: %w", err)
	}
	return k, nil
}

// store is the directory's store of network matches (the interface's too).
func (d *dataDir) store() session.Store {
	return session.Store{Dir: filepath.Join(d.path, tui.MatchesDir)}
}
