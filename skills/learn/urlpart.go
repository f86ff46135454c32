package learn

import "strings"

// urlDelims end the parts of a URL that a per-row value can fill.
const urlDelims = "/?=&#"

// urlPart splits URLs that differ in one place ("/orders/1001/edit",
// "/orders/1002/edit") into the common prefix and suffix, cut at URL
// delimiters, and the per-row middles. ok is false when nothing is common,
// so the whole URL is the parameter.
func urlPart(urls []string) (prefix, suffix string, middles []string, ok bool) {
	prefix = urls[0]
	for _, u := range urls[1:] {
		n := 0
		for n < len(prefix) && n < len(u) && prefix[n] == u[n] {
			n++
		}
		prefix = prefix[:n]
	}
	prefix = prefix[:strings.LastIndexAny(prefix, urlDelims)+1]
	suffix = urls[0][len(prefix):]
	for _, u := range urls[1:] {
		rest := u[len(prefix):]
		n := 0
		for n < len(suffix) && n < len(rest) && suffix[len(suffix)-1-n] == rest[len(rest)-1-n] {
			n++
		}
		suffix = suffix[len(suffix)-n:]
	}
	if i := strings.IndexAny(suffix, urlDelims); i >= 0 {
		suffix = suffix[i:]
	} else {
		suffix = ""
	}
	if !strings.Contains(prefix, "://") || !strings.Contains(prefix[strings.Index(prefix, "://")+3:], "/") {
		return "", "", nil, false // the host itself differs
	}
	for _, u := range urls {
		m := u[len(prefix) : len(u)-len(suffix)]
		if m == "" || strings.ContainsAny(m, urlDelims) {
			return "", "", nil, false
		}
		middles = append(middles, m)
	}
	return prefix, suffix, middles, true
}

// urlPartName names the per-row part of a URL after the path segment before
// it: "/orders/1001" gives order_id, "?customer=42" gives customer.
func urlPartName(prefix string) string {
	seg := strings.TrimRight(prefix, urlDelims)
	if i := strings.LastIndexAny(seg, urlDelims); i >= 0 {
		seg = seg[i+1:]
	}
	if strings.HasSuffix(prefix, "=") {
		return nameFor(seg, nil)
	}
	seg = strings.TrimSuffix(seg, "s")
	if n := nameFor(seg, nil); n != "field" {
		return n + "_id"
	}
	return "url_part"
}
