package zoo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The person's hands: every change to a page goes through a trusted mouse
// click or key press (Input.dispatchMouseEvent / dispatchKeyEvent). The
// person reads the page with JavaScript, as a person reads the screen, but
// never sets a value or dispatches an event from it.

type act = chromedp.Action[chromedp.Void]

// visit opens a page and waits until its first field shows.
func visit(url, ready string) act {
	return chromedp.Steps(chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(ready)))
}

// typeInto clicks a field and types text into it; an empty text leaves
// the field alone, as a person skips an optional field.
func typeInto(css, text string) act {
	if text == "" {
		return chromedp.Steps()
	}
	return chromedp.Steps(chromedp.Click(chromedp.CSS(css)), chromedp.KeyEvent(text))
}

// press types keys (kb constants or text) into whatever has focus. A lone
// space goes as one key-down carrying its text, as a keyboard sends it:
// chromedp's separate keypress scrolls the page even when the page
// handled the key, and the next click then lands elsewhere.
func press(keys string) act {
	if keys == " " {
		return space
	}
	return chromedp.KeyEvent(keys)
}

var space = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	down := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyDown, Key: " ", Code: "Space", Text: " ",
		UnmodifiedText: " ", WindowsVirtualKeyCode: 32, NativeVirtualKeyCode: 32}
	if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, down); err != nil {
		return err
	}
	up := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyUp, Key: " ", Code: "Space",
		WindowsVirtualKeyCode: 32, NativeVirtualKeyCode: 32}
	_, err := cdp.Call(ctx, t, input.DispatchKeyEvent, up)
	return err
})

// click clicks the element.
func click(css string) act { return chromedp.Click(chromedp.CSS(css)) }

// clickText clicks the element among those matching css whose text is text.
func clickText(css, text string) act {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		i, err := chromedp.Evaluate[int](fmt.Sprintf(
			`[...document.querySelectorAll(%s)].findIndex(e => e.textContent.trim() === %s)`, jsq(css), jsq(text)))(ctx, t)
		if err != nil {
			return fmt.Errorf("find %q: %w", text, err)
		}
		if i < 0 {
			return fmt.Errorf("no %s reads %q", css, text)
		}
		nodes, err := chromedp.Nodes(chromedp.CSSAll(css))(ctx, t)
		if err != nil {
			return err
		}
		if i >= len(nodes) {
			return fmt.Errorf("%s changed while the person looked for %q", css, text)
		}
		_, err = chromedp.MouseClickNode(nodes[i])(ctx, t)
		return err
	})
}

// setChecked clicks an ARIA or native check control when its state is not
// the one wanted; how is the person's way to flip it.
func setChecked(css string, want bool, how act) act {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		on, err := chromedp.Evaluate[bool](fmt.Sprintf(
			`(e => e.matches('input') ? e.checked : e.getAttribute('aria-checked') === 'true')(document.querySelector(%s))`, jsq(css)))(ctx, t)
		if err != nil {
			return fmt.Errorf("read %s: %w", css, err)
		}
		if on == want {
			return nil
		}
		_, err = how(ctx, t)
		return err
	})
}

// chooseNative picks an option of a native select as a person does with a
// closed select: focus it, type the start of the label (the browser's
// type-ahead), then correct with the arrow keys. It never opens the popup,
// which headless Chromium cannot click.
func chooseNative(css, label string) act {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := chromedp.Focus(chromedp.CSS(css))(ctx, t); err != nil {
			return err
		}
		sel := fmt.Sprintf(`document.querySelector(%s)`, jsq(css))
		opts, err := chromedp.Evaluate[[]string](sel+`? [...`+sel+`.options].map(o => o.text.trim()) : []`)(ctx, t)
		if err != nil {
			return err
		}
		want := slices.Index(opts, label)
		if want < 0 {
			return fmt.Errorf("%s has no option %q", css, label)
		}
		if p := uniquePrefix(opts, want); p != "" {
			if _, err := chromedp.KeyEvent(p)(ctx, t); err != nil {
				return err
			}
		}
		for range 3 {
			at, err := chromedp.Evaluate[int](sel+`.selectedIndex`)(ctx, t)
			if err != nil {
				return err
			}
			if at == want {
				return nil
			}
			if _, err := press(arrows(at, want))(ctx, t); err != nil {
				return err
			}
		}
		return fmt.Errorf("%s: the arrow keys did not reach %q", css, label)
	})
}

// arrows are the key presses that move a selection from one index to another.
func arrows(from, to int) string {
	if from < to {
		return strings.Repeat(kb.ArrowDown, to-from)
	}
	return strings.Repeat(kb.ArrowUp, from-to)
}

// uniquePrefix is the shortest start of opts[i] that no other option
// shares, up to its first space; "" when there is none.
func uniquePrefix(opts []string, i int) string {
	word, _, _ := strings.Cut(opts[i], " ")
	for n := 1; n <= len([]rune(word)); n++ {
		p := strings.ToLower(string([]rune(word)[:n]))
		others := slices.Delete(slices.Clone(opts), i, i+1)
		if !slices.ContainsFunc(others, func(o string) bool { return strings.HasPrefix(strings.ToLower(o), p) }) {
			return string([]rune(word)[:n])
		}
	}
	return ""
}

// labelled returns a CSS selector for the control the visible label names,
// as a person finds a field by its label.
func labelled(ctx context.Context, label string) (string, error) {
	id, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(
		`(l => l ? l.htmlFor : "")([...document.querySelectorAll('label')].find(l => l.textContent.trim() === %s))`, jsq(label))))
	if err != nil {
		return "", fmt.Errorf("find the label %q: %w", label, err)
	}
	if id == "" {
		return "", fmt.Errorf("no label reads %q", label)
	}
	return "#" + id, nil
}

// awaitDone waits for the page's own sign of success, the element done,
// through any navigation; a page that shows an alert instead is a refusal.
func awaitDone(done string) act {
	probe := fmt.Sprintf(`(() => {
		const ok = document.querySelector(%s);
		if (ok && ok.checkVisibility()) return "ok";
		const e = document.querySelector('[role=alert]');
		const text = e && e.checkVisibility() ? e.textContent.trim().replace(/\s+/g, " ") : "";
		return text ? "the page refused: " + text : "";
	})()`, jsq(done))
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for {
			// An evaluation may fail while a navigation swaps the page.
			s, err := chromedp.Evaluate[string](probe)(ctx, t)
			switch {
			case err == nil && s == "ok":
				return nil
			case err == nil && s != "":
				return errors.New(s)
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("wait for %s: %w", done, ctx.Err())
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
}

// jsq quotes s as a JavaScript string literal.
func jsq(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
