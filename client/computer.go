package client

import (
	"cmp"
	"context"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

const computerTimeout = 15 * time.Second

// Targets lists this desktop's windows, the refused ones with why.
func (c *Client) Targets(ctx context.Context) ([]api.Target, error) {
	var reply api.TargetListReply
	err := c.local(ctx, events.LocalComputerTargets, nil, &reply, computerTimeout)
	return reply.Targets, err
}

// Grant issues the person's grant on this desktop.
func (c *Client) Grant(ctx context.Context, req api.CreateGrantRequest) (api.GrantReply, error) {
	var reply api.GrantReply
	// The daemon waits for the person to confirm it.
	err := c.local(ctx, events.LocalComputerGrant, req, &reply, api.GrantConfirmWait+30*time.Second)
	return reply, err
}

// ActiveGrant describes the active grant; Active is false without one.
func (c *Client) ActiveGrant(ctx context.Context) (api.GrantReply, error) {
	var reply api.GrantReply
	err := c.local(ctx, events.LocalComputerDescribe, nil, &reply, computerTimeout)
	return reply, err
}

// Revoke ends grant id.
func (c *Client) Revoke(ctx context.Context, id string) error {
	return c.local(ctx, events.LocalComputerRevoke, api.RevokeRequest{GrantID: id}, nil, computerTimeout)
}

// StopComputer is the person's Stop: it answers the grant it revoked, if any.
func (c *Client) StopComputer(ctx context.Context) (api.GrantReply, error) {
	var reply api.GrantReply
	err := c.local(ctx, events.LocalComputerStop, nil, &reply, computerTimeout)
	return reply, err
}

// RunScript runs a desktop script through the active grant. A refusal
// before the run is the error; a script that failed is the reply's Error.
// The reply is COMPUTER_RUN's: the local service answers in its shape.
func (c *Client) RunScript(ctx context.Context, req api.ScriptRunRequest) (ops.ComputerRunResult, error) {
	var reply ops.ComputerRunResult
	timeout := cmp.Or(req.Timeout, api.ScriptDefaultTimeout)
	err := c.local(ctx, events.LocalComputerRun, req, &reply, min(timeout, api.ScriptMaxTimeout)+15*time.Second)
	return reply, err
}

// ComputerRun sends COMPUTER_RUN, the wire op a platform runs a desktop
// script with; refused without the person's grant.
func (c *Client) ComputerRun(ctx context.Context, req ops.ComputerRunRequest) (ops.ComputerRunResult, error) {
	var out ops.ComputerRunResult
	err := c.call(ctx, ops.TypeComputerRun, req, &out, api.ScriptMaxTimeout+15*time.Second)
	return out, err
}

// HoldGrant takes a program's grant for a replay on this desktop: refused
// during Stop's cooldown and while another grant is active.
func (c *Client) HoldGrant(ctx context.Context, req api.HoldRequest) (api.GrantReply, error) {
	var reply api.GrantReply
	err := c.local(ctx, events.LocalComputerHold, req, &reply, computerTimeout)
	return reply, err
}

// Allow authorizes one input under grant id right before it is sent.
func (c *Client) Allow(ctx context.Context, id string, in api.Intent) error {
	return c.local(ctx, events.LocalComputerAllow, api.AllowRequest{GrantID: id, Intent: in}, nil, computerTimeout)
}
