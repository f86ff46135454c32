// Pairing: `reprise extension pair` prints this page's URL with the daemon's
// WebSocket address and the extension's credentials in the fragment, which
// never leaves the browser. The page stores them for the service worker.
(async () => {
  const status = document.getElementById("status");
  try {
    const creds = JSON.parse(atob(location.hash.slice(1)));
    if (!creds.url || !creds.user || !creds.password) throw new Error("incomplete");
    await chrome.storage.local.set({ reprise: creds });
    history.replaceState(null, "", location.pathname); // drop the secret from the URL bar
    status.textContent = "Paired. reprise records in this browser only while a recording is on.";
    status.dataset.paired = "true";
  } catch (e) {
    status.textContent = "This pairing link is broken; run `reprise extension pair` again.";
    status.dataset.paired = "false";
  }
})();
