package recordings

import (
	"errors"
	"fmt"
	"sync"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/store"
)

// What a sealed message is, bound into its additional data: a captured step
// cannot be replayed as a stored one, nor either moved to another recording
// or position.
const (
	SealCapture = "capture-step"
	SealStep    = "step"
)

// Sealers seal and open a recording's content under its own data key, one
// sealer per recording, made once. The recorder seals with them, the read
// model opens; both share one.
type Sealers struct {
	keys store.KeyStore

	mu      sync.Mutex
	sealers map[string]*store.Sealer
}

// NewSealers returns sealers over the data keys in keys.
func NewSealers(keys store.KeyStore) *Sealers {
	return &Sealers{keys: keys, sealers: map[string]*store.Sealer{}}
}

// sealer returns the recording's sealer, creating its data key on first use
// when create is set.
func (r *Sealers) sealer(recID string, create bool) (*store.Sealer, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.sealers[recID]; ok {
		return s, nil
	}
	name := store.DataKeyName(recID)
	key, err := r.keys.Get(name)
	if errors.Is(err, store.ErrKeyNotFound) && create {
		if key, err = store.NewDataKey(); err == nil {
			err = r.keys.Put(name, key)
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

// Forget deletes the recording's data key: crypto-erase.
func (r *Sealers) Forget(recID string) error {
	r.mu.Lock()
	delete(r.sealers, recID)
	r.mu.Unlock()
	return r.keys.Delete(store.DataKeyName(recID))
}

// SealStep encodes and seals a step as kind.
func (r *Sealers) SealStep(recID, kind string, s *events.Step) ([]byte, error) {
	sl, err := r.sealer(recID, kind == SealCapture)
	if err != nil {
		return nil, err
	}
	plain, err := events.AppendMsgpack(nil, s)
	if err != nil {
		return nil, err
	}
	return sl.Seal(s.Seq, kind, plain), nil
}

// OpenStep opens and decodes a sealed step message of kind. The step's seq
// comes from the message's dedupe id (<rec_id>:<seq>[:...]), which carries
// no content.
func (r *Sealers) OpenStep(recID, kind string, m jetstream.Msg) (*events.Step, error) {
	seq, err := events.StepSeq(recID, m.Headers().Get(jetstream.MsgIDHeader))
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

// SealFrame seals a frame's image, bound to its recording and reference.
func (r *Sealers) SealFrame(recID, ref string, image []byte) ([]byte, error) {
	sl, err := r.sealer(recID, true)
	if err != nil {
		return nil, err
	}
	return sl.Seal(0, "frame:"+ref, image), nil
}

// OpenFrame opens a sealed frame of the recording.
func (r *Sealers) OpenFrame(recID, ref string, sealed []byte) ([]byte, error) {
	sl, err := r.sealer(recID, false)
	if err != nil {
		return nil, err
	}
	return sl.Open(0, "frame:"+ref, sealed)
}
