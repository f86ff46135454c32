package doctor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/extract"
	"github.com/reprise-dev/reprise/internal/chromium"
	"github.com/reprise-dev/reprise/store"
)

// DataDir checks that the data dir exists or can be made, and is writable.
func DataDir(home string) Probe {
	return func(context.Context) Check {
		c := Check{Name: "data dir"}
		if err := os.MkdirAll(home, 0o700); err != nil {
			c.Detail, c.Fix = fmt.Sprintf("%s cannot be created: %v", home, err), "set REPRISE_HOME to a writable folder"
			return c
		}
		f, err := os.CreateTemp(home, ".doctor-*")
		if err != nil {
			c.Detail, c.Fix = fmt.Sprintf("%s is not writable: %v", home, err), "set REPRISE_HOME to a writable folder"
			return c
		}
		f.Close()
		os.Remove(f.Name())
		if loose := store.Loose(home); len(loose) > 0 {
			c.Detail = "readable by other users: " + strings.Join(loose, ", ")
			c.Fix = "run `chmod -R go-rwx " + home + "` (the daemon does it at its next start); its keys may have been read"
			return c
		}
		c.OK, c.Detail = true, home+" (private to you)"
		return c
	}
}

// Daemon reports whether a daemon answers, through status.
func Daemon(status func() (string, error)) Probe {
	return answered("daemon", "start it with `reprise daemon` (or `make demo`)", status)
}

// answered is a check whose detail comes from f, failed with fix when f
// returns an error.
func answered(name, fix string, f func() (string, error)) Probe {
	return func(context.Context) Check {
		c := Check{Name: name}
		detail, err := f()
		if err != nil {
			c.Detail, c.Fix = err.Error(), fix
			return c
		}
		c.OK, c.Detail = true, detail
		return c
	}
}

// Keychain checks the OS keychain with a real round trip of a throwaway item,
// as the daemon does at start, and says which store the data dir home keeps
// its keys in: the one recorded at its first start, whatever answers now.
func Keychain(home string) Probe {
	return func(context.Context) Check {
		c := Check{Name: "keychain"}
		dir := filepath.Join(home, "keys")
		which, err := store.RecordedKeyStore(dir)
		if err != nil {
			c.Detail, c.Fix = err.Error(), "write "+store.KeyStoreKeychain+" or "+store.KeyStoreFile+" in it: where this data dir's keys are"
			return c
		}
		if keyFiles, _ := filepath.Glob(filepath.Join(dir, "*.key")); which == "" && len(keyFiles) > 0 {
			which = store.KeyStoreFile // as the daemon records at its next start
		}
		ok, why := store.KeyringKeyStore{}.Probe()
		switch {
		case which == store.KeyStoreFile:
			c.OK, c.Detail = true, "this data dir keeps its keys in files readable only by you under "+dir+" (chosen at its first start)"
			if ok {
				c.Detail += "; an OS keychain answers now, but a data dir does not switch"
			}
		case which == store.KeyStoreKeychain && !ok:
			c.Detail = "this data dir's keys are in the OS keychain, which does not answer (" + why + "): the daemon waits " + store.KeychainWait.String() + " for it, then refuses to start"
			c.Fix = keychainFix
		case which == store.KeyStoreKeychain:
			c.OK, c.Detail = true, "the OS keychain answers; this data dir keeps its keys there"
		case !ok:
			c.Detail = "no OS keychain (" + why + "): the daemon keeps keys in files readable only by you"
			c.Fix = keychainFix
		default:
			c.OK, c.Detail = true, "the OS keychain answers; the daemon keeps its keys there"
		}
		return c
	}
}

// Probes returns every check for this OS; status asks the daemon serving
// the data dir home how it is.
func Probes(home string, status func() (api.Status, error)) []Probe {
	ps := []Probe{DataDir(home), Daemon(running(status)), Store(stored(status)), Keychain(home)}
	ps = append(ps, platformProbes()...)
	return append(ps,
		OCR(),
		Documents,
		func(context.Context) Check {
			return Check{Name: "capture: browser extension", OK: true, Detail: "load it from `reprise extension path` and pair it with `reprise extension pair`"}
		},
		ReplayBrowser,
	)
}

// running is what Daemon reports of the daemon status asks: its process
// and machine.
func running(status func() (api.Status, error)) func() (string, error) {
	return func() (string, error) {
		st, err := status()
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("running, pid %d, machine %s", st.PID, st.MachineID), nil
	}
}

// stored is what Store reports of the daemon status asks: its store's
// check and its disk, or what is wrong with them. A daemon not running
// checks the store when it starts.
func stored(status func() (api.Status, error)) func() (string, error) {
	return func() (string, error) {
		st, err := status()
		if err != nil {
			return "checked by the daemon when it starts (not running)", nil
		}
		if err := st.StoreProblem(); err != nil {
			return "", err
		}
		return st.StoreState() + "; " + st.DiskState(), nil
	}
}

// Store reports the daemon's read-back of its stored recordings: store
// returns what it found, or an error naming the damaged ones.
func Store(store func() (string, error)) Probe {
	return answered("store", "those recordings cannot be fetched or built: record the tasks again; the others are unaffected", store)
}

// Documents checks the reprise-fitz helper that reads the documents a step
// opens or uploads.
func Documents(context.Context) Check {
	c := Check{Name: "documents"}
	ok, why := extract.DocumentsAvailable()
	if !ok {
		c.Detail, c.Fix = why, "build it with `make build` (it needs a C compiler), next to the reprise binary"
		return c
	}
	c.OK, c.Detail = true, "reprise-fitz reads PDF and the other formats MuPDF opens, in its own process"
	return c
}

// ReplayBrowser checks what the browser executor needs: a Chromium to drive.
func ReplayBrowser(context.Context) Check {
	c := Check{Name: "replay: browser"}
	if _, err := chromium.Find(); err != nil {
		c.Detail, c.Fix = err.Error(), "install Chromium (Debian: apt-get install chromium) or Google Chrome"
		return c
	}
	c.OK, c.Detail = true, "`reprise replay` drives its own Chromium (profile in the data dir), or one you run (--browser-url)"
	if shell, ok := chromium.FindShell(); ok {
		c.Detail += "; headless, in " + shell
	} else {
		c.Detail += "; headless in Chromium itself (chromium-headless-shell would take about half the CPU per row)"
	}
	return c
}
