package recorder

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/store"
)

// What a sealed message is, bound into its additional data: a captured step
// cannot be replayed as a stored one, nor either moved to another recording
// or position.
const (
	sealCapture = "capture-step"
	sealStep    = "step"
)

// sealer returns the recording's sealer, creating its data key on first use
// when create is set.
func (r *Recorder) sealer(recID string, create bool) (*store.Sealer, error) {
	r.sealMu.Lock()
	defer r.sealMu.Unlock()
	if s, ok := r.sealers[recID]; ok {
		return s, nil
	}
	name := store.DataKeyName(recID)
	key, err := r.cfg.Keys.Get(name)
	if errors.Is(err, store.ErrKeyNotFound) && create {
		if key, err = store.NewDataKey(); err == nil {
			err = r.cfg.Keys.Put(name, key)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("data key of %s: %w", recID, err)
	}
	s, err := store.NewSealer(key, recID)
	if err != nil {
		return nil, err
	}
	r.sealers[recID] = s
	return s, nil
}

// forgetKey deletes the recording's data key: crypto-erase.
func (r *Recorder) forgetKey(recID string) error {
	r.sealMu.Lock()
	delete(r.sealers, recID)
	r.sealMu.Unlock()
	return r.cfg.Keys.Delete(store.DataKeyName(recID))
}

// sealStepBytes encodes and seals a step as kind.
func (r *Recorder) sealStepBytes(recID, kind string, s *events.Step) ([]byte, error) {
	sl, err := r.sealer(recID, kind == sealCapture)
	if err != nil {
		return nil, err
	}
	plain, err := events.AppendMsgpack(nil, s)
	if err != nil {
		return nil, err
	}
	return sl.Seal(s.Seq, kind, plain), nil
}

// openStep opens and decodes a sealed step message of kind. The step's seq
// comes from the message's dedupe id (<rec_id>:<seq>[:...]), which carries
// no content.
func (r *Recorder) openStep(recID, kind string, m jetstream.Msg) (*events.Step, error) {
	seq, err := seqFromMsgID(recID, m.Headers().Get(jetstream.MsgIDHeader))
	if err != nil {
		return nil, err
	}
	sl, err := r.sealer(recID, false)
	if err != nil {
		return nil, err
	}
	plain, err := sl.Open(seq, kind, m.Data())
	if err != nil {
		return nil, fmt.Errorf("open step %d of %s: %w", seq, recID, err)
	}
	s, err := events.DecodeStep(plain)
	if err != nil {
		return nil, err
	}
	if s.Seq != seq {
		return nil, fmt.Errorf("step %d of %s is stored as step %d", s.Seq, recID, seq)
	}
	return s, nil
}

func seqFromMsgID(recID, id string) (uint64, error) {
	rest, ok := strings.CutPrefix(id, recID+":")
	if !ok {
		return 0, fmt.Errorf("message id does not name recording %s", recID)
	}
	n, _, _ := strings.Cut(rest, ":")
	seq, err := strconv.ParseUint(n, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("message id of %s has no step seq", recID)
	}
	return seq, nil
}

// sealFrame seals a frame's image, bound to its recording and reference.
func (r *Recorder) sealFrame(recID, ref string, image []byte) ([]byte, error) {
	sl, err := r.sealer(recID, true)
	if err != nil {
		return nil, err
	}
	return sl.Seal(0, "frame:"+ref, image), nil
}
