import { test, expect } from "@playwright/test";

// The Content-Security-Policy in a real browser: the pages hydrate and work under it (the
// loader and the resources Leptos writes inline carry the render's nonce), nothing is blocked,
// and no other site can frame Mentat.

test("pages hydrate under the Content-Security-Policy with nothing blocked", async ({ page }) => {
  const violations: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as any).__violations = [...((window as any).__violations ?? []), `${e.violatedDirective} ${e.blockedURI}`];
    });
  });
  page.on("console", (m) => {
    if (m.text().includes("Content Security Policy")) violations.push(m.text());
  });
  const response = await page.goto("/");
  expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  // The home page's islands hydrate: its last one marks the header.
  await expect(page.locator("header[data-live=true]")).toHaveCount(1);
  violations.push(...(await page.evaluate(() => (window as any).__violations ?? [])));
  await page.goto("/signin");
  await expect(page.locator("header[data-live=true]")).toHaveCount(1);
  violations.push(...(await page.evaluate(() => (window as any).__violations ?? [])));
  expect(violations).toEqual([]);
});

test("another site cannot frame Mentat", async ({ page, baseURL }) => {
  // A page of another origin (about:blank with a frame), as a clickjacking site would be.
  await page.setContent(`<iframe id="f" src="${baseURL}/signin" width="600" height="400"></iframe>`);
  const frame = page.frameLocator("#f");
  await page.waitForTimeout(1500);
  await expect(frame.getByLabel("Password")).toHaveCount(0);
});
