import { test, expect, Page } from "@playwright/test";
import { createUser, live, run, signIn } from "./support";

const admin = { name: `inviter-${run}`, password: "inviter-password-1" };
const returning = { name: `back-${run}`, password: "returning-password-1" };
const newcomer = { name: `sam-${run}`, password: "newcomer-password-1" };
const eventName = `Invite Open ${run}`;

test.beforeAll(() => {
  createUser(admin.name, admin.password, true);
  createUser(returning.name, returning.password);
});

async function makeEvent(page: Page): Promise<string> {
  await page.goto("/events");
  await live(page);
  await page.getByLabel("Event name").fill(eventName);
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByRole("heading", { level: 1, name: eventName })).toBeVisible();
  return page.url();
}

test("a staff invitation link is taken once, then refused with a sentence", async ({ page, browser }) => {
  await signIn(page, admin);
  const eventUrl = await makeEvent(page);
  await page.getByRole("link", { name: "Staff and roles" }).click();
  await live(page);
  await page.getByLabel("Who is it for").fill("Sam");
  await page.getByLabel("Role to give").selectOption("judge");
  await page.getByRole("button", { name: "Make an invitation link" }).click();
  const link = await page.getByLabel("Invitation link").inputValue();
  expect(link).toContain("/invite/mentat_");
  // The test server is reached at 127.0.0.1 and the event has no public address: said so.
  await expect(page.getByTestId("link-warning")).toContainText("Set the event's public address");
  await expect(page.getByRole("cell", { name: /^Open until/ })).toBeVisible();
  // Shown once: a fresh look at the page no longer has it.
  await page.reload();
  await expect(page.getByLabel("Invitation link")).toHaveCount(0);

  // Sam, on her own phone, has no account yet: she makes one from the link.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const sam = await phone.newPage();
  await sam.goto(link);
  await expect(sam.getByText(`You are invited to be a judge at ${eventName}.`)).toBeVisible();
  await sam.getByLabel("User name").fill(newcomer.name);
  await sam.getByLabel("Password", { exact: true }).fill(newcomer.password);
  await sam.getByLabel("Repeat the password").fill(newcomer.password);
  await sam.getByRole("button", { name: "Create the account and take the invitation" }).click();
  await expect(sam.getByRole("heading", { level: 1, name: eventName })).toBeVisible();
  expect(sam.url()).toBe(eventUrl);
  await expect(sam.getByText("Your role: Judge")).toBeVisible();
  await phone.close();

  // Anyone else who opens the same link is told it was used.
  const other = await browser.newContext();
  const stranger = await other.newPage();
  await stranger.goto(link);
  await expect(stranger.getByRole("alert")).toContainText("has been used already");
  await expect(stranger.getByRole("button", { name: /take the invitation/ })).toHaveCount(0);
  await other.close();

  await page.reload();
  await expect(page.getByRole("cell", { name: newcomer.name, exact: true })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Used", exact: true })).toBeVisible();
});

test("a withdrawn invitation is refused", async ({ page, browser }) => {
  await signIn(page, admin);
  await page.goto("/events");
  await page.getByRole("link", { name: eventName }).first().click();
  await page.getByRole("link", { name: "Staff and roles" }).click();
  await live(page);
  await page.getByLabel("Who is it for").fill("Kim");
  await page.getByRole("button", { name: "Make an invitation link" }).click();
  const link = await page.getByLabel("Invitation link").inputValue();
  await page.getByRole("button", { name: "Withdraw the invitation for Kim" }).click();
  await expect(page.getByRole("cell", { name: "Withdrawn", exact: true })).toBeVisible();
  const other = await browser.newContext();
  const kim = await other.newPage();
  await kim.goto(link);
  await expect(kim.getByRole("alert")).toContainText("was revoked");
  await other.close();
});

test("signing in returns to the page it was started from", async ({ page }) => {
  await page.goto("/rules");
  await page.goto("/events");
  await page.getByRole("link", { name: eventName }).first().click();
  const eventUrl = page.url();
  await live(page);
  await page.getByRole("link", { name: "Sign in" }).click();
  await live(page);
  await page.getByLabel("User name or email").fill(returning.name);
  await page.getByLabel("Password").fill(returning.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(`Signed in as ${returning.name}`)).toBeVisible();
  expect(page.url()).toBe(eventUrl);
});
