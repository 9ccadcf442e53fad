import { expect, Page } from "@playwright/test";
import { execFileSync } from "node:child_process";

/// Creates an account with the real `mentat user add`, reading the password from stdin.
export function createUser(name: string, password: string, admin = false) {
  const bin = process.env.MENTAT_BIN;
  if (!bin) throw new Error("MENTAT_BIN is not set (script/test sets it)");
  const args = ["user", "add", name, ...(admin ? ["--admin"] : [])];
  execFileSync(bin, args, { input: password + "\n", env: process.env, stdio: ["pipe", "pipe", "pipe"] });
}

/// A suffix that keeps names unique when the suite runs twice against one database.
export const run = Date.now().toString(36);

/// Waits until the page is hydrated, so forms are handled by the app rather than posted plainly.
export async function live(page: Page) {
  await expect(page.locator("header[data-live=true]")).toHaveCount(1);
}

/// Signs in through the form, as a person would, and waits for the header to say so.
export async function signIn(page: Page, who: { name: string; password: string }) {
  await page.goto("/signin");
  await live(page);
  await page.getByLabel("User name or email").fill(who.name);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(`Signed in as ${who.name}`)).toBeVisible();
}

/// Creates an event as the signed-in user, from the events list, and returns its address.
export async function createEvent(page: Page, name: string): Promise<string> {
  await page.goto("/events");
  await live(page);
  await page.getByLabel("Event name").fill(name);
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  return page.url();
}

/// Imports `csv` (a header line, then one player a line) on the players page and checks
/// everyone in; `count` is how many players the lines hold.
export async function importAndCheckIn(page: Page, eventUrl: string, csv: string, count: number) {
  await page.goto(eventUrl + "/players");
  await live(page);
  await page.getByLabel("CSV lines").fill(csv);
  await page.getByRole("button", { name: "Import players" }).click();
  await expect(page.getByText(`Imported ${count} players.`)).toBeVisible();
  // Everyone at once asks first: a tick, then the button.
  await page.getByLabel(/^Yes, check in all \d+ players? not checked in yet$/).check();
  await page.getByRole("button", { name: "Check in everyone" }).click();
  await expect(page.getByTestId("player-summary")).toHaveText(`${count} registered · ${count} checked in · 0 dropped`);
}

/// Starts round 1 from the dashboard; the page is left on the round.
export async function startRoundOne(page: Page, eventUrl: string) {
  await page.goto(eventUrl + "/run");
  await live(page);
  await page.getByRole("button", { name: "Start round 1" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Round 1" })).toBeVisible();
}

/// The setup most journeys begin with: a new event, its players imported and checked in, round 1
/// drawn. Returns the event's address; the page is left on round 1.
export async function eventInRoundOne(page: Page, name: string, csv: string, count: number): Promise<string> {
  const eventUrl = await createEvent(page, name);
  await importAndCheckIn(page, eventUrl, csv, count);
  await startRoundOne(page, eventUrl);
  return eventUrl;
}
