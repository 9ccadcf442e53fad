import { test, expect } from "@playwright/test";
import { createUser, live, run, signIn } from "./support";

// A head judge runs round 1 of a qualifier from Mentat; a player finds their seat on a phone.

const admin = { name: `hj-${run}`, password: "head-judge-password-1" };
const eventName = `Qualifier ${run}`;

const CLASSIC = new Set(["Atreides", "Bene Gesserit", "Emperor", "Fremen", "Harkonnen", "Spacing Guild"]);

function csv(): string {
  const lines = ["name,email,club"];
  for (let i = 1; i <= 17; i++) {
    if (i === 9) lines.push("Broken Line,not-an-email,Nowhere");
    lines.push(`Player ${String(i).padStart(2, "0")} ${run},p${i}-${run}@example.org,Club ${i % 3}`);
  }
  return lines.join("\n") + "\n";
}

/// "5:59:58" → seconds.
function seconds(text: string): number {
  const [h, m, s] = text.trim().split(":").map(Number);
  return h * 3600 + m * 60 + s;
}

test.beforeAll(() => {
  createUser(admin.name, admin.password, true);
});

test("run round 1: import, check in, draw, a player's phone, a clock that survives a reload", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, admin);

  // Create the event and set it up.
  await page.goto("/events");
  await live(page);
  await page.getByLabel("Event name").fill(eventName);
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByRole("heading", { level: 1, name: eventName })).toBeVisible();
  const eventUrl = page.url();
  await page.getByRole("link", { name: "Event settings" }).click();
  await live(page);
  await page.getByLabel("Venue", { exact: true }).fill("Hall D");
  await page.getByLabel("Qualifying rounds").fill("0");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("An event has 1 to 20 qualifying rounds.")).toBeVisible();
  await expect(page.getByLabel("Qualifying rounds")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Qualifying rounds").fill("3");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();

  // Import 17 players; the bad line is reported with its number and reason.
  await page.goto(eventUrl + "/players");
  await live(page);
  await page.getByLabel("CSV lines").fill(csv());
  await page.getByRole("button", { name: "Import players" }).click();
  await expect(page.getByText("Imported 17 players.")).toBeVisible();
  const refused = page.locator(".refused li");
  await expect(refused).toHaveCount(1);
  await expect(refused).toContainText("Line 10");
  await expect(refused).toContainText("Broken Line,not-an-email,Nowhere");
  await expect(refused).toContainText("email address");
  await expect(page.getByTestId("player-summary")).toHaveText("17 registered · 0 checked in · 0 dropped");

  // Check one in by hand, then everyone.
  await page.getByRole("button", { name: `Check in: Player 01 ${run}` }).click();
  await expect(page.getByTestId("player-summary")).toHaveText("17 registered · 1 checked in · 0 dropped");
  // Everyone at once asks first: a tick, then the button.
  await page.getByLabel(/^Yes, check in all \d+ players? not checked in yet$/).check();
  await page.getByRole("button", { name: "Check in everyone" }).click();
  await expect(page.getByTestId("player-summary")).toHaveText("17 registered · 17 checked in · 0 dropped");

  // Start round 1: tables of 6, 6 and 5, each with distinct classic factions.
  await page.goto(eventUrl + "/run");
  await live(page);
  await expect(page.getByText("3 tables: 6 + 6 + 5 (4.01.01).")).toBeVisible();
  await page.getByRole("button", { name: "Start round 1" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Round 1" })).toBeVisible();
  await expect(page.getByTestId("seed")).toHaveText(/^\d+$/);
  const tables = page.locator("section.game-table");
  await expect(tables).toHaveCount(3);
  const sizes: number[] = [];
  for (let t = 0; t < 3; t++) {
    const factions = await tables.nth(t).locator("td.faction").allInnerTexts();
    sizes.push(factions.length);
    const names = factions.map((f) => f.replace(/ \([A-Z]{2}\)$/, ""));
    expect(new Set(names).size, `table ${t + 1} factions are distinct`).toBe(names.length);
    for (const name of names) expect(CLASSIC.has(name), `${name} is classic`).toBe(true);
  }
  expect(sizes).toEqual([6, 6, 5]);

  // Pick a player at table 1 and remember what the round page says of them.
  const firstRow = tables.nth(0).locator("tbody tr").first();
  const seatNumber = (await firstRow.locator("td").nth(0).innerText()).trim();
  const playerName = (await firstRow.locator("th").innerText()).trim();
  const faction = (await firstRow.locator("td.faction").innerText()).replace(/ \([A-Z]{2}\)$/, "").trim();

  // The player's phone: 360 px wide, no account.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const mobile = await phone.newPage();
  await mobile.goto(eventUrl);
  await mobile.getByLabel("Your name").fill(playerName);
  await mobile.getByRole("button", { name: "Find me" }).click();
  await mobile.getByRole("link", { name: playerName }).click();
  await expect(mobile.getByRole("heading", { level: 1, name: playerName })).toBeVisible();
  await expect(mobile.getByTestId("table")).toHaveText("1");
  await expect(mobile.getByTestId("seat")).toHaveText(seatNumber);
  await expect(mobile.getByTestId("circle")).toHaveText(/^[0-5]$/);
  await expect(mobile.getByTestId("faction")).toHaveText(faction);
  await expect(mobile.locator(".clock")).toHaveAttribute("data-phase", "not-started");
  await expect(mobile.locator(".clock-time")).toHaveText("6:00:00");
  // Nothing spills sideways at 360 px.
  const overflow = await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // The head judge starts table 1's clock.
  await live(page);
  await page.getByRole("button", { name: "Start clock, table 1" }).click();
  await expect(tables.nth(0).locator(".clock")).toHaveAttribute("data-phase", "running");
  await expect(page.getByTestId("round-state")).toHaveText("In play: seats are final.");

  // The phone picks it up (after a reload here; it also polls) and ticks live.
  await mobile.reload();
  await live(mobile);
  const clock = mobile.locator(".clock-time");
  await expect(mobile.locator(".clock")).toHaveAttribute("data-phase", "running");
  const first = seconds(await clock.innerText());
  expect(first).toBeLessThanOrEqual(6 * 3600);
  await expect.poll(async () => seconds(await clock.innerText()), { timeout: 5_000 }).toBeLessThan(first);

  // Reload: the time is kept (it comes from the stored start, not from the page).
  await mobile.waitForTimeout(2_000);
  const beforeReload = seconds(await clock.innerText());
  await mobile.reload();
  const afterReload = seconds(await mobile.locator(".clock-time").innerText());
  expect(afterReload).toBeLessThanOrEqual(beforeReload);
  expect(afterReload).toBeGreaterThan(beforeReload - 10);
  expect(afterReload).toBeLessThanOrEqual(6 * 3600 - 2);

  // The head judge's page after a reload shows the same running clock.
  await page.reload();
  await expect(tables.nth(0).locator(".clock")).toHaveAttribute("data-phase", "running");
  expect(seconds(await tables.nth(0).locator(".clock-time").innerText())).toBeLessThan(6 * 3600 - 2);

  // Pause, resume, and an extension, which needs a reason.
  await live(page);
  const t1 = tables.nth(0);
  await page.getByRole("button", { name: "Pause clock, table 1" }).click();
  await expect(t1.locator(".clock")).toHaveAttribute("data-paused", "true");
  await expect(t1.locator(".clock-state")).toContainText("Paused");
  await page.getByRole("button", { name: "Resume clock, table 1" }).click();
  await expect(t1.locator(".clock")).not.toHaveAttribute("data-paused", "true");
  // Each change comes back as the page rendered afresh; a refused extension keeps what was
  // typed only once the browser half runs (without it, the page says why and the form is empty).
  await live(page);
  await t1.getByText("Extend table 1's clock").click();
  await t1.getByLabel("Minutes to add").fill("10");
  await t1.getByRole("button", { name: "Extend" }).click();
  await expect(t1.getByText("Give the reason for the extension")).toBeVisible();
  await expect(t1.getByLabel("Minutes to add")).toHaveValue("10");
  await t1.getByLabel("Reason").fill("Rules question in the Battle phase");
  await t1.getByRole("button", { name: "Extend" }).click();
  await expect(t1.locator(".clock-state")).toContainText("6 h 10 min");
  // The round's changes read as sentences, with the reason given.
  await expect(page.locator(".changes li").filter({ hasText: "gave 10 more minutes" })).toContainText("Rules question in the Battle phase");

  // Without JavaScript the phone reads the same page, rendered whole by the server.
  const cardUrl = mobile.url();
  const plain = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
  const noJs = await plain.newPage();
  await noJs.goto(cardUrl);
  await expect(noJs.getByTestId("table")).toHaveText("1");
  await expect(noJs.getByTestId("faction")).toHaveText(faction);
  await expect(noJs.locator(".clock")).toHaveAttribute("data-phase", "running");
  await plain.close();

  // The projector lists every table.
  await mobile.goto(eventUrl + "/clocks");
  await expect(mobile.locator(".board-table")).toHaveCount(3);
  await phone.close();
});

test("a stale page gets 'this changed, reload', never a silent overwrite", async ({ page: a }) => {
  await signIn(a, admin);
  await a.goto("/events");
  await live(a);
  await a.getByLabel("Event name").fill(`Stale ${run}`);
  await a.getByRole("button", { name: "Create event" }).click();
  await expect(a.getByRole("heading", { level: 1, name: `Stale ${run}` })).toBeVisible();
  await a.getByRole("link", { name: "Event settings" }).click();
  await live(a);
  // A second tab of the same judge, loaded before the first saves.
  const b = await a.context().newPage();
  await b.goto(a.url());
  await live(b);
  await a.getByLabel("Venue", { exact: true }).fill("Hall E");
  await a.getByRole("button", { name: "Save settings" }).click();
  await expect(a.getByText("Saved.")).toBeVisible();
  await b.getByLabel("Venue", { exact: true }).fill("Hall F");
  await b.getByRole("button", { name: "Save settings" }).click();
  await expect(b.getByRole("alert").filter({ hasText: "changed since you loaded them" })).toBeVisible();
  await b.reload();
  await expect(b.getByLabel("Venue", { exact: true })).toHaveValue("Hall E");
});
