// dialogs.js runs in the page's own world, where its confirm() and
// prompt() are: it tells content.js (in the extension's world) when the
// person cancelled one, by an event on the document, so the click that
// opened it is recorded with dialog: dismiss and replays as a cancel.
// Nothing else leaves: not the dialog's text, not what was typed.
(() => {
  const tell = (answered) => { if (!answered) document.dispatchEvent(new Event("reprise-dialog-dismissed")); };
  const confirm = window.confirm, prompt = window.prompt;
  window.confirm = function (...args) { const r = confirm.apply(this, args); tell(r); return r; };
  window.prompt = function (...args) { const r = prompt.apply(this, args); tell(r !== null); return r; };
})();
