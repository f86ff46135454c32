package redact

import (
	"net/url"
	"strings"
)

// secretParams are query and fragment parameter names whose value is a
// credential whatever it looks like; names are compared in lower case with
// '-' and '_' removed, so "X-Amz-Signature" and "access_token" match.
var secretParams = map[string]kindSet{
	"token": kAPIKey, "accesstoken": kAPIKey, "refreshtoken": kAPIKey, "idtoken": kAPIKey,
	"authtoken": kAPIKey, "apikey": kAPIKey, "apitoken": kAPIKey, "accesskey": kAPIKey,
	"secretkey": kAPIKey, "privatekey": kAPIKey, "secret": kAPIKey, "clientsecret": kAPIKey,
	"sessiontoken": kAPIKey, "sessionid": kAPIKey, "jwt": kJWT, "sig": kAPIKey,
	"signature": kAPIKey, "xamzsignature": kAPIKey, "xamzsecuritytoken": kAPIKey,
	"xamzcredential": kAPIKey, "xgoogsignature": kAPIKey, "xgoogcredential": kAPIKey,
	"password": kPassword, "passwd": kPassword, "pwd": kPassword, "pass": kPassword,
	"passcode": kPassword, "pin": kPassword, "otp": kOneTimeCode,
}

// redactURL masks the secrets of u where they stand: a userinfo password,
// path segments a strong detector matches, and the values of query and
// fragment parameters that are secret by name or by detection. It leaves
// every other byte of u as it was.
func redactURL(u string) (string, kindSet) {
	rest, frag, hasFrag := strings.Cut(u, "#")
	base, query, hasQuery := strings.Cut(rest, "?")
	var k kindSet
	var stack [256]byte // most URLs are built here and dropped, unchanged
	b := stack[:0]

	pathStart := 0
	if i := strings.Index(base, "://"); i >= 0 {
		pathStart = i + 3
		auth := base[pathStart:]
		if j := strings.IndexByte(auth, '/'); j >= 0 {
			auth = auth[:j]
		}
		if at := strings.LastIndexByte(auth, '@'); at >= 0 {
			if c := strings.IndexByte(auth[:at], ':'); c >= 0 && c+1 < at && auth[c+1:at] != urlMask {
				base = base[:pathStart+c+1] + urlMask + base[pathStart+at:]
				k |= kPassword
			}
		}
	}
	if found, pk := spans(base[pathStart:], false); pk != 0 {
		for x := range found {
			found[x].i += pathStart
			found[x].j += pathStart
		}
		base = mask(base, found, urlMask)
		k |= pk
	}
	b = append(b, base...)
	if hasQuery {
		b = append(b, '?')
		var qk kindSet
		b, qk = redactParams(b, query)
		k |= qk
	}
	if hasFrag {
		b = append(b, '#')
		if strings.IndexByte(frag, '=') >= 0 {
			var fk kindSet
			b, fk = redactParams(b, frag)
			k |= fk
		} else if found, fk := spans(frag, true); fk != 0 {
			b = append(b, mask(frag, found, urlMask)...)
			k |= fk
		} else {
			b = append(b, frag...)
		}
	}
	if k == 0 {
		return u, 0
	}
	return string(b), k
}

// redactParams appends the '&'-separated parameters of q to b, masking each
// secret value.
func redactParams(b []byte, q string) ([]byte, kindSet) {
	var k kindSet
	for first := true; ; first = false {
		p, more, ok := strings.Cut(q, "&")
		if !first {
			b = append(b, '&')
		}
		name, val, _ := strings.Cut(p, "=")
		if pk := paramKinds(name, val); pk != 0 {
			b = append(b, name...)
			b = append(b, '=')
			b = append(b, urlMask...)
			k |= pk
		} else {
			b = append(b, p...)
		}
		if !ok {
			return b, k
		}
		q = more
	}
}

// paramKinds judges one parameter by its name, then its decoded value.
func paramKinds(name, val string) kindSet {
	if val == "" || val == urlMask {
		return 0
	}
	if k, ok := secretParam(name); ok {
		return k
	}
	if v, err := url.QueryUnescape(val); err == nil {
		val = v
	}
	return scan(val, true)
}

// secretParam looks name up in secretParams, lower-cased and without '-',
// '_' and '.', without allocating.
func secretParam(name string) (kindSet, bool) {
	var buf [24]byte
	n := 0
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '-' || c == '_' || c == '.' {
			continue
		}
		if n == len(buf) {
			return 0, false
		}
		buf[n] = upperToLower(c)
		n++
	}
	k, ok := secretParams[string(buf[:n])]
	return k, ok
}

func upperToLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
