package client

import (
	"context"
	"fmt"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// BuildSkill generalizes reviewed recordings into a skill, saved when no
// question is open.
func (c *Client) BuildSkill(ctx context.Context, req api.SkillBuildRequest) (api.SkillBuildReply, error) {
	var reply api.SkillBuildReply
	err := c.local(ctx, events.LocalSkillBuild, req, &reply, buildTimeout)
	return reply, err
}

// DraftSkill is BuildSkill that saves nothing: the questions still open.
func (c *Client) DraftSkill(ctx context.Context, req api.SkillBuildRequest) (api.SkillBuildReply, error) {
	var reply api.SkillBuildReply
	err := c.local(ctx, events.LocalSkillDraft, req, &reply, draftTimeout)
	return reply, err
}

// ConfirmAnswers keeps answers to a recording's questions on the recording.
func (c *Client) ConfirmAnswers(ctx context.Context, req api.SkillConfirmRequest) (api.SkillConfirmReply, error) {
	var reply api.SkillConfirmReply
	err := c.local(ctx, events.LocalSkillConfirm, req, &reply, skillTimeout)
	return reply, err
}

// Skills lists the skills kept, the newest version of each.
func (c *Client) Skills(ctx context.Context) (api.SkillListReply, error) {
	var reply api.SkillListReply
	err := c.local(ctx, events.LocalSkillList, struct{}{}, &reply, skillTimeout)
	return reply, err
}

// Skill returns skill id's document at revision (0: the newest).
func (c *Client) Skill(ctx context.Context, id string, revision uint64) (api.SkillGetReply, error) {
	var reply api.SkillGetReply
	err := c.local(ctx, events.LocalSkillGet, api.SkillGetRequest{SkillID: id, Revision: revision}, &reply, skillTimeout)
	return reply, err
}

// Pending runs op on a skill's proposed revision (api.SkillPendingGet...).
func (c *Client) Pending(ctx context.Context, req api.SkillPendingRequest) (api.SkillPendingReply, error) {
	var reply api.SkillPendingReply
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
