package session

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/hub"
	"github.com/reprise-dev/reprise/skills"
)

// Hub is the hub a run's rows go to, or a worker takes them from, as this
// machine reaches it.
type Hub struct {
	// URLs are the hub's NATS URLs, comma separated, without credentials.
	URLs        string
	Credentials hub.Credentials
	// Name is the run's connection name on the hub (default "reprise
	// replay"); a worker's is its own name.
	Name string
	Key  *hub.Key
	// Ledger is the coordinator's record of grants on this machine's disk.
	Ledger string
}

// NewHub is the hub at urls for the data dir home: its key read from
// keyFile (default hub.key in home), made there on first use when create
// (the machine that starts runs makes it; a worker's is a copy); its
// credentials from credentialsFile, else the environment's
// hub.CredentialsEnv; the ledger in home.
func NewHub(home, urls, keyFile, credentialsFile string, create bool) (*Hub, error) {
	if keyFile == "" {
		keyFile = filepath.Join(home, "hub.key")
	}
	key, err := hub.LoadKey(keyFile, create)
	if err != nil {
		return nil, err
	}
	return &Hub{URLs: urls, Key: key, Ledger: filepath.Join(home, "hub-ledger"),
		Credentials: hub.Credentials{File: credentialsFile, Env: os.Getenv(hub.CredentialsEnv)}}, nil
}

// hubFiles takes out of rows those whose upload files are over what a
// row carries to a hub's workers (hub.MaxRowFiles): reported failed, not
// run, to be filed on this machine.
func hubFiles(sk *skills.Skill, rows []replay.Row) (keep []replay.Row, refused []replay.RowResult, err error) {
	for _, r := range rows {
		n, err := hub.RowFilesSize(sk, r)
		if err != nil {
			return nil, nil, err
		}
		if n > hub.MaxRowFiles {
			refused = append(refused, replay.RowResult{N: r.N, Outcome: replay.OutcomeFailed, Step: -1,
				Reason: fmt.Sprintf("not run: its upload files are %.1f MB, over the %d MB a row carries to a hub's workers: file it on this machine", float64(n)/(1<<20), hub.MaxRowFiles>>20)})
			continue
		}
		keep = append(keep, r)
	}
	return keep, refused, nil
}
