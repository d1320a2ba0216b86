import { chromium } from "@playwright/test";
const [,, base, email, password, ...paths] = process.argv;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
for (const width of (process.env.WIDTHS ?? "1280").split(",").map(Number)) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 }, locale: process.env.LNG ?? "pt-BR", javaScriptEnabled: process.env.NOJS ? false : true });
  const page = await ctx.newPage();
  if (email) {
    const res = await page.request.post(base + "/login", { form: { email, password }, headers: { Origin: base }, maxRedirects: 0 });
    if (res.status() !== 302) throw new Error("login " + res.status());
  }
  for (const p of paths) {
    await page.goto(base + p);
    const name = `/tmp/shots/${p.replace(/[^a-z0-9]+/gi, "_")}_${width}${process.env.NOJS ? "_nojs" : ""}.png`;
    await page.screenshot({ path: name, fullPage: true });
    console.log(name, page.url());
  }
  await ctx.close();
}
await browser.close();
