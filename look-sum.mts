import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
await page.goto('http://localhost:3199/analytics', { waitUntil: 'domcontentloaded' });
await page.getByLabel('Email').fill('owner@harborvine.example');
await page.getByLabel('Password').fill('regulars-demo');
await page.getByRole('button', { name: /sign in/i }).click();
await page.waitForURL(/\/analytics$/);
const langs = (process.env.LANGS ?? 'en').split(',');
for (const lang of langs) {
  if (lang !== 'en') { await page.setViewportSize({ width: 1440, height: 900 }); await page.locator('header select').first().selectOption(lang); }
  for (const route of ['/analytics', '/aben-overview']) {
    for (const vp of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(vp);
      await page.goto('http://localhost:3199' + route, { waitUntil: 'domcontentloaded' });
      const t0 = Date.now(); await page.waitForLoadState('networkidle'); await page.waitForTimeout(500); console.log('ms', Date.now() - t0);
      const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);
      const name = `/tmp/look/${route.slice(1)}-${lang}-${vp.width}.png`;
      await page.screenshot({ path: name, fullPage: true });
      console.log(name, 'overflow', overflow);
    }
  }
}
await browser.close();
