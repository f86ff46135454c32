package hub

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// MaxRowFiles bounds the bytes of the upload files one row carries to
// the hub's workers: they travel sealed with the row, and the hub keeps
// each on three servers until its run ends. A row over it is refused
// before the run and filed on the coordinator's machine instead.
const MaxRowFiles = 16 << 20

// rowFile is one upload file as it travels: its name (what the page
// sees) and its bytes.
type rowFile struct {
	Name string `msgpack:"name"`
	Data []byte `msgpack:"data"`
}

// filePlace binds a row's sealed files to their run and row.
func filePlace(run string, row int) string { return fmt.Sprintf("files %s/%d", run, row) }

// fileObject is the row's files' name in ObjectsHubFiles.
func fileObject(run string, row int) string { return run + "." + strconv.Itoa(row) }

// fileParams are the skill's upload parameters, whose values are paths.
func fileParams(sk *skills.Skill) []string {
	var names []string
	for _, p := range sk.Parameters {
		if p.Type == events.ValueFile {
			names = append(names, p.Name)
		}
	}
	return names
}

// RowFilesSize is how many bytes of upload files row r carries: its file
// parameters' paths (as the plan resolved them, a line each) summed.
func RowFilesSize(sk *skills.Skill, r replay.Row) (int64, error) {
	var n int64
	for _, p := range fileParams(sk) {
		for path := range strings.Lines(r.Values[p]) {
			fi, err := os.Stat(strings.TrimSpace(path))
			if err != nil {
				return 0, fmt.Errorf("row %d's file for %s: %w", r.N, p, err)
			}
			n += fi.Size()
		}
	}
	return n, nil
}

// putFiles seals row r's upload files on the hub, when it has any, and
// says whether it had.
func (r *Run) putFiles(ctx context.Context, obs jetstream.ObjectStore, row replay.Row) (bool, error) {
	files := map[string][]rowFile{}
	for _, p := range fileParams(r.Plan.Skill) {
		for path := range strings.Lines(row.Values[p]) {
			path = strings.TrimSpace(path)
			if path == "" {
				continue
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return false, fmt.Errorf("row %d's upload files: %w", row.N, err)
			}
			files[p] = append(files[p], rowFile{Name: filepath.Base(path), Data: b})
		}
	}
	if len(files) == 0 {
		return false, nil
	}
	plain, err := events.AppendMsgpack(nil, files)
	if err != nil {
		return false, err
	}
	sealed := r.Key.seal(plain, filePlace(r.Plan.RunID, row.N))
	name := fileObject(r.Plan.RunID, row.N)
	if err := retry(ctx, func() error { _, err := obs.PutBytes(ctx, name, sealed); return err }); err != nil {
		return false, fmt.Errorf("put row %d's upload files on the hub: %w", row.N, err)
	}
	return true, nil
}

// dropFiles removes the run's rows' files from the hub once it has every
// result: what a hub keeps of a person's files, it keeps no longer than
// the run needs them.
func (r *Run) dropFiles(ctx context.Context) {
	obs, err := r.JS.ObjectStore(ctx, events.ObjectsHubFiles)
	if err != nil {
		return
	}
	for _, row := range r.Plan.Rows {
		if err := obs.Delete(ctx, fileObject(r.Plan.RunID, row.N)); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
			return // the hub is going: a resume's end drops them
		}
	}
}

// takeFiles writes row it's upload files into a folder of their own under
// w.Files and points the plan's row at them; done removes the folder.
func (w *Worker) takeFiles(ctx context.Context, it Item, plan *replay.Plan) (done func(), err error) {
	done = func() {}
	if !it.Files {
		return done, nil
	}
	obs, err := w.JS.ObjectStore(ctx, events.ObjectsHubFiles)
	if err != nil {
		return done, fmt.Errorf("the hub's upload files: %w", err)
	}
	var sealed []byte
	if err := retry(ctx, func() (err error) { sealed, err = obs.GetBytes(ctx, fileObject(it.Run, it.Row)); return err }); err != nil {
		return done, fmt.Errorf("row %d of run %s's upload files: %w", it.Row, it.Run, err)
	}
	plain, err := w.Key.open(sealed, filePlace(it.Run, it.Row))
	if err != nil {
		return done, fmt.Errorf("row %d of run %s's upload files: %w", it.Row, it.Run, err)
	}
	var files map[string][]rowFile
	if err := events.Decode(plain, &files); err != nil {
		return done, fmt.Errorf("row %d of run %s's upload files: %w", it.Row, it.Run, err)
	}
	root := cmp.Or(w.Files, filepath.Join(os.TempDir(), "reprise-hub-uploads"))
	if err := os.MkdirAll(root, 0o700); err != nil {
		return done, fmt.Errorf("upload files: %w", err)
	}
	dir, err := os.MkdirTemp(root, "row-")
	if err != nil {
		return done, fmt.Errorf("upload files: %w", err)
	}
	done = func() { _ = os.RemoveAll(dir) }
	values := plan.Rows[0].Values
	n := 0
	for _, p := range fileParams(plan.Skill) {
		var paths []string
		for _, f := range files[p] {
			// A folder a file, so that two files of one name keep it: the
			// page sees the name the person's file had.
			n++
			name := filepath.Base(f.Name)
			if name == "." || name == ".." || name == string(filepath.Separator) {
				name = "file"
			}
			path := filepath.Join(dir, strconv.Itoa(n), name)
			if err := os.Mkdir(filepath.Dir(path), 0o700); err != nil {
				return done, fmt.Errorf("upload files: %w", err)
			}
			if err := os.WriteFile(path, f.Data, 0o600); err != nil {
				return done, fmt.Errorf("upload files: %w", err)
			}
			paths = append(paths, path)
		}
		if len(paths) > 0 {
			values[p] = strings.Join(paths, "\n")
		}
	}
	return done, nil
}
