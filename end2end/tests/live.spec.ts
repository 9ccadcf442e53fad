import { test, expect, Page } from "@playwright/test";
import { createUser, eventInRoundOne, live, run, signIn } from "./support";

// Live where the judge looks (issue 27): a round page open on the projector's 1920 px screen and
// a table page open on a judge's 1366 px laptop follow the event's news as the dashboard does.
// A dispute raised on a 360 px phone without JavaScript shows on both within 2 s, without a
// reload; the head judge's final word stops the table's clock on both; and without JavaScript
// the pages say when they were rendered and offer a refresh.

const hj = { name: `live-hj-${run}`, password: "live-head-judge-password" };
const ana = { name: `live-ana-${run}`, password: "live-ana-password-1" };
const eventName = `Live ${run}`;

test.beforeAll(() => {
  createUser(hj.name, hj.password, true);
  createUser(ana.name, ana.password);
});

function players(): string {
  const lines = ["name"];
  for (let i = 1; i <= 10; i++) lines.push(`Live ${String(i).padStart(2, "0")} ${run}`);
  return lines.join("\n") + "\n";
}

/// Marks the page, so a reload (which would wipe the mark) is seen.
async function mark(page: Page) {
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
}

async function stayed(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed === true);
}

test("a dispute from a phone reaches the open round and table pages, and a final report stops their clock", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, hj);
  const eventUrl = await eventInRoundOne(page, eventName, players(), 10);
  await live(page);
  await page.getByRole("button", { name: "Start all clocks" }).click();
  await expect(page.getByText("Clocks started at 2 tables (1, 2).")).toBeVisible();

  // Table 1: a win saved by the judge; its first player is Ana, on her phone.
  const tableUrl = `${eventUrl}/rounds/1/tables/1`;
  await page.goto(tableUrl);
  await live(page);
  const names = await page
    .locator("section[aria-labelledby=attempts] tbody tr")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-player") ?? ""));
  await page.getByLabel("How the game ended").selectOption("win");
  await page.getByLabel("Last turn played").fill("5");
  const winner = page.getByRole("group", { name: new RegExp(`^${names[1]} · `) });
  await winner.getByLabel("Result").selectOption("SSH");
  // A solo stronghold win takes three strongholds (1.09.02.01); fewer is refused at the field.
  await winner.getByLabel("Strongholds").fill("3");
  await page.getByRole("button", { name: "Save the report" }).click();
  await expect(page.getByText("Saved as revision 1.")).toBeVisible();
  // The confirmation is said where the eye is: the page opens at it.
  await expect(page.getByText("Saved as revision 1.")).toBeInViewport();
  await page.goto(eventUrl + "/players");
  await live(page);
  await page.getByLabel("Player", { exact: true }).selectOption({ label: names[0] });
  await page.getByLabel("Account user name").fill(ana.name);
  await page.getByRole("button", { name: "Link", exact: true }).click();
  await expect(page.getByText(`${names[0]} now confirms reports as ${ana.name}.`)).toBeVisible();
  await expect(page.getByText(`${names[0]} now confirms reports as ${ana.name}.`)).toBeInViewport();

  // The round page on the projector's screen, the table page on a judge's laptop.
  const projector = await page.context().newPage();
  await projector.setViewportSize({ width: 1920, height: 1080 });
  await projector.goto(eventUrl + "/rounds/1");
  await live(projector);
  const laptop = await page.context().newPage();
  await laptop.setViewportSize({ width: 1366, height: 768 });
  await laptop.goto(tableUrl);
  await live(laptop);
  for (const p of [projector, laptop]) {
    await expect(p.locator("[data-live-stamp]")).toContainText("Live");
    await mark(p);
  }
  const badge = projector.locator('section[data-table="1"] .badge.flag');
  await expect(badge).toHaveText("Report awaits confirmation");
  const roundClock = projector.locator('section[data-table="1"] .clock');
  await expect(roundClock).toHaveAttribute("data-phase", "running");
  const tableClock = laptop.locator(".clock");
  await expect(tableClock).toHaveAttribute("data-phase", "running");
  await expect(laptop.locator(".report-state")).toHaveAttribute("data-state", "awaiting");

  // Ana's phone has no JavaScript: she disputes the report with a plain form.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
  const mobile = await phone.newPage();
  await mobile.goto("/signin");
  await mobile.getByLabel("User name or email").fill(ana.name);
  await mobile.getByLabel("Password").fill(ana.password);
  await mobile.getByRole("button", { name: "Sign in" }).click();
  await expect(mobile.getByText(`Signed in as ${ana.name}`)).toBeVisible();
  await mobile.goto(tableUrl);
  // Without JavaScript the page says when it was rendered, and offers a refresh.
  await expect(mobile.locator("[data-live-stamp]")).toHaveText(/^Shown as of \d\d:\d\d:\d\d UTC\.$/);
  await expect(mobile.getByRole("link", { name: "Refresh" })).toHaveAttribute("href", "/events/" + new URL(eventUrl).pathname.split("/")[2] + "/rounds/1/tables/1");
  await mobile.getByText("Something is wrong").click();
  await mobile.getByLabel("What is wrong?").fill("My spice was 4, not 0");
  await mobile.getByRole("button", { name: "Dispute: call the head judge" }).click();
  await expect(mobile.getByTestId("my-answer")).toHaveText(/^You disputed revision 1/);

  // Within 2 s, on both open pages, without a reload.
  await expect(badge).toHaveText("Disputed: a judge is called", { timeout: 2_000 });
  await expect(laptop.locator(".report-state")).toHaveAttribute("data-state", "disputed", { timeout: 2_000 });
  await expect(laptop.locator(`tr[data-player="${names[0]}"] .answer-cell`)).toHaveText("disputes: My spice was 4, not 0");
  await expect(laptop.locator("[data-live-stamp]")).toContainText("updated");
  expect(await stayed(projector)).toBe(true);
  expect(await stayed(laptop)).toBe(true);

  // The head judge settles it from the dashboard: the report stands and is final. On both open
  // pages the clock stops and the state says so, within 2 s, still without a reload.
  await page.goto(eventUrl + "/run");
  await live(page);
  const dispute = page.getByRole("listitem", { name: `Dispute at round 1, table 1: ${names[0]}` });
  await dispute.getByLabel("What was decided").fill("Counted together: the spice was 0");
  await dispute.getByLabel("The report stands: make it final (4.01.05)").check();
  await dispute.getByRole("button", { name: /^Resolve:/ }).click();
  await expect(page.getByText("Dispute resolved; the report is final.")).toBeVisible();
  await expect(roundClock).toHaveAttribute("data-stopped", "true", { timeout: 2_000 });
  await expect(roundClock).toContainText("Stopped · the report is final");
  await expect(projector.locator('section[data-table="1"] .badge').first()).toHaveText("Report final");
  await expect(projector.locator('section[data-table="2"] .clock')).toHaveAttribute("data-phase", "running");
  await expect(tableClock).toHaveAttribute("data-stopped", "true", { timeout: 2_000 });
  await expect(laptop.locator(".report-state")).toHaveAttribute("data-state", "final");
  // The clock swapped in ticks no more: it reads the same a second later.
  const stoppedAt = await tableClock.locator(".clock-time").innerText();
  await laptop.waitForTimeout(1_200);
  await expect(tableClock.locator(".clock-time")).toHaveText(stoppedAt);
  // Table 2's clock, never swapped, still ticks.
  const running = projector.locator('section[data-table="2"] .clock-time');
  const before = await running.innerText();
  await expect(running).not.toHaveText(before, { timeout: 3_000 });
  expect(await stayed(projector)).toBe(true);
  expect(await stayed(laptop)).toBe(true);

  // No sideways scroll on any of the three screens.
  for (const p of [projector, laptop, mobile]) {
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }
  await phone.close();
});
