// The Playwright baseline of BenchmarkRows: the script a person would write
// by hand to file the bench form's rows, by label as Playwright recommends.
// Usage: node playwright.cjs URL ROWS CHROMIUM. Prints {"ms": N}, the time
// the rows took once the browser was up.
const { chromium } = require("playwright-core");

(async () => {
  const [url, rows, executablePath] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox"] });
  const page = await browser.newPage();
  const start = performance.now();
  for (let i = 1; i <= Number(rows); i++) {
    await page.goto(url + "/customers/new");
    await page.getByLabel("First Name").fill("Ada");
    await page.getByLabel("Email").fill(`ada${i}@example.com`);
    await page.getByLabel("Country").selectOption({ label: "France" });
    await page.getByLabel("Customer since").fill("2024-03-01");
    await page.getByLabel("Notes").fill("Prefers email");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL("**/customers/42");
  }
  const ms = performance.now() - start;
  await browser.close();
  console.log(JSON.stringify({ ms }));
})().catch((e) => { console.error(e); process.exit(1); });
