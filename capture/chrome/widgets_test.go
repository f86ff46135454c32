package chrome_test

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/extension"
)

// widgetsPage has a control of every kind a person meets on forms: text
// fields (one that formats a phone number, a date typed by hand), a native
// radio group, select and checkbox, an ARIA radio group (mirrored into a
// hidden select), an ARIA checkbox, a switch, a toggle button, a listbox,
// a select-only combobox, an autocomplete combobox, a menu of radios, tabs,
// a slider, and a box that only a double click elsewhere changes. It saves in place
// through fetch (201), resets itself, and shows a banner later.
//
//go:embed testdata/widgets/form.html
var widgetsPage string

// orderPage asks in a dialog before it posts, and the post redirects.
const orderPage = `<!doctype html><title>Order</title><form method="post" action="/order" id="o">
<label for="item">Item</label><input id="item" name="item"><button type="button" id="place">Place order</button></form>
<dialog id="confirm"><h2>Confirm your order</h2><button type="button" id="yes">Confirm</button></dialog>
<script>
 document.getElementById("place").onclick = () => document.getElementById("confirm").showModal();
 document.getElementById("yes").onclick = () => { document.getElementById("confirm").close(); document.getElementById("o").requestSubmit(); };
</script>`

const orderDone = `<!doctype html><title>Thank you</title><h1>Thank you</h1><p role="status">Order 12 placed</p><p>Keep this page for your records.</p>`

func serveWidgets() *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /members/new", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, widgetsPage) })
	mux.HandleFunc("POST /save", func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(300 * time.Millisecond) // a server takes its time
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprint(w, `{"id": 7}`)
	})
	mux.HandleFunc("GET /order", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, orderPage) })
	mux.HandleFunc("POST /order", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/order/12", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /order/12", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, orderDone) })
	return httptest.NewServer(mux)
}

// playLogged runs the person's actions one by one, naming the one that fails.
func playLogged(ctx context.Context, t *testing.T, acts ...chromedp.Action[chromedp.Void]) error {
	t.Helper()
	for i, a := range acts {
		actx, cancel := context.WithTimeout(ctx, 20*time.Second)
		err := chromedp.Do(actx, a)
		cancel()
		if err != nil {
			return fmt.Errorf("action %d: %w", i, err)
		}
	}
	return nil
}

// waitRecording waits until the extension knows a recording is on: its
// badge says REC (read from its own page, where chrome.action answers).
func waitRecording(t testing.TB, bctx context.Context) {
	t.Helper()
	if err := chromedp.Do(bctx, chromedp.Navigate("chrome-extension://"+extension.ID()+"/pair.html")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`chrome.action.getBadgeText({}).then((t) => t === "REC")`,
		chromedp.WithPollingTimeout(10*time.Second), chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
		t.Fatalf("the extension did not learn that a recording is on: %v", err)
	}
}

// space presses the space bar as a keyboard does: a key down that carries
// its text (the browser drops the text when the page took the key down),
// then a key up. chromedp's KeyEvent sends the text as an event of its own,
// which scrolls the page, smoothly, whatever the page did with the key.
func space() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		down := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyDown, Key: " ", Code: "Space", Text: " ", UnmodifiedText: " ", WindowsVirtualKeyCode: 32, NativeVirtualKeyCode: 32}
		if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, down); err != nil {
			return err
		}
		up := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyUp, Key: " ", Code: "Space", WindowsVirtualKeyCode: 32, NativeVirtualKeyCode: 32}
		_, err := cdp.Call(ctx, t, input.DispatchKeyEvent, up)
		return err
	})
}

// clickText clicks, with the mouse, the element matching css whose text is text.
func clickText(css, text string) chromedp.Action[chromedp.Void] { return clickWith(css, text, 0) }

// TestWidgetsRecordedAsIntended plays a person, with trusted input only
// (mouse clicks and key events), through every kind of control, a save in
// place, and an order confirmed in a dialog whose post redirects, and
// checks every step recorded.
func TestWidgetsRecordedAsIntended(t *testing.T) {
	if testing.Short() {
		t.Skip("real browser skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	home := startDaemon(ctx, t)
	site := serveWidgets()
	defer site.Close()
	bctx := pairedBrowser(ctx, t, home)
	started := startBrowserRecording(ctx, t, home)
	waitRecording(t, bctx)

	err := playLogged(bctx, t,
		chromedp.Navigate(site.URL+"/members/new"),
		chromedp.WaitVisible(chromedp.CSS("#full_name")),
		chromedp.Click(chromedp.CSS("#full_name")), chromedp.KeyEvent("Ada Lovelace"),
		chromedp.Click(chromedp.CSS("#phone")), chromedp.KeyEvent("5551234567"),
		// A date typed by hand, segment by segment (mm/dd/yyyy).
		chromedp.Focus(chromedp.CSS("#start")), chromedp.KeyEvent("03"), chromedp.KeyEvent("01"), chromedp.KeyEvent("2024"),
		clickText("label", "Pro"),
		// A closed select, by its type-ahead.
		chromedp.Focus(chromedp.CSS("#country")), chromedp.KeyEvent("F"),
		clickText("label", "Newsletter"),
		clickText("[role=radio]", "Growth"),
		chromedp.Focus(chromedp.CSS("#updates")), space(),
		chromedp.Click(chromedp.CSS("#tfa")),
		chromedp.Click(chromedp.CSS("#urgent")),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Poll[bool](`document.getElementById("urgent").getAttribute("aria-pressed") === "true"`, chromedp.WithPollingTimeout(2*time.Second))(ctx, t)
			if err != nil {
				clicks, _ := chromedp.Evaluate[[]string](`window.clicks`)(ctx, t)
				return fmt.Errorf("urgent not pressed; clicks %q", clicks)
			}
			return nil
		}),
		// The listbox, by the keyboard: focus selects Berlin, two arrows Denver.
		chromedp.Focus(chromedp.CSS("#office")), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown),
		chromedp.Click(chromedp.CSS("#service")), clickText("#service-list [role=option]", "Express"),
		chromedp.Click(chromedp.CSS("#state")), chromedp.KeyEvent("Nev"), clickText("#state-list [role=option]", "Nevada"),
		chromedp.Click(chromedp.CSS("#sort")), clickText("[role=menuitemradio]", "Oldest first"),
		// Tabs: a click on one, an arrow to the next: one step, on the last.
		chromedp.Click(chromedp.CSS("#tab-history")), chromedp.KeyEvent(kb.ArrowRight),
		chromedp.Focus(chromedp.CSS("#volume")), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight),
		chromedp.Action[chromedp.Void](func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
			nodes, err := chromedp.Nodes(chromedp.CSS("#prefs"))(ctx, t)
			if err != nil {
				return chromedp.Void{}, err
			}
			return chromedp.MouseClickNode(nodes[0], chromedp.ClickCount(2))(ctx, t)
		}),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Poll[bool](`document.getElementById("priority").getAttribute("aria-checked") === "true"`, chromedp.WithPollingTimeout(5*time.Second))(ctx, t)
			return err
		}),
		clickText("button", "Save"),
		chromedp.WaitVisible(chromedp.CSS("#toast")),
		// An order whose post redirects to its receipt.
		chromedp.Navigate(site.URL+"/order"),
		chromedp.WaitVisible(chromedp.CSS("#item")),
		chromedp.Click(chromedp.CSS("#item")), chromedp.KeyEvent("Widget"),
		clickText("button", "Place order"),
		// A person takes a moment to read the dialog; the player would
		// click Confirm at once, and Chromium may run that click before
		// the page's tasks already queued (the recorder settles the first
		// click in one). Waiting for a task queued after them is waiting
		// for those, not for a time.
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Evaluate[bool](`new Promise((r) => setTimeout(() => r(true), 0))`, chromedp.EvalAwaitPromise)(ctx, t)
			return err
		}),
		clickText("button", "Confirm"),
		chromedp.WaitVisible(chromedp.CSS(`p[role=status]`)),
	)
	if err != nil {
		clicks, _ := chromedp.Run(bctx, chromedp.Evaluate[[]string](`window.clicks || []`))
		t.Fatalf("play the person: %v; the page saw clicks on %q", err, clicks)
	}
	rec := stopAndFetch(ctx, t, home, started)
	var got []string
	for _, s := range rec.Steps {
		b, _ := json.Marshal(s)
		t.Logf("%s", b)
		if s.Action == events.ActionNavigate {
			continue
		}
		line := s.Action + " " + s.Enrichment.Role + " " + s.Enrichment.Label
		if s.Value != nil {
			line += " = " + s.Value.Raw
		}
		if s.Inferred {
			line += " (inferred)"
		}
		got = append(got, line)
	}
	want := []string{
		"fill textbox Full name = Ada Lovelace",
		"fill textbox Phone = (555) 123-4567",
		"fill textbox Start date = 2024-03-01",
		"select radiogroup Plan = Pro",
		"select combobox Country = France",
		"click checkbox Newsletter = checked",
		"select radiogroup Tier = Growth",
		"click checkbox Send me updates = checked",
		"click switch Two-factor authentication = checked",
		"click switch Urgent = checked",
		"select listbox Office = Denver",
		"select combobox Shipping service = Express",
		"select combobox State = Nevada",
		"select menu Sort order = Oldest first",
		"click tab Notes",
		"fill slider Volume = 52",
		"click checkbox Priority support = checked (inferred)",
		"click button Save",
		"submit form ",
		"fill textbox Item = Widget",
		"click button Place order",
		"click button Confirm",
		"submit form ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("recorded steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	steps := map[string]events.Step{}
	var submits []events.Step
	for _, s := range rec.Steps {
		if s.Action == events.ActionSubmit {
			submits = append(submits, s)
		}
		// A click that opens a dialog is destructive (a button that is no
		// toggle): its effect is the dialog.
		if s.Action == events.ActionClick && s.Enrichment.Label == "Place order" {
			if e := s.Effect; e == nil || len(e.Texts) != 1 || !strings.HasPrefix(e.Texts[0], "Confirm your order") || len(s.Fields) != 1 {
				t.Errorf("the click that asks = effect %+v, %d fields; want the dialog, and the one field", s.Effect, len(s.Fields))
			}
		}
		if s.Enrichment != nil && s.Enrichment.Label != "" {
			steps[s.Enrichment.Label] = s
		}
	}
	options := func(label string) string {
		var b []string
		for _, o := range steps[label].Enrichment.Options {
			b = append(b, o.Label+"="+o.Value)
		}
		return strings.Join(b, ",")
	}
	for label, want := range map[string]string{
		"Plan":             "Basic=basic,Pro=pro,Team=team",
		"Country":          "Canada=CA,France=FR,Germany=DE",
		"Tier":             "Starter=starter,Growth=growth,Scale=scale",
		"Office":           "Berlin=,Chicago=,Denver=,Lisbon=",
		"Shipping service": "Standard=std,Express=exp,Overnight=ovn",
		"State":            "", // an autocomplete's list depends on what is typed
		"Sort order":       "Newest first=,Oldest first=,Most popular=",
	} {
		if got := options(label); got != want {
			t.Errorf("%s options = %q; want %q", label, got, want)
		}
		if s := steps[label]; s.Value.Type != events.ValueEnum {
			t.Errorf("%s value type %q; want enum", label, s.Value.Type)
		}
	}
	// The phone field formats what is typed: replay must type it, key by
	// key. The name field took keys as they came: replay may set it whole.
	for label, want := range map[string]bool{"Phone": true, "Full name": false, "Item": false} {
		if got := steps[label].Enrichment.Keyed; got != want {
			t.Errorf("%s keyed = %v; want %v", label, got, want)
		}
	}
	if sel := steps["Plan"].Enrichment.Selectors; len(sel) < 2 || sel[0] != (events.Selector{Strategy: events.StrategyName, Value: "plan"}) {
		t.Errorf("the radio group's selectors %+v; want its name first", sel)
	}
	if sel := steps["Tier"].Enrichment.Selectors; !slices.Contains(sel, events.Selector{Strategy: events.StrategyRoleText, Value: "radiogroup[name='Tier']"}) {
		t.Errorf("the ARIA radio group's selectors %+v; want radiogroup[name='Tier']", sel)
	}

	if len(submits) != 2 {
		t.Fatalf("%d submits; want 2", len(submits))
	}
	saved, order := submits[0], submits[1]
	// The save in place: a late banner, the fetch's 201, the form reset.
	if e := saved.Effect; e == nil || e.URL != "" || !slices.Equal(e.Texts, []string{"Saved as record 7"}) || e.Status != 201 || !e.FormReset || e.Millis < 800 {
		t.Errorf("the save's effect = %+v; want the banner, 201, the form reset, no URL, after 800 ms or more", saved.Effect)
	}
	// The order: a post redirected to its receipt.
	if e := order.Effect; e == nil || e.URL != site.URL+"/order/12" || !slices.Equal(e.Texts, []string{"Order 12 placed", "Thank you"}) || e.Status != 200 || e.FormReset {
		t.Errorf("the order's effect = %+v; want the receipt's URL and texts, 200", order.Effect)
	}

	// The inventory: every settable control, untouched ones too; no
	// hidden, disabled or button; no value.
	var inv []string
	for _, f := range saved.Fields {
		line := f.Role + " " + f.Label
		if f.Name != "" {
			line += " name=" + f.Name
		}
		if f.Required {
			line += " required"
		}
		if len(f.Options) > 0 {
			line += fmt.Sprintf(" %d options", len(f.Options))
		}
		if len(f.Selectors) == 0 {
			line += " NO SELECTORS"
		}
		inv = append(inv, line)
	}
	wantInv := []string{
		"textbox Full name name=full_name required", "textbox Company (optional) name=company", "textbox Phone name=phone",
		"textbox Start date name=start", "radiogroup Plan name=plan 3 options", "combobox Country name=country 3 options",
		"checkbox Newsletter name=newsletter", "radiogroup Tier 3 options", "checkbox Send me updates",
		"switch Two-factor authentication", "switch Urgent", "listbox Office 4 options", "combobox Shipping service 3 options",
		"combobox State name=state", "menu Sort order 3 options", "slider Volume", "checkbox Priority support",
	}
	if strings.Join(inv, "\n") != strings.Join(wantInv, "\n") {
		t.Errorf("field inventory:\n%s\nwant:\n%s", strings.Join(inv, "\n"), strings.Join(wantInv, "\n"))
	}
	raw, _ := json.Marshal(saved.Fields)
	if strings.Contains(string(raw), "Ada") || strings.Contains(string(raw), "555") {
		t.Errorf("the inventory holds a value: %s", raw)
	}
}
