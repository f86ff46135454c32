package learn

import (
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/skills"
)

func TestProposeDomains(t *testing.T) {
	s := &skills.Skill{Steps: []skills.Step{
		{Action: "navigate", Value: "https://app.example.com/new"},
		{Action: "fill", URL: "https://app.example.com/new"},
		{Action: "click", URL: "https://sso.example.com/login"},
		{Action: "navigate", Value: "https://%tenant%.example.com/"},
		{Action: "click", URL: "http://localhost:8080/"},
		{Action: "click", URL: "http://127.0.0.1:8080/x"},
		{Action: "click", URL: "file:///tmp/x.html"},
	}}
	if got := strings.Join(ProposeDomains(s), ","); got != "app.example.com,sso.example.com,127.0.0.1" {
		t.Errorf("ProposeDomains = %s", got)
	}
}
