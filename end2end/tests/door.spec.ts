import { test, expect, Browser, Page } from "@playwright/test";
import { createUser, live, run } from "./support";

// Check-in at the door on a phone: the head judge types part of a name (without its accents)
// and only the matching players remain; the check-in button is on the screen; a checked-in
// player says so in words and offers a differently labelled undo. Then the events list: when,
// where, how far along and how many players, the past events apart.

const hj = { name: `door-${run}`, password: "door-head-judge-password" };
const eventName = `Door ${run}`;
const pastName = `Door past ${run}`;
const names = ["Hänna Müller", "Søren Ask", "Hans Berg", "Anna Lind", "Joanna Mullins"];

test.beforeAll(() => {
  createUser(hj.name, hj.password, true);
});

async function phone(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, javaScriptEnabled });
  const page = await context.newPage();
  await page.goto("/signin");
  await page.getByLabel("User name or email").fill(hj.name);
  await page.getByLabel("Password").fill(hj.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(`Signed in as ${hj.name}`)).toBeVisible();
  return page;
}

/// Creates an event with the given dates and venue and returns its address.
async function createEvent(page: Page, name: string, first: string, last: string, venue: string): Promise<string> {
  await page.goto("/events");
  await page.getByLabel("Event name").fill(name);
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const eventUrl = page.url();
  await page.goto(eventUrl + "/settings");
  await page.getByLabel("First day").fill(first);
  await page.getByLabel("Last day").fill(last);
  await page.getByLabel("Venue", { exact: true }).fill(venue);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  return eventUrl;
}

async function importNames(page: Page, eventUrl: string, list: string[]) {
  await page.goto(eventUrl + "/players");
  // A new event: the import is open.
  await page.getByLabel("CSV lines").fill(["name", ...list].join("\n") + "\n");
  await page.getByRole("button", { name: "Import players" }).click();
  await expect(page.getByText(`Imported ${list.length} players.`)).toBeVisible();
}

async function withinScreen(page: Page, name: string) {
  const button = page.getByRole("button", { name });
  await expect(button).toBeVisible();
  const box = (await button.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test("the door: find a player as you type, check her in on a 360 px phone, undo told apart", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await phone(browser, true);
  const eventUrl = await createEvent(page, eventName, "2099-07-30", "2099-08-02", "Hall D");
  await importNames(page, eventUrl, names);

  // With players in, the import is folded away under "Import more players".
  // The filter is a small script of its own (public/player-filter.js), not the wasm: it works
  // as soon as the page is read, and a check-in posts plainly or through the browser half alike.
  await page.goto(eventUrl + "/players");
  await expect(page.getByText("Import more players")).toBeVisible();
  await expect(page.getByLabel("CSV lines")).toBeHidden();
  await expect(page.getByRole("rowheader")).toHaveCount(5);

  // The judges' links are one compact row on a phone, the page shown marked: the first
  // player's check-in button is in the first screen, without scrolling.
  const runNav = page.getByRole("navigation", { name: "Running the event" });
  await expect(runNav.getByRole("link", { name: "Players" })).toHaveAttribute("aria-current", "page");
  await expect(runNav.getByRole("link", { name: "Dashboard" })).not.toHaveAttribute("aria-current");
  expect((await runNav.boundingBox())!.height).toBeLessThanOrEqual(64);
  const firstCheckIn = (await page.getByRole("button", { name: /^Check in: / }).first().boundingBox())!;
  expect(firstCheckIn.y + firstCheckIn.height).toBeLessThanOrEqual(740);
  await page.screenshot({ path: "test-results/door-players-360.png" });
  // On its own page the last link of the row is scrolled into view once the page is live.
  await page.goto(eventUrl + "/logs");
  await live(page);
  const logsLink = runNav.getByRole("link", { name: "Game logs" });
  await expect(logsLink).toHaveAttribute("aria-current", "page");
  await expect.poll(async () => {
    const box = (await logsLink.boundingBox())!;
    return box.x >= 0 && box.x + box.width <= 360;
  }).toBe(true);
  await page.goto(eventUrl + "/players");
  await expect(page.getByRole("rowheader")).toHaveCount(5);

  // Part of the name, no accent, lower case: only the matching rows remain as one types.
  const search = page.getByLabel("Find a player");
  await search.pressSequentially("hanna");
  await expect(page.getByRole("rowheader")).toHaveCount(1);
  await expect(page.getByRole("rowheader")).toContainText("Hänna Müller");
  await expect(page.getByTestId("search-result")).toHaveText("1 player found.");
  await search.fill("");
  await search.pressSequentially("mull");
  await expect(page.getByRole("rowheader")).toHaveCount(2);
  await expect(page.getByTestId("search-result")).toHaveText("2 players found.");
  await expect(page).toHaveURL(/\?q=mull$/);

  // Check in from the filtered list: the button is on the screen, no sideways scroll.
  await withinScreen(page, "Check in: Hänna Müller");
  await page.getByRole("button", { name: "Check in: Hänna Müller" }).click();
  await expect(page.getByTestId("player-summary")).toHaveText("5 registered · 1 checked in · 0 dropped");
  // The page comes back still filtered; the row says so in words, and offers an undo that
  // reads and looks different from a check-in.
  await expect(page.getByLabel("Find a player")).toHaveValue("mull");
  await expect(page.getByRole("rowheader")).toHaveCount(2);
  const hanna = page.getByRole("row", { name: /Hänna Müller/ });
  await expect(hanna).toContainText("Checked in");
  await expect(page.getByRole("row", { name: /Joanna Mullins/ })).toContainText("Not checked in");
  await withinScreen(page, "Undo check-in: Hänna Müller");
  await expect(page.getByRole("button", { name: "Check in: Hänna Müller" })).toHaveCount(0);
  const look = (name: string) =>
    page.getByRole("button", { name }).evaluate((b) => getComputedStyle(b).backgroundColor + " " + getComputedStyle(b).color);
  expect(await look("Undo check-in: Hänna Müller")).not.toBe(await look("Check in: Joanna Mullins"));

  // Typed with its accent, the name is folded by the server's own rule.
  await search.fill("");
  await search.pressSequentially("Sø");
  await expect(page.getByRole("rowheader")).toHaveCount(1);
  await expect(page.getByRole("rowheader")).toContainText("Søren Ask");
  // Nobody of that name, then everyone again.
  await search.fill("");
  await search.pressSequentially("xyz");
  await expect(page.getByRole("rowheader")).toHaveCount(0);
  await expect(page.getByTestId("search-result")).toContainText("Nobody of that name");
  await search.fill("");
  await expect(page.getByRole("rowheader")).toHaveCount(5);
  await expect(page.getByTestId("search-result")).toHaveText("");

  // Undo: she is not checked in any more.
  await page.getByRole("button", { name: "Undo check-in: Hänna Müller" }).click();
  await expect(page.getByTestId("player-summary")).toHaveText("5 registered · 0 checked in · 0 dropped");
  await page.context().close();
});

test("the door without JavaScript: the search box is a GET form the server filters", async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await phone(browser, false);
  const eventUrl = await createEvent(page, `${eventName} plain`, "2099-07-30", "2099-07-30", "Hall E");
  await importNames(page, eventUrl, names);
  await page.goto(eventUrl + "/players");
  await page.getByLabel("Find a player").fill("MULL");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/players\?q=MULL$/);
  await expect(page.getByTestId("search-result")).toHaveText("2 players found.");
  await expect(page.getByRole("rowheader")).toHaveCount(2);
  await withinScreen(page, "Check in: Joanna Mullins");
  await page.getByRole("button", { name: "Check in: Joanna Mullins" }).click();
  await expect(page.getByTestId("player-summary")).toHaveText("5 registered · 1 checked in · 0 dropped");
  await expect(page.getByRole("rowheader")).toHaveCount(2);
  await expect(page.getByRole("row", { name: /Joanna Mullins/ })).toContainText("Checked in");
  await page.getByRole("link", { name: "Show everyone" }).click();
  await expect(page.getByRole("rowheader")).toHaveCount(5);
  await page.context().close();
});

test("the events list: date, venue, stage and players; past events apart", async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await phone(browser, true);
  const eventName = `Door list ${run}`;
  const eventUrl = await createEvent(page, eventName, "2099-07-30", "2099-08-02", "Hall D");
  await importNames(page, eventUrl, names);
  await createEvent(page, pastName, "2001-05-01", "2001-05-02", "Old Hall");
  await page.goto("/events");
  const current = page.getByRole("region", { name: "Current and coming events" });
  const past = page.getByRole("region", { name: "Past events" });
  const card = current.getByRole("listitem").filter({ has: page.getByRole("link", { name: eventName, exact: true }) });
  await expect(card).toContainText("30 July 2099 – 2 August 2099");
  await expect(card).toContainText("Hall D");
  await expect(card).toContainText("Registration");
  await expect(card).toContainText("5 players");
  const old = past.getByRole("listitem").filter({ has: page.getByRole("link", { name: pastName, exact: true }) });
  await expect(old).toContainText("1 May 2001 – 2 May 2001");
  await expect(old).toContainText("Old Hall");
  await expect(old).toContainText("Finished");
  await expect(old).toContainText("0 players");
  await expect(current.getByRole("link", { name: pastName })).toHaveCount(0);

  // The new event's dashboard: its setup checklist ticks itself off from the data.
  await page.goto(eventUrl + "/run");
  const setup = page.getByRole("region", { name: "Setting up" });
  await expect(setup.getByTestId("setup-progress")).toHaveText("2 of 5 done");
  await expect(setup.getByRole("listitem").filter({ hasText: "Settings saved" })).toContainText("Done");
  await expect(setup.getByRole("listitem").filter({ hasText: "Players registered" })).toContainText("5 players registered.");
  await expect(setup.getByRole("listitem").filter({ hasText: "Players checked in" })).toContainText("To do");
  await expect(setup.getByRole("listitem").filter({ hasText: "Round 1 drawn" })).toContainText("To do");
  await page.context().close();
});
