package skills

import (
	"strings"
	"testing"
)

// TestParseBrowserErrors puts a browser section before base's steps (line
// 8) and checks that every malformed option is refused at its line.
func TestParseBrowserErrors(t *testing.T) {
	tests := []struct{ name, section, want string }{
		{"scheme", "browser:\n  allowed_domains: [https://example.com]\n",
			`line 9: browser.allowed_domains[0]: "https://example.com" has a scheme: write the host only`},
		{"port", "browser:\n  allowed_domains: [example.com:8080]\n",
			`line 9: browser.allowed_domains[0]: "example.com:8080" has a port: write the host only`},
		{"path", "browser:\n  allowed_domains: [example.com/shop]\n",
			`line 9: browser.allowed_domains[0]: "example.com/shop" has a path: write the host only`},
		{"inner star", "browser:\n  allowed_domains: [example.com, 'shop.*.example.com']\n",
			`line 9: browser.allowed_domains[1]: "shop.*.example.com": a '*' may only open the entry, as in *.example.com`},
		{"one label", "browser:\n  allowed_domains: [localhost]\n",
			`line 9: browser.allowed_domains[0]: "localhost" has one label: name a whole domain such as example.com`},
		{"star of one label", "browser:\n  allowed_domains: ['*.com']\n",
			`line 9: browser.allowed_domains[0]: "*.com" has one label: name a whole domain such as example.com`},
		{"ip subdomains", "browser:\n  allowed_domains: ['*.127.0.0.1']\n",
			`line 9: browser.allowed_domains[0]: "*.127.0.0.1": an IP address has no subdomains`},
		{"bad label", "browser:\n  allowed_domains: [exa_mple.com]\n",
			`line 9: browser.allowed_domains[0]: "exa_mple.com" is not a host name`},
		{"screenshots", "browser:\n  screenshots: always\n",
			`line 9: browser.screenshots: unknown policy "always" (on_failure, final, each, never)`},
		{"viewport", "browser:\n  viewport: {width: 10, height: 800}\n",
			`line 9: browser.viewport: want a width and height from 200 to 7680x4320 pixels, not 10x800`},
		{"viewport field", "browser:\n  viewport: {width: 800, depth: 800}\n",
			`line 9: browser.viewport.depth: unknown field; known fields are width, height`},
		{"proxy scheme", "browser:\n  proxy: ftp://proxy.example.com:21\n",
			`line 9: browser.proxy: scheme "ftp": want http, https or socks5`},
		{"proxy credentials", "browser:\n  proxy: http://me:pw@proxy.example.com:3128\n",
			`line 9: browser.proxy: a proxy that needs credentials is not supported: name one without`},
		{"proxy port", "browser:\n  proxy: proxy.example.com:99999\n",
			`line 9: browser.proxy: port "99999" is not 1-65535`},
		{"headless", "browser:\n  headless: sometimes\n",
			`line 9: browser.headless: want true or false`},
		{"profile", "browser:\n  profile: ../other\n",
			`line 9: browser.profile: "../other" is not a profile name: letters, digits, '-' and '_', up to 64`},
		{"unknown option", "browser:\n  sandbox: false\n",
			`line 9: browser.sandbox: unknown field; known fields are headless, executable, viewport, proxy, allowed_domains, screenshots, profile, client_certificates, trusted_cas`},
		{"cert both forms", "browser:\n  client_certificates:\n    - {hosts: [bank.example.com], pfx_file: a.p12, cert_file: a.pem, key_file: a.key}\n",
			`line 10: browser.client_certificates[0]: give either pfx_file (with passphrase_key) or cert_file and key_file`},
		{"cert no hosts", "browser:\n  client_certificates:\n    - {hosts: [], pfx_file: a.p12}\n",
			`line 10: browser.client_certificates[0]: hosts: name at least one host`},
		{"cert bad host", "browser:\n  client_certificates:\n    - {hosts: ['bank.*'], cert_file: a.pem, key_file: a.key}\n",
			`line 10: browser.client_certificates[0]: hosts: "bank.*": a '*' may only open the entry, as in *.example.com`},
		{"cert pem passphrase", "browser:\n  client_certificates:\n    - {hosts: ['*'], cert_file: a.pem, key_file: a.key, passphrase_key: bank}\n",
			`line 10: browser.client_certificates[0]: passphrase_key is for a pfx_file: a PEM key_file is read unencrypted`},
		{"cert pem half", "browser:\n  client_certificates:\n    - {hosts: ['*'], cert_file: a.pem}\n",
			`line 10: browser.client_certificates[0]: a PEM certificate needs both cert_file and key_file`},
		{"proxy and certificates", "browser:\n  proxy: http://proxy.example.com:3128\n  trusted_cas:\n    - {hosts: [intranet.example.com], ca_file: corp.pem}\n",
			`line 9: browser.proxy: a proxy together with client_certificates or trusted_cas is not supported yet: drop one`},
		{"ca no file", "browser:\n  trusted_cas:\n    - {hosts: [intranet.example.com]}\n",
			`line 10: browser.trusted_cas[0].ca_file: is missing: the PEM file of authorities to trust`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := strings.Replace(base, "steps:\n", tt.section+"steps:\n", 1)
			_, err := Parse([]byte(doc))
			if err == nil || err.Error() != tt.want {
				t.Errorf("Parse = %v\nwant    %s", err, tt.want)
			}
		})
	}
}

func TestParseBrowserSection(t *testing.T) {
	section := `browser:
  headless: false
  executable: /opt/chrome/chrome
  viewport: {width: 1920, height: 1080}
  allowed_domains: [app.example.test, '*.cdn.example.test', 127.0.0.1]
  screenshots: each
  profile: books
  client_certificates:
    - {hosts: ['*.bank.example'], pfx_file: me.p12, passphrase_key: bank-cert}
    - {hosts: ['*'], cert_file: me.pem, key_file: me.key, ca_file: ca.pem}
  trusted_cas:
    - {hosts: [intranet.example.test], ca_file: corp.pem}
`
	s, err := Parse([]byte(strings.Replace(base, "steps:\n", section+"steps:\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	b := s.Browser
	if b.IsHeadless() || b.ShotPolicy() != ShotsEach || b.Viewport.Width != 1920 || len(b.AllowedDomains) != 3 ||
		b.ClientCertificates[0].PassphraseKey != "bank-cert" || b.TrustedCAs[0].CAFile != "corp.pem" || b.Profile != "books" {
		t.Errorf("browser section = %+v", b)
	}
	out, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse(out)
	if err != nil {
		t.Fatalf("Parse(Marshal) = %v\n%s", err, out)
	}
	if len(again.Browser.ClientCertificates) != 2 || again.Browser.Proxy != b.Proxy {
		t.Errorf("round trip lost the browser section:\n%s", out)
	}
	var none *Browser
	if !none.IsHeadless() || none.ShotPolicy() != ShotsOnFailure {
		t.Error("no browser section: want headless, screenshots on failure")
	}
}

func TestUploadAndOutputSteps(t *testing.T) {
	upload := strings.Replace(base, "  - action: submit\n", "  - action: upload\n    label: Receipt\n  - action: submit\n", 1)
	if _, err := Parse([]byte(upload)); err == nil || !strings.Contains(err.Error(), "steps[2].value: an upload step needs its files") {
		t.Errorf("upload without files: %v", err)
	}
	dialog := strings.Replace(base, "    destructive: true\n", "    destructive: true\n    dialog: maybe\n", 1)
	if _, err := Parse([]byte(dialog)); err == nil || !strings.Contains(err.Error(), `steps[2].dialog: unknown answer "maybe" (accept, dismiss)`) {
		t.Errorf("a bad dialog answer: %v", err)
	}
	output := strings.Replace(base, "    label: First Name\n", "    label: First Name\n    output: true\n", 1)
	if _, err := Parse([]byte(output)); err == nil || !strings.Contains(err.Error(), "steps[1].output: only a click, submit or navigate step") {
		t.Errorf("output on a fill: %v", err)
	}
}

func TestAskSteps(t *testing.T) {
	ask := "  - action: ask\n    prompt: The code sent to %first_name%'s phone\n    as: code\n    timeout: 10m\n"
	fill := "  - action: fill\n    selectors:\n      - {strategy: id, value: '#otp'}\n    value: '%code%'\n"
	s, err := Parse([]byte(strings.Replace(base, "  - action: submit\n", ask+fill+"  - action: submit\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if st := s.Steps[2]; st.Action != ActionAsk || st.As != "code" || st.AskWait().Minutes() != 10 {
		t.Errorf("ask step = %+v", st)
	}
	if (&Step{Action: ActionAsk}).AskWait() != AskTimeout {
		t.Error("an ask without a timeout waits AskTimeout")
	}
	for _, c := range []struct{ steps, want string }{
		{fill + ask, "line 20: steps[2].value: placeholder %code% names no declared parameter"},
		{"  - action: ask\n    as: code\n", "line 17: steps[2].prompt: is missing"},
		{"  - action: ask\n    prompt: Code?\n    as: Code\n", `line 19: steps[2].as: "Code" is not a snake_case name`},
		{"  - action: ask\n    prompt: Code?\n    as: first_name\n", "line 19: steps[2].as: first_name is already a parameter's or an earlier answer's name"},
		{"  - action: ask\n    prompt: Code?\n    as: code\n    timeout: soon\n", "line 20: steps[2].timeout: must be a positive duration"},
		{"  - action: ask\n    prompt: Code?\n    as: code\n    value: x\n", "line 17: steps[2].action: an ask step only asks"},
		{"  - action: fill\n    prompt: Code?\n    value: x\n", "line 18: steps[2].prompt: only an ask step has a prompt"},
		{"  - action: ask\n    prompt: Code for %nobody%\n    as: code\n", "line 18: steps[2].prompt: placeholder %nobody% names no declared parameter"},
	} {
		_, err := Parse([]byte(strings.Replace(base, "  - action: submit\n", c.steps+"  - action: submit\n", 1)))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Parse = %v\nwant    %s", err, c.want)
		}
	}
}
