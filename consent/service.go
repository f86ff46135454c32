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

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// ServiceName is the approval service's name in `nats micro ls`.
const ServiceName = "reprise-consent"

// serviceTimeout bounds the KV work behind one request.
const serviceTimeout = 5 * time.Second

// Serve answers the local approval service on nc until stop is called:
// listing and answering pending's prompts, and listing and forgetting
// choices (nil choices refuses those). Malformed requests are refused
// INVALID_REQUEST.
func Serve(nc *nats.Conn, pending *Pending, choices Choices) (stop func(), err error) {
	if nc == nil || pending == nil {
		return nil, errors.New("consent service: a connection and a Pending queue are required")
	}
	s := &service{pending: pending, choices: choices}
	ep := func(name, subject string, h func(context.Context, []byte) (api.ConsentReply, error)) ops.Endpoint {
		return ops.Endpoint{Name: name, Subject: subject, Timeout: serviceTimeout, Handle: func(ctx context.Context, body []byte) ([]byte, error) {
			return ops.JSON(h(ctx, body))
		}}
	}
	svc, err := ops.ServeLocal(nc, ops.LocalService{
		Name: ServiceName, Description: "lists and answers consent prompts, and the choices remembered, for the local CLI",
		Endpoints: []ops.Endpoint{
			ep("list", events.LocalConsentList, s.list), ep("approve", events.LocalConsentApprove, s.approve), ep("deny", events.LocalConsentDeny, s.deny),
			ep("choices", events.LocalConsentChoices, s.listChoices), ep("forget", events.LocalConsentForget, s.forget),
		},
	})
	if err != nil {
		return nil, fmt.Errorf("consent service: %w", err)
	}
	return func() { _ = svc.Stop() }, nil
}

func failure(code, msg string) error { return &ops.Error{Code: code, Message: msg} }

type service struct {
	pending *Pending
	choices Choices
}

func (s *service) list(_ context.Context, body []byte) (api.ConsentReply, error) {
	if err := decodeBody(body, &struct{}{}, true); err != nil {
		return api.ConsentReply{}, failure(ops.CodeInvalidRequest, err.Error())
	}
	return api.ConsentReply{OK: true, Prompts: s.pending.List()}, nil
}

func (s *service) approve(_ context.Context, body []byte) (api.ConsentReply, error) {
	return s.answer(body, true)
}

func (s *service) deny(_ context.Context, body []byte) (api.ConsentReply, error) {
	return s.answer(body, false)
}

func (s *service) answer(body []byte, approve bool) (api.ConsentReply, error) {
	var req api.ConsentAnswerRequest
	if err := decodeBody(body, &req, false); err != nil {
		return api.ConsentReply{}, failure(ops.CodeInvalidRequest, err.Error())
	}
	if req.ID == "" {
		return api.ConsentReply{}, failure(ops.CodeInvalidRequest, "id is required: a waiting prompt's id, as the list of them gives it")
	}
	var err error
	switch {
	case approve:
		err = s.pending.Approve(req.ID, req.Remember)
	case req.Remember:
		return api.ConsentReply{}, failure(ops.CodeInvalidRequest, "remember goes with approve; a denial is remembered only when given in a dialog")
	default:
		err = s.pending.Deny(req.ID)
	}
	if err != nil {
		return api.ConsentReply{}, failure(ops.CodeNotFound, err.Error())
	}
	return api.ConsentReply{OK: true}, nil
}

func (s *service) listChoices(ctx context.Context, body []byte) (api.ConsentReply, error) {
	if err := decodeBody(body, &struct{}{}, true); err != nil {
		return api.ConsentReply{}, failure(ops.CodeInvalidRequest, err.Error())
	}
	if s.choices == nil {
		return api.ConsentReply{}, failure(ops.CodeInternal, "this daemon keeps no remembered choices")
	}
	cs, err := s.choices.List(ctx)
	if err != nil {
		return api.ConsentReply{}, failure(ops.CodeInternal, err.Error())
	}
	return api.ConsentReply{OK: true, Choices: cs}, nil
}

func (s *service) forget(ctx context.Context, body []byte) (api.ConsentReply, error) {
	var req api.ConsentForgetRequest
	if err := decodeBody(body, &req, false); err != nil {
		return api.ConsentReply{}, failure(ops.CodeInvalidRequest, err.Error())
	}
	if (req.Kind == "") == !req.All {
		return api.ConsentReply{}, failure(ops.CodeInvalidRequest, "give either a kind (one of the remembered choices) or all, not both")
	}
	if s.choices == nil {
		return api.ConsentReply{}, failure(ops.CodeInternal, "this daemon keeps no remembered choices")
	}
	if req.All {
		n, err := s.choices.ForgetAll(ctx)
		if err != nil {
			return api.ConsentReply{}, failure(ops.CodeInternal, err.Error())
		}
		return api.ConsentReply{OK: true, Forgotten: n}, nil
	}
	if _, err := ParseKind(req.Kind); err != nil {
		return api.ConsentReply{}, failure(ops.CodeInvalidRequest, err.Error())
	}
	_, ok, err := s.choices.Get(ctx, req.Kind)
	if err == nil {
		err = s.choices.Forget(ctx, req.Kind)
	}
	if err != nil {
		return api.ConsentReply{}, failure(ops.CodeInternal, err.Error())
	}
	if !ok {
		return api.ConsentReply{OK: true}, nil
	}
	return api.ConsentReply{OK: true, Forgotten: 1}, nil
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
