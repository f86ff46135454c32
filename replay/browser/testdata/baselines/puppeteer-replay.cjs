// The @puppeteer/replay baseline of BenchmarkRows: the bench form's row as
// Chrome DevTools' Recorder saves it (recording.json, selectors as the
// Recorder writes them), replayed once per row with the row's values.
// Usage: node puppeteer-replay.cjs URL ROWS CHROMIUM. Prints {"ms": N}.
const fs = require("fs");
const path = require("path");
const puppeteer = require("puppeteer-core");
const { createRunner, PuppeteerRunnerExtension } = require("@puppeteer/replay");

(async () => {
  const [url, rows, executablePath] = process.argv.slice(2);
  const template = fs.readFileSync(path.join(__dirname, "recording.json"), "utf8");
  const browser = await puppeteer.launch({ executablePath, headless: true, args: ["--no-sandbox"] });
  const page = await browser.newPage();
  const start = performance.now();
  for (let i = 1; i <= Number(rows); i++) {
    const flow = JSON.parse(template.replaceAll("{{URL}}", url).replaceAll("{{EMAIL}}", `ada${i}@example.com`));
    const runner = await createRunner(flow, new PuppeteerRunnerExtension(browser, page, { timeout: 10000 }));
    await runner.run();
  }
  const ms = performance.now() - start;
  await browser.close();
  console.log(JSON.stringify({ ms }));
})().catch((e) => { console.error(e); process.exit(1); });
