import { test, expect, Page } from "@playwright/test";
import { createUser, eventInRoundOne, live, run, signIn } from "./support";

// Results of round 1: win attempts in two Battle phases, three game reports (a win, a game
// stopped by the clock, a game reaching turn 10), confirmations from two players' phones, a
// correction by the head judge, and the public standings on a phone.

const hj = { name: `rhj-${run}`, password: "head-judge-password-2" };
const ana = { name: `ana-${run}`, password: "ana-player-password-1" };
const ben = { name: `ben-${run}`, password: "ben-player-password-1" };
const eventName = `Results ${run}`;

test.beforeAll(() => {
  createUser(hj.name, hj.password, true);
  createUser(ana.name, ana.password);
  createUser(ben.name, ben.password);
});

function players(): string {
  const lines = ["name"];
  for (let i = 1; i <= 17; i++) lines.push(`Res ${String(i).padStart(2, "0")} ${run}`);
  return lines.join("\n") + "\n";
}

/// The players of a table page, with their faction codes, in seat order.
async function seats(page: Page): Promise<{ name: string; faction: string }[]> {
  const rows = page.locator("section[aria-labelledby=attempts] tbody tr");
  const out = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const name = (await rows.nth(i).getAttribute("data-player")) ?? "";
    const faction = (await rows.nth(i).locator("td").first().innerText()).trim();
    out.push({ name, faction });
  }
  return out;
}

/// The fieldset of one player in the report form.
function seatGroup(page: Page, name: string) {
  return page.getByRole("group", { name: new RegExp(`^${name} · `) });
}

async function recordAttempts(page: Page, turn: number, who: string[], factions: Map<string, string>) {
  await page.getByLabel("Turn", { exact: true }).selectOption(String(turn));
  for (const name of who) await page.getByLabel(`${name} (${factions.get(name)})`).check();
  await page.getByRole("button", { name: "Save win attempts" }).click();
  await expect(page.locator(".turns")).toContainText(`Turn ${turn}: ${who.join(", ")}`);
}

test("results: win attempts, three reports, phone confirmations, a correction, live standings", async ({ page, browser }) => {
  test.setTimeout(240_000);
  await signIn(page, hj);

  // An event with 17 players, round 1 drawn: tables of 6, 6 and 5.
  const eventUrl = await eventInRoundOne(page, eventName, players(), 17);
  await live(page);
  await page.getByRole("button", { name: "Lock seats and begin play" }).click();
  await expect(page.getByTestId("round-state")).toHaveText("In play: seats are final.");

  const table = (n: number) => `${eventUrl}/rounds/1/tables/${n}`;

  // Table 2: two Battle phases with win attempts by its first two players.
  await page.goto(table(2));
  await live(page);
  const t2 = await seats(page);
  const factions2 = new Map(t2.map((s) => [s.name, s.faction]));
  await recordAttempts(page, 4, [t2[0].name, t2[1].name], factions2);
  await recordAttempts(page, 6, [t2[0].name, t2[1].name], factions2);
  const counts = page.getByTestId("attempt-count");
  await expect(counts.nth(0)).toHaveText("2");
  await expect(counts.nth(1)).toHaveText("2");
  await expect(counts.nth(2)).toHaveText("0");
  // Turn 6 changed without a reason is refused at the reason field; nothing is lost.
  await page.getByLabel("Turn", { exact: true }).selectOption("6");
  await page.getByLabel(`${t2[1].name} (${t2[1].faction})`).check();
  await page.getByRole("button", { name: "Save win attempts" }).click();
  await expect(page.getByText("Turn 6 is already recorded; say why it changes")).toBeVisible();

  // Stopped by the clock: no results; the first two are tied on win attempts and
  // strongholds, and the second has more forces, so the second is adjudicated the winner.
  await page.getByLabel("How the game ended").selectOption("time");
  await page.getByLabel("Last turn played").fill("7");
  await seatGroup(page, t2[0].name).getByLabel("Forces on board").fill("9");
  await seatGroup(page, t2[1].name).getByLabel("Forces on board").fill("14");
  await page.getByRole("button", { name: "Save the report" }).click();
  await expect(page.getByText("Saved as revision 1.")).toBeVisible();
  const adjudication = page.locator(".adjudication li");
  await expect(adjudication.first()).toContainText("Win attempts (4.01.11.01)");
  await expect(adjudication.first()).toContainText("tied on 2");
  await expect(adjudication.last()).toContainText(`receives Adjudicated`);
  await expect(adjudication.last()).toContainText(t2[1].name);
  await page.getByRole("button", { name: "Make this report final (head judge, 4.01.05)" }).click();
  await expect(page.locator(".report-state")).toHaveAttribute("data-state", "final");

  // Table 3 reached the end of turn 10: the Guild's Default Victory, or the Fremen's when the
  // Guild is not at the table (1.09.05). First a result on the wrong player: refused at the field.
  await page.goto(table(3));
  await live(page);
  const t3 = await seats(page);
  const defaultWinner = t3.find((s) => s.faction === "SG") ?? t3.find((s) => s.faction === "FR")!;
  const other = t3.find((s) => s !== defaultWinner && s.faction !== "SG" && s.faction !== "FR")!;
  await page.getByLabel("How the game ended").selectOption("turns");
  await page.getByLabel("Last turn played").fill("10");
  await seatGroup(page, other.name).getByLabel("Result").selectOption("SDV");
  await page.getByRole("button", { name: "Save the report" }).click();
  await expect(seatGroup(page, other.name).locator(".field-error:not([hidden])")).toContainText("Default Victory");
  await expect(page.locator(".report-state")).toHaveAttribute("data-state", "missing");
  await seatGroup(page, other.name).getByLabel("Result").selectOption("");
  await seatGroup(page, defaultWinner.name).getByLabel("Result").selectOption("SDV");
  await page.getByRole("button", { name: "Save the report" }).click();
  await expect(page.getByText("Saved as revision 1.")).toBeVisible();
  await page.getByRole("button", { name: "Make this report final (head judge, 4.01.05)" }).click();
  await expect(page.locator(".report-state")).toHaveAttribute("data-state", "final");

  // Table 1: a Solo Stronghold Victory, written on the wrong line (corrected below).
  await page.goto(table(1));
  await live(page);
  const t1 = await seats(page);
  await page.getByLabel("How the game ended").selectOption("win");
  await page.getByLabel("Last turn played").fill("5");
  await seatGroup(page, t1[0].name).getByLabel("Result").selectOption("SSH");
  await seatGroup(page, t1[0].name).getByLabel("Strongholds").fill("3");
  await seatGroup(page, t1[1].name).getByLabel("Strongholds").fill("3");
  await page.getByRole("button", { name: "Save the report" }).click();
  await expect(page.getByText("Saved as revision 1.")).toBeVisible();

  // Two of its players are linked to their accounts and confirm on their phones.
  await page.goto(eventUrl + "/players");
  await live(page);
  for (const [player, account] of [
    [t1[0].name, ana.name],
    [t1[1].name, ben.name],
  ]) {
    await page.getByLabel("Player", { exact: true }).selectOption({ label: player });
    await page.getByLabel("Account user name").fill(account);
    await page.getByRole("button", { name: "Link", exact: true }).click();
    await expect(page.getByText(`${player} now confirms reports as ${account}.`)).toBeVisible();
  }
  for (const who of [ana, ben]) {
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const mobile = await phone.newPage();
    await signIn(mobile, who);
    await mobile.goto(table(1));
    await live(mobile);
    await expect(mobile.getByRole("heading", { name: "Your confirmation" })).toBeVisible();
    await mobile.getByRole("button", { name: "The report is right" }).click();
    await expect(mobile.locator(".report-state")).toContainText("awaiting confirmation");
    await expect(mobile.getByTestId("my-answer")).toHaveText(/^You confirmed revision 1\./);
    await expect(mobile.getByRole("heading", { name: "Your confirmation" })).toHaveCount(0);
    const overflow = await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.close();
  }
  await page.goto(table(1));
  await live(page);
  await expect(page.locator(".report-state")).toContainText("awaiting confirmation (2 of 6)");
  await page.getByRole("button", { name: "Make this report final (head judge, 4.01.05)" }).click();
  await expect(page.locator(".report-state")).toHaveAttribute("data-state", "final");

  // The public standings on a phone, open while the head judge corrects table 1.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const standings = await phone.newPage();
  await standings.goto(eventUrl + "/standings");
  const names = () => standings.locator(".standings-table > tbody > tr > th > a").allInnerTexts();
  await expect.poll(async () => (await names())[0]).toBe(t1[0].name);
  let order = await names();
  expect(order.indexOf(defaultWinner.name)).toBe(1);
  expect(order.indexOf(t2[1].name)).toBe(2);
  // Five players are clear; the twelve with nothing on the board tie across the cut line.
  await expect(standings.getByRole("rowheader", { name: /Tied across the cut: 12 players for 1 seat/ })).toBeVisible();

  // The correction: the win was the second player's. A reason is required; the revision is
  // final at once and the history keeps both.
  // A refused correction keeps the judge's choices once the browser half runs.
  await live(page);
  await page.getByText("Correct the final report (head judge)").click();
  await seatGroup(page, t1[0].name).getByLabel("Result").selectOption("");
  await seatGroup(page, t1[1].name).getByLabel("Result").selectOption("SSH");
  await page.getByRole("button", { name: "Save the correction" }).click();
  await expect(page.getByText("say why it is corrected")).toBeVisible();
  await page.getByLabel("Reason for the correction").fill("The win was written on the wrong line");
  const saved = Date.now();
  await page.getByRole("button", { name: "Save the correction" }).click();
  // A figure, not a check: from the click to the open standings page showing the new order.
  const shown = standings
    .waitForFunction(
      (name) => document.querySelector(".standings-table > tbody > tr > th > a")?.textContent === name,
      t1[1].name,
      { polling: 20, timeout: 10_000 },
    )
    .then(() => Date.now() - saved);
  await expect(page.getByRole("heading", { name: "Game report · revision 2" })).toBeVisible();
  await expect(page.locator(".history")).toContainText("Why: The win was written on the wrong line");
  await expect(page.locator(".report-state")).toHaveAttribute("data-state", "final");

  // The open standings page follows by itself, without a reload.
  await expect.poll(async () => (await names())[0], { timeout: 10_000 }).toBe(t1[1].name);
  console.log(`live standings: correction saved → new order on the open page in ${await shown} ms`);
  order = await names();
  expect(order.indexOf(t1[0].name)).toBeGreaterThan(2);
  // Tapping a row explains its place against the neighbour below.
  await standings.getByRole("link", { name: t1[1].name, exact: true }).click();
  await expect(standings.getByText("more points (4.01.10)").first()).toBeVisible();
  const overflow = await standings.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // The head judge closes qualifying and draws the open seat, with a recorded seed.
  await page.goto(eventUrl + "/finals");
  await live(page);
  // Three of the four planned rounds are not played: closing asks first.
  await expect(page.getByTestId("rounds-remain")).toHaveText("3 of the 4 qualifying rounds have not been played.");
  await page.getByLabel("Yes, close qualifying after round 1").check();
  await page.getByRole("button", { name: "Close qualifying" }).click();
  await expect(page.getByRole("heading", { name: "Finalists" })).toBeVisible();
  await expect(page.locator("ol.finalists li")).toHaveCount(5);
  await page.getByLabel("Seed (optional)").fill("7");
  await page.getByRole("button", { name: "Draw the open seats" }).click();
  await expect(page.getByTestId("cut-draw")).toContainText("Drawn with seed 7");
  await standings.reload();
  await expect(standings.getByText("seed 7").first()).toBeVisible();
  // The adjudicated game's reasoning is on its table page, for anyone.
  await standings.goto(table(2));
  await expect(standings.locator(".adjudication")).toContainText("receives Adjudicated");
  await phone.close();
});
