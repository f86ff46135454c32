package learn

import (
	"net/url"
	"strings"

	"github.com/reprise-dev/reprise/skills"
)

// ProposeDomains lists the hosts a skill's pages were on (its steps' page
// URLs and the URLs it opens), in order, as allowed-domains entries: what
// the demonstrations show the skill needs. A host that cannot be an entry
// (localhost) is left out.
func ProposeDomains(s *skills.Skill) []string {
	var hosts []string
	seen := map[string]bool{}
	add := func(raw string) {
		if strings.Contains(raw, "%") {
			return // filled from a row: not known until then
		}
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			return
		}
		h := strings.ToLower(u.Hostname())
		if h != "" && !seen[h] && skills.CheckDomain(h) == nil {
			seen[h] = true
			hosts = append(hosts, h)
		}
	}
	for _, st := range s.Steps {
		add(st.URL)
		if st.Action == "navigate" {
			add(st.Value)
		}
	}
	return hosts
}
