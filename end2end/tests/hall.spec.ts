import { test, expect, Page } from "@playwright/test";
import { createUser, live, run, signIn } from "./support";

// A head judge's day in the hall (issue 18): every clock of a round started at one instant,
// paused and resumed; a player renamed, seen on the round page and the standings; a dispute
// raised on a phone without JavaScript reaching the open dashboard's queue by itself, taken and
// resolved there; a final report stopping its table's clock; closing qualifying with rounds
// left asking first, and reopening it; the players' QR codes at the address phones reach; the
// players around the finals line with their best games.

const hj = { name: `hall-hj-${run}`, password: "hall-head-judge-password" };
const ana = { name: `hall-ana-${run}`, password: "hall-ana-password-1" };
const eventName = `Hall ${run}`;

test.beforeAll(() => {
  createUser(hj.name, hj.password, true);
  createUser(ana.name, ana.password);
});

function players(): string {
  const lines = ["name"];
  for (let i = 1; i <= 12; i++) lines.push(`Hall ${String(i).padStart(2, "0")} ${run}`);
  return lines.join("\n") + "\n";
}

/// The players of a table page in seat order.
async function seatNames(page: Page): Promise<string[]> {
  const rows = page.locator("section[aria-labelledby=attempts] tbody tr");
  const out: string[] = [];
  for (let i = 0; i < (await rows.count()); i++) out.push((await rows.nth(i).getAttribute("data-player")) ?? "");
  return out;
}

/// A win for the first seat, saved by the judge on the table page (revision 1).
async function saveWin(page: Page, url: string): Promise<string[]> {
  await page.goto(url);
  await live(page);
  const names = await seatNames(page);
  await page.getByLabel("How the game ended").selectOption("win");
  await page.getByLabel("Last turn played").fill("5");
  const winner = page.getByRole("group", { name: new RegExp(`^${names[0]} · `) });
  await winner.getByLabel("Result").selectOption("SSH");
  // A Solo Stronghold Victory takes three strongholds (1.09.02.01).
  await winner.getByLabel("Strongholds").fill("3");
  await page.getByRole("button", { name: "Save the report" }).click();
  await expect(page.getByText("Saved as revision 1.")).toBeVisible();
  return names;
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test("the hall: room clocks, a rename, a dispute from a phone, a stopped clock, guarded closing", async ({ page, browser }) => {
  test.setTimeout(240_000);
  await signIn(page, hj);
  await page.goto("/events");
  await live(page);
  await page.getByLabel("Event name").fill(eventName);
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByRole("heading", { level: 1, name: eventName })).toBeVisible();
  const eventUrl = page.url();
  const slug = new URL(eventUrl).pathname.split("/")[2];

  // Removing someone's role asks once: without the tick it is refused at that row's box.
  await page.goto(eventUrl + "/staff");
  await live(page);
  await page.getByLabel("User name", { exact: true }).fill(ana.name);
  await page.getByLabel("Role", { exact: true }).selectOption("judge");
  await page.getByRole("button", { name: "Give role" }).click();
  const anaRow = page.getByRole("row", { name: new RegExp(`^${ana.name} Judge`) });
  const removeAna = anaRow.getByRole("button", { name: `Remove ${ana.name}'s role` });
  await removeAna.click();
  await expect(anaRow.getByText(`Tick the box to confirm that ${ana.name}'s role is to be removed; nothing was changed.`)).toBeVisible();
  await anaRow.getByLabel(`Yes, remove ${ana.name}'s role`).check();
  await removeAna.click();
  await expect(page.getByRole("row", { name: new RegExp(`^${ana.name} `) })).toHaveCount(0);
  await page.goto(eventUrl + "/players");
  await live(page);
  await page.getByLabel("CSV lines").fill(players());
  await page.getByRole("button", { name: "Import players" }).click();
  await expect(page.getByText("Imported 12 players.")).toBeVisible();
  // Everyone at once asks first: a tick, then the button.
  await page.getByLabel(/^Yes, check in all \d+ players? not checked in yet$/).check();
  await page.getByRole("button", { name: "Check in everyone" }).click();
  await expect(page.getByTestId("player-summary")).toHaveText("12 registered · 12 checked in · 0 dropped");
  await page.goto(eventUrl + "/run");
  await live(page);

  // The players' QR codes: served on 127.0.0.1, the dashboard says phones cannot open them and
  // where to set the address; a malformed address is refused at its field; once set, both codes
  // and their plain links carry it and the warning is gone.
  const warning = page.getByTestId("qr-warning");
  await expect(warning).toContainText("127.0.0.1");
  const local = new RegExp(`^QR code: Find my seat, http://127\\.0\\.0\\.1:\\d+/events/${slug}/find$`);
  await expect(page.getByRole("img", { name: local })).toBeVisible();
  await warning.getByRole("link", { name: "Set the public address in the event's settings" }).click();
  await live(page);
  await page.getByLabel("Public address").fill("mentat.example.org/events");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Start the address with https:// or http://")).toBeVisible();
  await page.getByLabel("Public address").fill("https://mentat.example.org");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.goto(eventUrl + "/run");
  await live(page);
  const publicFind = `https://mentat.example.org/events/${slug}/find`;
  const publicStandings = `https://mentat.example.org/events/${slug}/standings`;
  await expect(page.getByRole("img", { name: `QR code: Find my seat, ${publicFind}` })).toBeVisible();
  await expect(page.getByRole("img", { name: `QR code: Live standings, ${publicStandings}` })).toBeVisible();
  await expect(page.getByRole("link", { name: publicFind, exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: publicStandings, exact: true })).toBeVisible();
  await expect(page.getByTestId("qr-warning")).toHaveCount(0);
  // On paper: the two codes, labelled, with their addresses in plain letters.
  await page.getByRole("link", { name: "Print the QR codes (one per half page)" }).click();
  await expect(page.getByRole("img", { name: `QR code: Find my seat, ${publicFind}` })).toBeVisible();
  await expect(page.getByRole("img", { name: `QR code: Live standings, ${publicStandings}` })).toBeVisible();
  await expect(page.getByText(publicFind, { exact: true })).toBeVisible();
  await page.goto(eventUrl + "/run");
  await live(page);
  await page.getByRole("button", { name: "Start round 1" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Round 1" })).toBeVisible();
  await live(page);

  // Start all clocks: both tables at one stored instant, and the round begins.
  await page.getByRole("button", { name: "Start all clocks" }).click();
  await expect(page.getByText("Clocks started at 2 tables (1, 2).")).toBeVisible();
  const round = await (await page.request.get(`/api/v1/events/${slug}/rounds/1`)).json();
  const starts = round.tables.map((t: { clock: { started_at: string } }) => t.clock.started_at);
  expect(starts).toHaveLength(2);
  expect(starts[0]).toBeTruthy();
  expect(starts[1]).toBe(starts[0]);
  await expect(page.locator(".clock[data-phase=running]")).toHaveCount(2);
  // A fire alarm: every clock pauses, then runs again.
  await page.getByRole("button", { name: "Pause all clocks" }).click();
  await expect(page.getByText("Clocks paused at 2 tables (1, 2).")).toBeVisible();
  await expect(page.locator(".clock[data-paused=true]")).toHaveCount(2);
  await page.getByRole("button", { name: "Resume all clocks" }).click();
  await expect(page.getByText("Clocks resumed at 2 tables (1, 2).")).toBeVisible();
  await expect(page.locator(".clock[data-paused=true]")).toHaveCount(0);

  // Table 1's first player is renamed (a typo at registration) and linked to Ana's account.
  const table = (n: number) => `${eventUrl}/rounds/1/tables/${n}`;
  const t1 = await saveWin(page, table(1));
  const typo = t1[2];
  const fixed = `Hanna Ölund ${run}`;
  await page.goto(eventUrl + "/players");
  await live(page);
  await page.getByRole("link", { name: `Edit: ${typo}` }).click();
  await live(page);
  await page.getByLabel("Name").fill(fixed);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(`Saved: ${fixed}.`)).toBeVisible();
  await page.goto(eventUrl + "/rounds/1");
  await expect(page.locator("section.game-table").getByText(fixed)).toBeVisible();
  // The A–Z list tells where she sits, folded away until asked.
  await page.getByText(/^Players A–Z and their tables/).click();
  await expect(page.locator(".az li").filter({ hasText: fixed })).toContainText(/table [12] · seat [1-6]/);
  await expect(page.getByText(typo, { exact: true })).toHaveCount(0);
  await page.goto(eventUrl + "/standings");
  await expect(page.getByRole("link", { name: fixed, exact: true })).toBeVisible();
  // The forgiving search finds her without the accent, in lower case.
  await page.goto(eventUrl + "/find?q=hanna+olund");
  await expect(page.getByRole("link", { name: fixed })).toBeVisible();
  const card = (await page.getByRole("link", { name: fixed }).getAttribute("href"))!;
  await page.goto(eventUrl + "/players");
  await live(page);
  await page.getByLabel("Player", { exact: true }).selectOption({ label: fixed });
  await page.getByLabel("Account user name").fill(ana.name);
  await page.getByRole("button", { name: "Link", exact: true }).click();
  await expect(page.getByText(`${fixed} now confirms reports as ${ana.name}.`)).toBeVisible();

  // The dashboard is open while Ana, on her phone, finds the report waiting on her card.
  await page.goto(eventUrl + "/run");
  await live(page);
  await expect(page.getByTestId("queue-heading")).toHaveText("Needs a judge: 1");
  // The projector shows the table's state too, and follows it by itself.
  const wall = await page.context().newPage();
  await wall.setViewportSize({ width: 1366, height: 768 });
  await wall.goto(eventUrl + "/clocks?view=clocks");
  await expect(wall.locator("html[data-live=true]")).toHaveCount(1);
  const wallBadge = wall.locator('.board-table[data-table="1"] .badge');
  await expect(wallBadge).toHaveText("Report awaits confirmation");
  // Her phone runs no JavaScript (or the wasm has not arrived): every step is a plain form.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
  const mobile = await phone.newPage();
  await mobile.goto("/signin");
  await mobile.getByLabel("User name or email").fill(ana.name);
  await mobile.getByLabel("Password").fill(ana.password);
  await mobile.getByRole("button", { name: "Sign in" }).click();
  await expect(mobile.getByText(`Signed in as ${ana.name}`)).toBeVisible();
  await mobile.goto(card);
  await expect(mobile.getByRole("heading", { name: "Your table's report awaits your confirmation" })).toBeVisible();
  await expect(mobile.getByRole("button", { name: "The report is right" })).toBeInViewport();
  await noSidewaysScroll(mobile);
  await mobile.getByText("Something is wrong").click();
  await mobile.getByLabel("What is wrong?").fill("I had 4 spice, not 0");
  await mobile.getByRole("button", { name: "Dispute: call the head judge" }).click();
  await expect(mobile.getByText("You disputed it; a judge is called.")).toBeVisible();
  await expect(wallBadge).toHaveText("Disputed: a judge is called");

  // The dispute reaches the open dashboard by itself; the head judge takes it and resolves it.
  const dispute = page.getByRole("listitem", { name: `Dispute at round 1, table 1: ${fixed}` });
  await expect(dispute).toBeVisible();
  await expect(dispute).toContainText("I had 4 spice, not 0");
  await expect(dispute.getByTestId("taken-by")).toHaveText("Nobody has taken it yet.");
  await dispute.getByRole("button", { name: /^Take:/ }).click();
  await expect(dispute.getByTestId("taken-by")).toHaveText("You have it.");
  await dispute.getByLabel("What was decided").fill("Counted together: the spice was 0");
  await dispute.getByLabel("The report stands: make it final (4.01.05)").check();
  await dispute.getByRole("button", { name: /^Resolve:/ }).click();
  await expect(page.getByText("Dispute resolved; the report is final.")).toBeVisible();
  await expect(dispute).toHaveCount(0);
  await expect(wallBadge).toHaveText("Report final");
  await wall.close();
  // Ana reads the decision on her card.
  await mobile.reload();
  await expect(mobile.getByText("Your table's report is final.")).toBeVisible();
  await phone.close();

  // The final report stopped table 1's clock; table 2's runs on.
  await page.goto(eventUrl + "/rounds/1");
  await live(page);
  const clock1 = page.locator('section[data-table="1"] .clock');
  await expect(clock1).toHaveAttribute("data-stopped", "true");
  await expect(clock1).toContainText("Stopped · the report is final");
  await expect(page.locator('section[data-table="2"] .clock')).not.toHaveAttribute("data-stopped", "true");
  // A stopped clock offers no command any more (the server refuses them too); table 2 keeps its own.
  await expect(page.getByRole("button", { name: "Pause clock, table 1" })).toHaveCount(0);
  await expect(page.getByText("Extend table 1's clock")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Pause clock, table 2" })).toBeVisible();
  await expect(page.getByText("Extend table 2's clock")).toBeVisible();

  // Closing qualifying after round 1 of 4 asks first, then closes; no round starts; reopening.
  await saveWin(page, table(2));
  await page.getByRole("button", { name: "Make this report final (head judge, 4.01.05)" }).click();
  await expect(page.locator(".report-state")).toHaveAttribute("data-state", "final");
  await page.goto(eventUrl + "/finals");
  await live(page);
  // Around the finals line: the two winners, then ten players tied across the cut on points
  // and on their best game's score (4.01.11), each shown.
  const cut = page.getByRole("table", { name: "Players around the finals line" });
  const tied = cut.getByRole("row").filter({ hasText: "(tied across the cut)" });
  await expect(tied).toHaveCount(10);
  for (let i = 0; i < 10; i++) {
    // The best game in short, each value before its abbreviation (the legend beside says which).
    await expect(tied.nth(i).getByTestId("best-game")).toHaveText(/^\d+½?\spts · \d+\sWA · \d+\sSH · \d+\sF · \d+\sSp · \d+\sC · \d+\sL$/);
    await expect(tied.nth(i).getByRole("cell").nth(1)).toHaveText("0");
  }
  await expect(page.getByTestId("rounds-remain")).toHaveText("3 of the 4 qualifying rounds have not been played.");
  await page.getByRole("button", { name: "Close qualifying" }).click();
  await expect(page.getByText("Closing now ends qualifying after round 1: tick the box to confirm.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "In the finals if qualifying closed now" })).toBeVisible();
  await page.getByLabel("Yes, close qualifying after round 1").check();
  await page.getByRole("button", { name: "Close qualifying" }).click();
  await expect(page.getByRole("heading", { name: "Finalists", exact: true })).toBeVisible();
  await page.goto(eventUrl + "/run");
  await live(page);
  await expect(page.getByRole("button", { name: "Start round 2" })).toHaveCount(0);
  await expect(page.getByText("Qualifying is closed: seat the final table on the")).toBeVisible();
  await page.goto(eventUrl + "/finals");
  await live(page);
  await page.getByRole("button", { name: "Reopen qualifying" }).click();
  await expect(page.getByRole("heading", { name: "In the finals if qualifying closed now" })).toBeVisible();
  await page.goto(eventUrl + "/run");
  await live(page);
  await page.getByRole("button", { name: "Start round 2" }).click();
  // The dashboard opens the round once it is drawn.
  await expect(page).toHaveURL(/\/rounds\/2$/, { timeout: 20_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Round 2" })).toBeVisible();
});
