import { test, expect } from "@playwright/test";

test("home page names Mentat and becomes live after hydration", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Mentat" })).toBeVisible();
  await expect(page).toHaveTitle("Mentat");
  // The status line changes only when the wasm has hydrated the server-rendered page.
  await expect(page.getByText(/^Live: this page is connected/)).toBeVisible();
  // A control that only works in the browser: the table calculator (4.01.01).
  await page.getByLabel("Players present").fill("17");
  await expect(page.locator("output")).toHaveText("3 tables: 6 + 6 + 5 (4.01.01)");
  await page.getByLabel("Players present").fill("8");
  await expect(page.locator("output")).toContainText("cannot be split");
});

test("the server renders the page without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Mentat" })).toBeVisible();
  await expect(page.getByText(/^Static page: live updates start/)).toBeVisible();
  await context.close();
});

test("health check reports the database", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  const body = await response.json();
  expect(body.db).toBe("ok");
  expect(body.migration).toBeGreaterThanOrEqual(1);
});

test("unknown addresses get a 404 page with a way home", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle("Page not found · Mentat");
  await expect(page.getByRole("link", { name: /home page/ })).toBeVisible();
});
