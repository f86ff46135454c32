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

// Book is the daemon's skill book as a replay's healing proposes to it
// (session.Book): a healed revision is proposed, then accepted.
func (c *Client) Book() SkillBook { return SkillBook{c} }

// SkillBook is the daemon's skill book, for a run's healed revision.
type SkillBook struct{ c *Client }

// Current is skill id's newest document and its revision.
func (b SkillBook) Current(ctx context.Context, id string) (string, uint64, error) {
	r, err := b.c.Skill(ctx, id, 0)
	return r.YAML, r.Revision, err
}

// Propose keeps doc as skill id's proposed revision, made from base.
func (b SkillBook) Propose(ctx context.Context, id string, base uint64, doc string) error {
	_, err := b.c.Pending(ctx, api.SkillPendingRequest{SkillID: id, Op: api.SkillPendingPropose, Base: base, YAML: doc})
	return err
}

// Accept saves skill id's proposed revision as its newest.
func (b SkillBook) Accept(ctx context.Context, id string) (uint64, error) {
	r, err := b.c.Pending(ctx, api.SkillPendingRequest{SkillID: id, Op: api.SkillPendingAccept})
	return r.Revision, err
}
