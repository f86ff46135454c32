package client

import (
	"context"
	"fmt"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/skillbook"
)

// BuildSkill generalizes reviewed recordings into a skill, saved when no
// question is open.
func (c *Client) BuildSkill(ctx context.Context, req skillbook.BuildRequest) (skillbook.BuildReply, error) {
	var reply skillbook.BuildReply
	err := c.local(ctx, events.LocalSkillBuild, req, &reply, buildTimeout)
	return reply, err
}

// DraftSkill is BuildSkill that saves nothing: the questions still open.
func (c *Client) DraftSkill(ctx context.Context, req skillbook.BuildRequest) (skillbook.BuildReply, error) {
	var reply skillbook.BuildReply
	err := c.local(ctx, events.LocalSkillDraft, req, &reply, draftTimeout)
	return reply, err
}

// ConfirmAnswers keeps answers to a recording's questions on the recording.
func (c *Client) ConfirmAnswers(ctx context.Context, req skillbook.ConfirmRequest) (skillbook.ConfirmReply, error) {
	var reply skillbook.ConfirmReply
	err := c.local(ctx, events.LocalSkillConfirm, req, &reply, skillTimeout)
	return reply, err
}

// Skills lists the skills kept, the newest version of each.
func (c *Client) Skills(ctx context.Context) (skillbook.ListReply, error) {
	var reply skillbook.ListReply
	err := c.local(ctx, events.LocalSkillList, struct{}{}, &reply, skillTimeout)
	return reply, err
}

// Skill returns skill id's document at revision (0: the newest).
func (c *Client) Skill(ctx context.Context, id string, revision uint64) (skillbook.GetReply, error) {
	var reply skillbook.GetReply
	err := c.local(ctx, events.LocalSkillGet, skillbook.GetRequest{SkillID: id, Revision: revision}, &reply, skillTimeout)
	return reply, err
}

// Pending runs op on a skill's proposed revision (skillbook.PendingGet...).
func (c *Client) Pending(ctx context.Context, req skillbook.PendingRequest) (skillbook.PendingReply, error) {
	var reply skillbook.PendingReply
	err := c.local(ctx, events.LocalSkillPending, req, &reply, skillTimeout)
	return reply, err
}

// ReplayKey returns the daemon's replay key: the salt of every run's
// dedupe keys (rows.DedupeKey), the same for every run.
func (c *Client) ReplayKey(ctx context.Context) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, keyTimeout)
	defer cancel()
	salt, err := ops.Ask(ctx, c.nc, events.LocalReplayKey, nil)
	if err != nil {
		return nil, fmt.Errorf("get the replay key from the daemon: %w", err)
	}
	return salt, nil
}
