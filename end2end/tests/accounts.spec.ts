import { test, expect, Page } from "@playwright/test";
import { createUser, live, run, signIn } from "./support";

const admin = { name: `admin-${run}`, password: "admin-password-1" };
const judge = { name: `judge-${run}`, password: "judge-password-1" };
const eventName = `E2E Open ${run}`;

async function signOut(page: Page) {
  await live(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
}

test.beforeAll(() => {
  createUser(admin.name, admin.password, true);
  createUser(judge.name, judge.password);
});

test("a wrong password is explained next to the field", async ({ page }) => {
  await page.goto("/signin");
  await live(page);
  await page.getByLabel("User name or email").fill(judge.name);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("do not match an account")).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
});

test("sign in, act as judge, sign out: the judge tools are gone", async ({ page }) => {
  // The administrator creates the event and makes the judge its judge.
  await signIn(page, admin);
  await page.goto("/events");
  await live(page);
  await page.getByLabel("Event name").fill(eventName);
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByRole("heading", { level: 1, name: eventName })).toBeVisible();
  const eventUrl = page.url();
  await page.getByRole("link", { name: "Staff and roles" }).click();
  await live(page);
  await page.getByLabel("User name", { exact: true }).fill(judge.name);
  await page.getByLabel("Role", { exact: true }).selectOption("judge");
  await page.getByRole("button", { name: "Give role" }).click();
  await expect(page.getByRole("cell", { name: judge.name, exact: true })).toBeVisible();
  await signOut(page);

  // The judge sees the judge tools of that event…
  await signIn(page, judge);
  await page.goto(eventUrl);
  await expect(page.getByText("Your role: Judge")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Staff tools" })).toBeVisible();
  await expect(page.getByText("Judge tools")).toBeVisible();
  // …but not the organiser's.
  await expect(page.getByRole("link", { name: "Staff and roles" })).toHaveCount(0);
  await page.goto(eventUrl + "/staff");
  await expect(page.getByRole("alert").filter({ hasText: "does not allow this" })).toBeVisible();

  // After signing out, nothing of the judge remains.
  await page.goto(eventUrl);
  await signOut(page);
  await page.goto(eventUrl);
  await expect(page.getByRole("heading", { level: 1, name: eventName })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Staff tools" })).toHaveCount(0);
  await expect(page.getByText("Judge tools")).toHaveCount(0);
  await page.goto(eventUrl + "/staff");
  await expect(page.getByRole("alert").filter({ hasText: "Sign in to do this." })).toBeVisible();
});
