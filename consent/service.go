package consent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/events"
)

// Subjects of the local approval service. They sit under the local prefix:
// the cli user may request them, the platform's account cannot reach them.
const (
	SubjectList    = events.LocalSubjectPrefix + ".consent.list"
	SubjectApprove = events.LocalSubjectPrefix + ".consent.approve"
	SubjectDeny    = events.LocalSubjectPrefix + ".consent.deny"
	SubjectChoices = events.LocalSubjectPrefix + ".consent.choices"
	SubjectForget  = events.LocalSubjectPrefix + ".consent.forget"
)

// Error codes of the local approval service.
const (
	CodeInvalidRequest = "INVALID_REQUEST"
	CodeNotFound       = "NOT_FOUND"
	CodeInternal       = "INTERNAL"
)

// AnswerRequest is the body of SubjectApprove ({id, remember}) and
// SubjectDeny ({id}).
type AnswerRequest struct {
	ID       string `json:"id"`
	Remember bool   `json:"remember,omitempty"`
}

// ForgetRequest is the body of SubjectForget: one kind, or all.
type ForgetRequest struct {
	Kind string `json:"kind,omitempty"`
	All  bool   `json:"all,omitempty"`
}

// ServiceError is the service's refusal, {"error": {"code", "message"}}.
type ServiceError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error implements error.
func (e *ServiceError) Error() string { return e.Message }

// Reply is every reply of the service; each subject fills its own field.
type Reply struct {
	Error     *ServiceError `json:"error,omitempty"`
	Prompts   []Prompt      `json:"prompts,omitempty"`
	Choices   []Choice      `json:"choices,omitempty"`
	OK        bool          `json:"ok,omitempty"`
	Forgotten int           `json:"forgotten,omitempty"`
}

// serviceTimeout bounds the KV work behind one request.
const serviceTimeout = 5 * time.Second

// Serve answers the local approval service on nc until stop is called:
// listing and answering pending's prompts, and listing and forgetting
// choices (nil choices answers those with an error). Malformed requests get
// an INVALID_REQUEST reply.
func Serve(nc *nats.Conn, pending *Pending, choices Choices) (stop func(), err error) {
	if nc == nil || pending == nil {
		return nil, errors.New("consent service: a connection and a Pending queue are required")
	}
	s := &service{pending: pending, choices: choices}
	handlers := map[string]func(context.Context, []byte) Reply{
		SubjectList: s.list, SubjectApprove: s.approve, SubjectDeny: s.deny,
		SubjectChoices: s.listChoices, SubjectForget: s.forget,
	}
	var subs []*nats.Subscription
	// stop returns once the server has dropped the subscriptions, so a
	// request after it finds no responder rather than waiting for one.
	stop = func() {
		for _, sub := range subs {
			_ = sub.Unsubscribe()
		}
		_ = nc.Flush()
	}
	for subject, h := range handlers {
		sub, err := nc.Subscribe(subject, serveOne(h))
		if err != nil {
			stop()
			return nil, fmt.Errorf("consent service %s: %w", subject, err)
		}
		subs = append(subs, sub)
	}
	if err := nc.Flush(); err != nil {
		stop()
		return nil, fmt.Errorf("consent service: %w", err)
	}
	return stop, nil
}

// serveOne wraps a handler: a bounded context, the JSON reply, and no
// panic reaching the daemon.
func serveOne(h func(context.Context, []byte) Reply) nats.MsgHandler {
	return func(m *nats.Msg) {
		var r Reply
		func() {
			defer func() {
				if p := recover(); p != nil {
					r = failure(CodeInternal, "the consent service failed on this request; see the daemon's log")
				}
			}()
			ctx, cancel := context.WithTimeout(context.Background(), serviceTimeout)
			defer cancel()
			r = h(ctx, m.Data)
		}()
		b, err := json.Marshal(r)
		if err != nil {
			b = []byte(`{"error":{"code":"INTERNAL","message":"could not encode the reply"}}`)
		}
		_ = m.Respond(b)
	}
}

func failure(code, msg string) Reply { return Reply{Error: &ServiceError{Code: code, Message: msg}} }

type service struct {
	pending *Pending
	choices Choices
}

func (s *service) list(_ context.Context, body []byte) Reply {
	if err := decodeBody(body, &struct{}{}, true); err != nil {
		return failure(CodeInvalidRequest, err.Error())
	}
	return Reply{OK: true, Prompts: s.pending.List()}
}

func (s *service) approve(_ context.Context, body []byte) Reply { return s.answer(body, true) }

func (s *service) deny(_ context.Context, body []byte) Reply { return s.answer(body, false) }

func (s *service) answer(body []byte, approve bool) Reply {
	var req AnswerRequest
	if err := decodeBody(body, &req, false); err != nil {
		return failure(CodeInvalidRequest, err.Error())
	}
	if req.ID == "" {
		return failure(CodeInvalidRequest, `id is required: the prompt's id from "reprise consent list"`)
	}
	var err error
	switch {
	case approve:
		err = s.pending.Approve(req.ID, req.Remember)
	case req.Remember:
		return failure(CodeInvalidRequest, "remember goes with approve; a denial is remembered only when given in a dialog")
	default:
		err = s.pending.Deny(req.ID)
	}
	if err != nil {
		return failure(CodeNotFound, err.Error())
	}
	return Reply{OK: true}
}

func (s *service) listChoices(ctx context.Context, body []byte) Reply {
	if err := decodeBody(body, &struct{}{}, true); err != nil {
		return failure(CodeInvalidRequest, err.Error())
	}
	if s.choices == nil {
		return failure(CodeInternal, "this daemon keeps no remembered choices")
	}
	cs, err := s.choices.List(ctx)
	if err != nil {
		return failure(CodeInternal, err.Error())
	}
	return Reply{OK: true, Choices: cs}
}

func (s *service) forget(ctx context.Context, body []byte) Reply {
	var req ForgetRequest
	if err := decodeBody(body, &req, false); err != nil {
		return failure(CodeInvalidRequest, err.Error())
	}
	if (req.Kind == "") == !req.All {
		return failure(CodeInvalidRequest, `give either a kind (see "reprise consent choices") or all, not both`)
	}
	if s.choices == nil {
		return failure(CodeInternal, "this daemon keeps no remembered choices")
	}
	if req.All {
		n, err := s.choices.ForgetAll(ctx)
		if err != nil {
			return failure(CodeInternal, err.Error())
		}
		return Reply{OK: true, Forgotten: n}
	}
	if _, err := ParseKind(req.Kind); err != nil {
		return failure(CodeInvalidRequest, err.Error())
	}
	_, ok, err := s.choices.Get(ctx, req.Kind)
	if err == nil {
		err = s.choices.Forget(ctx, req.Kind)
	}
	if err != nil {
		return failure(CodeInternal, err.Error())
	}
	if !ok {
		return Reply{OK: true}
	}
	return Reply{OK: true, Forgotten: 1}
}

// decodeBody decodes one JSON object into v, refusing unknown fields and
// trailing data. An empty body is allowed when emptyOK.
func decodeBody(body []byte, v any, emptyOK bool) error {
	if len(bytes.TrimSpace(body)) == 0 {
		if emptyOK {
			return nil
		}
		return errors.New("the request body is empty; want a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the request is not the JSON object this subject takes: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("the request has data after its JSON object")
	}
	return nil
}
