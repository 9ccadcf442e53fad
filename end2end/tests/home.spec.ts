import { test, expect } from "@playwright/test";
import { live } from "./support";

test("home page names Mentat and its two ways in, and hydrates", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Mentat" })).toBeVisible();
  await expect(page).toHaveTitle("Mentat");
  // A visitor finds an event; staff sign in to run one (signed out, the link asks to sign in
  // and comes back to the events).
  await expect(page.getByRole("link", { name: "Find your event" })).toHaveAttribute("href", "/events");
  await expect(page.getByRole("link", { name: "Run an event" })).toHaveAttribute("href", "/signin?next=/events");
  // No developer output on the front page.
  await expect(page.getByText(/this page is connected|tables \[/)).toHaveCount(0);
  // The browser half runs here too: the page's last island marks the header once it hydrated.
  await live(page);
  await page.getByRole("link", { name: "Find your event" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
});

test("the server renders the page without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Mentat" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Find your event" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Run an event" })).toBeVisible();
  await expect(page.locator("header[data-live]")).toHaveCount(0);
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
