package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"
)

// Retry policy: at most one retry, and only when the wait is short enough to
// be worth holding a step for.
const (
	retryBackoff = time.Second
	maxRetryWait = 30 * time.Second
)

// endpoint is the HTTP plumbing both clients share.
type endpoint struct {
	provider string
	client   *http.Client
	header   http.Header // authentication and version headers
	key      string      // only to scrub it from API messages
	timeout  time.Duration
	backoff  time.Duration // wait before the retry when the server names none
	// errBody extracts the error type and message from an error body.
	errBody func([]byte) (typ, msg string)
}

func newEndpoint(provider string, cfg Config, header http.Header, errBody func([]byte) (string, string)) *endpoint {
	return &endpoint{
		provider: provider,
		client: &http.Client{
			// A redirect would carry the key header to wherever it points.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		header:  header,
		key:     cfg.APIKey,
		timeout: cfg.Timeout,
		backoff: retryBackoff,
		errBody: errBody,
	}
}

// call sends the request, retrying once when the API says a retry may help,
// and returns the body of a 2xx JSON response.
func (e *endpoint) call(ctx context.Context, method, url string, body []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	data, err := e.once(ctx, method, url, body)
	apiErr, ok := errors.AsType[*APIError](err)
	if !ok || !apiErr.Retryable {
		return data, err
	}
	wait := e.backoff
	if apiErr.RetryAfter > 0 {
		wait = apiErr.RetryAfter
	}
	if dl, ok := ctx.Deadline(); wait > maxRetryWait || ok && time.Until(dl) < wait {
		return nil, err
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return nil, fmt.Errorf("%w (not retried: %w)", err, ctx.Err())
	case <-t.C:
	}
	return e.once(ctx, method, url, body)
}

func (e *endpoint) once(ctx context.Context, method, url string, body []byte) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, fmt.Errorf("model: %s: build request: %w", e.provider, err)
	}
	req.Header = e.header.Clone()
	resp, err := e.client.Do(req)
	if err != nil {
		// *url.Error names the method and URL; the URL holds no credentials
		// (Config.validate refuses them) and the key travels in a header.
		return nil, fmt.Errorf("model: %s: %w", e.provider, err)
	}
	defer resp.Body.Close()
	data, readErr := readCapped(resp)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		var typ, msg string
		if readErr == nil && isJSON(resp.Header.Get("Content-Type")) {
			typ, msg = e.errBody(data)
		}
		return nil, newAPIError(e.provider, resp, typ, msg, e.key)
	}
	if errors.Is(readErr, ErrTooLarge) || errors.Is(readErr, ErrBadResponse) {
		return nil, fmt.Errorf("%w (%s)", readErr, e.provider)
	}
	if readErr != nil {
		return nil, fmt.Errorf("model: %s: read response: %w", e.provider, readErr)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "" && !isJSON(ct) {
		return nil, badResponse(e.provider, fmt.Sprintf("content type %q; check Config.BaseURL points at the API", trimType(ct)))
	}
	return data, nil
}

// readCapped reads the body, refusing one over MaxResponseBytes.
func readCapped(resp *http.Response) ([]byte, error) {
	if resp.ContentLength > MaxResponseBytes {
		return nil, ErrTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%w: body truncated", ErrBadResponse)
		}
		return nil, err
	}
	if len(data) > MaxResponseBytes {
		return nil, ErrTooLarge
	}
	return data, nil
}

func isJSON(contentType string) bool {
	mt := trimType(contentType)
	return mt == "application/json" || len(mt) > 5 && mt[len(mt)-5:] == "+json"
}

func trimType(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil || len(mt) > 100 {
		return "unparsable"
	}
	return mt
}

// decodeBody unmarshals a 2xx body; encoding/json's errors name positions
// and types, not the body's text.
func decodeBody(provider string, data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return badResponse(provider, err.Error())
	}
	return nil
}

func badResponse(provider, detail string) error {
	return fmt.Errorf("%w: %s (%s)", ErrBadResponse, detail, provider)
}
