package browser

import (
	"context"
	"fmt"
	"sync"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// dialogs answers every JavaScript dialog a page opens, so none blocks
// the page: alert, confirm and beforeunload accepted, a prompt answered
// with its default text. Each is noted after the step that opened it, by
// kind only: a dialog's message may quote the row's values.
type dialogs struct {
	reply func(call func(context.Context) error)

	mu      sync.Mutex
	notes   []string
	dismiss bool // the step dismisses its dialogs (skills.DialogDismiss)
}

// answer sets how the next step's dialogs are answered.
func (d *dialogs) answer(dismiss bool) {
	d.mu.Lock()
	d.dismiss = dismiss
	d.mu.Unlock()
}

func (d *dialogs) observe(ev any) {
	o, ok := ev.(*page.EventJavascriptDialogOpening)
	if !ok {
		return
	}
	d.mu.Lock()
	dismiss := d.dismiss
	d.mu.Unlock()
	note := fmt.Sprintf("accepted a%s %s dialog", article(string(o.Type)), o.Type)
	answer := page.HandleJavaScriptDialogParams{Accept: true}
	switch {
	case dismiss:
		answer.Accept = false
		note = fmt.Sprintf("dismissed a%s %s dialog", article(string(o.Type)), o.Type)
	case o.Type == page.DialogTypePrompt:
		answer.PromptText = o.DefaultPrompt
		note = "answered a prompt dialog with its default text"
	}
	d.reply(func(ctx context.Context) error {
		_, err := chromedp.Call(ctx, page.HandleJavaScriptDialog, answer)
		return err
	})
	d.mu.Lock()
	d.notes = append(d.notes, note)
	d.mu.Unlock()
}

// take returns the notes since the last take.
func (d *dialogs) take() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := d.notes
	d.notes = nil
	return n
}

func article(word string) string {
	if word != "" && (word[0] == 'a' || word[0] == 'e' || word[0] == 'i' || word[0] == 'o' || word[0] == 'u') {
		return "n"
	}
	return ""
}
