import { test, expect } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createUser, live, run, signIn } from "./support";

// The judge's replay desk: a log pasted at a table is verified line by line as it is typed, the
// board is drawn turn by turn, rules are one tap away on a phone, and a batch of logs is uploaded.

const judge = { name: `log-${run}`, password: "log-judge-password-1" };
const eventName = `Replay ${run}`;

// A complete two-turn game from the engine's own fixtures.
const legal = readFileSync(join(__dirname, "../../engine/tests/games/legal-two-turn-example.dgn"), "utf8");
// Two independent mistakes: Atreides declare 2 cards on line 26 (they hold 1, 1.04.01), and the
// Guild pays 3 for a half-price shipment of 4 on line 69 (2.06.06).
const wrongDeclaration = legal.replace("A decl SG1 FR1 AT1 BG1 HK2 EM1", "A decl SG1 FR1 AT2 BG1 HK2 EM1");
const twoMistakes = wrongDeclaration.replace("M SG ship 4 TUK $2 ;", "M SG ship 4 TUK $3 ;");
const oneMistake = legal.replace("M SG ship 4 TUK $2 ;", "M SG ship 4 TUK $3 ;");
// A complete game the Harkonnen win alone in turn 2: the engine derives its whole report.
const solo = readFileSync(join(__dirname, "../../engine/tests/games/legal-game-solo-stronghold-victory.dgn"), "utf8");

// A full-format game with the Ixians and the Tleilaxu: the Tleilaxu ship into the Ixians' Hidden
// Mobile Stronghold on line 17, which only the Ixians may (000 2.07.20).
const fullFormat = readFileSync(
  join(__dirname, "../../engine/tests/games/illegal-2.07.20-shipment-into-the-ixians-stronghold.dgn"),
  "utf8",
);

test.beforeAll(() => {
  createUser(judge.name, judge.password, true);
});

function players(n: number): string {
  const lines = ["name"];
  for (let i = 1; i <= n; i++) lines.push(`Log ${String(i).padStart(2, "0")} ${run}`);
  return lines.join("\n") + "\n";
}

test("a log's violations appear at their lines as it is typed, and the board follows the turns", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, judge);
  await page.goto("/events");
  await live(page);
  await page.getByLabel("Event name").fill(eventName);
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByRole("heading", { level: 1, name: eventName })).toBeVisible();
  const eventUrl = page.url();
  await page.goto(eventUrl + "/players");
  await live(page);
  await page.getByLabel("CSV lines").fill(players(11));
  await page.getByRole("button", { name: "Import players" }).click();
  await expect(page.getByText("Imported 11 players.")).toBeVisible();
  // Everyone at once asks first: a tick, then the button.
  await page.getByLabel(/^Yes, check in all \d+ players? not checked in yet$/).check();
  await page.getByRole("button", { name: "Check in everyone" }).click();
  await expect(page.getByTestId("player-summary")).toHaveText("11 registered · 11 checked in · 0 dropped");
  await page.goto(eventUrl + "/run");
  await live(page);
  await page.getByRole("button", { name: "Start round 1" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Round 1" })).toBeVisible();

  // From the table page to its log.
  await page.goto(`${eventUrl}/rounds/1/tables/1`);
  await live(page);
  await page.getByRole("link", { name: "Game log: verification and board" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Game log · round 1, table 1" })).toBeVisible();
  await live(page);

  // Paste a log with two mistakes: both appear at their lines, with the rule and its page.
  const editor = page.getByLabel("Game log (DGN)");
  await editor.fill(twoMistakes);
  const problems = page.getByRole("list", { name: "Problems in the log" });
  await expect(page.getByTestId("verdict")).toContainText("2 rules broken in 2 turns.");
  const declaration = problems.locator("li[data-line='26']");
  await expect(declaration).toContainText("Line 26, column 16");
  await expect(declaration.getByRole("link", { name: "1.04.01 Declaration" })).toHaveAttribute("href", "/rules/gencon/1.04.01");
  await expect(declaration).toContainText("AT declares 2 treachery cards, but holds 1");
  const shipping = problems.locator("li[data-line='69']");
  await expect(shipping.getByRole("link", { name: "2.06.06 Half price shipping" })).toHaveAttribute("href", "/rules/gencon/2.06.06");

  // Fix the declaration: its problem vanishes, the other stays.
  await editor.fill(oneMistake);
  await expect(page.getByTestId("verdict")).toContainText("1 rule broken in 2 turns.");
  await expect(problems.locator("li[data-line='26']")).toHaveCount(0);
  await expect(problems.locator("li[data-line='69']")).toHaveCount(1);

  // Suggestions: typing the start of a territory's name offers its code.
  await editor.press("End");
  await editor.pressSequentially("\n% Arra");
  await expect(page.getByRole("button", { name: /^ARK Arrakeen/ })).toBeVisible();
  await editor.fill(oneMistake);

  // Save: revision 1, shown line by line with its problem under line 69.
  await page.getByRole("button", { name: "Save the log" }).click();
  await expect(page.getByText("Revision 1 saved by")).toBeVisible();
  await expect(page.locator("#L69")).toHaveClass(/bad/);

  // The board: after turn 2 the storm is in sector 2 and the Atreides have 1 force in Arrakeen;
  // back at turn 1, sector 17 and 4 forces.
  await expect(page.getByTestId("storm")).toHaveText("The storm is in sector 2.");
  await expect(page.getByRole("listitem", { name: "Arrakeen: AT 1" })).toHaveCount(1);
  // The slider counts turns as the page names them: 1 is turn 1. The page comes back after the
  // save: the slider follows it once the page is live again.
  await live(page);
  await page.getByLabel("Turn", { exact: true }).fill("1");
  await expect(page.getByTestId("turn-shown")).toHaveText(/^Turn 1/);
  await expect(page.getByTestId("storm")).toHaveText("The storm is in sector 17.");
  await expect(page.getByRole("listitem", { name: "Arrakeen: AT 4" })).toHaveCount(1);
  await expect(page.getByRole("listitem", { name: "Arrakeen: AT 1" })).toHaveCount(0);

  // The same board without JavaScript: the slider is a GET form, ?turn=1 is turn 1.
  await page.goto(`${eventUrl}/rounds/1/tables/1/log?turn=1`);
  await expect(page.getByTestId("storm")).toHaveText("The storm is in sector 17.");
  await expect(page.getByTestId("turn-shown")).toHaveText(/^Turn 1/);
  await expect(page.getByTestId("turn-note")).toHaveCount(0);
  // The turn-by-turn table links to the same addresses.
  await expect(page.getByRole("link", { name: "Turn 2", exact: true })).toHaveAttribute("href", "?turn=2#board");
  // A turn the log does not have: the nearest, and a sentence saying so.
  await page.goto(`${eventUrl}/rounds/1/tables/1/log?turn=9`);
  await expect(page.getByTestId("turn-note")).toHaveText("The log has no turn 9: it ends at turn 2, shown here.");
  await expect(page.getByTestId("turn-shown")).toHaveText(/^Turn 2/);
  await expect(page.getByTestId("storm")).toHaveText("The storm is in sector 2.");
  await page.goto(`${eventUrl}/rounds/1/tables/1/log?turn=0`);
  await expect(page.getByTestId("turn-note")).toHaveText("The log has no turn 0: it starts at turn 1, shown here.");
  await expect(page.getByTestId("storm")).toHaveText("The storm is in sector 17.");

  // The log and the report meet: a finished game's log implies the whole report, which the
  // judge saves from here after checking it.
  await live(page);
  await editor.fill(solo);
  await expect(page.getByTestId("verdict")).toContainText("No rule broken in 2 turns.");
  await expect(page.getByTestId("verdict")).toContainText("Winner: HK (Solo Stronghold Victory) in turn 2.");
  await page.getByLabel("Why this change").fill("the whole game, as the table finished it");
  await page.getByRole("button", { name: "Save the log" }).click();
  await expect(page.getByText("Revision 2 saved by")).toBeVisible();
  await expect(page.getByTestId("comparison")).toContainText("No report yet: the log implies the one below.");
  await page.getByRole("button", { name: "Save as the table's report" }).click();
  await expect(page.getByTestId("comparison")).toContainText("Report revision 1 agrees with the log.");
  // The Harkonnen's win attempt is the log's; the table's win-attempt record has none yet.
  await expect(page.getByTestId("attempts-differ")).toBeVisible();
  await page.goto(`${eventUrl}/rounds/1/tables/1`);
  await expect(page.getByTestId("result").filter({ hasText: "SSH" })).toHaveCount(1);

  // A batch: one log for table 2 by its name, one Mentat cannot place.
  await page.goto(`${eventUrl}/logs?round=1`);
  // The debug bundle is large: on a busy machine it may take longer than usual to start.
  await expect(page.locator("header[data-live=true]")).toHaveCount(1, { timeout: 30_000 });
  await page.getByLabel("Game logs").setInputFiles([
    { name: "r1-t2.dgn", mimeType: "text/plain", buffer: Buffer.from(twoMistakes.replace('[Table "4"]', "")) },
    { name: "notes.dgn", mimeType: "text/plain", buffer: Buffer.from(legal.replace('[Table "4"]', "")) },
  ]);
  await page.getByRole("button", { name: "Upload and verify" }).click();
  await expect(page.getByText("Verified 2 of 2 files")).toBeVisible();
  await expect(page.getByText("r1-t2.dgn: round 1, table 2: saved as revision 1; 2 violations")).toBeVisible();
  // notes.dgn still carries [Round "1"] but no table: refused, and said why.
  await expect(page.getByText(/notes\.dgn: not saved: No table for notes\.dgn/)).toBeVisible();
  const rows = page.getByRole("table").locator("tbody tr");
  await expect(rows.filter({ hasText: "Table 2" }).getByTestId("violations")).toHaveText("2");
  await expect(rows.filter({ hasText: "Table 1" }).getByTestId("violations")).toHaveText("0");

  // A full-format game (000) at table 2: a violation of the full rulebook links to its page
  // there, and the board draws the Ixians' Hidden Mobile Stronghold where it stands.
  await page.goto(`${eventUrl}/rounds/1/tables/2/log`);
  await live(page);
  await editor.fill(fullFormat);
  await expect(page.getByTestId("verdict")).toContainText("1 rule broken in 1 turn.");
  const home = problems.locator("li[data-line='17']");
  await expect(home).toContainText("Hidden Mobile Stronghold");
  await expect(home.getByRole("link", { name: /2\.07\.20/ })).toHaveAttribute("href", "/rules/full/2.07.20");
  await page.getByLabel("Why this change").fill("the table played the full rulebook's format");
  await page.getByRole("button", { name: "Save the log" }).click();
  await expect(page.getByText("Revision 2 saved by")).toBeVisible();
  await expect(page.getByTestId("hms")).toContainText("The Hidden Mobile Stronghold stands in");
});

test("a judge opens a rule by its number on a phone in two taps", async ({ browser }) => {
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  const page = await phone.newPage();
  await page.goto("/");
  await page.getByRole("link", { name: "Rules" }).tap();
  await page.getByLabel("Rule number or words").fill("1.06.03.05");
  await page.getByRole("button", { name: "Find the rule" }).tap();
  await expect(page.getByRole("heading", { level: 1, name: "1.06.03.05 Occupancy limit" })).toBeVisible();
  await expect(page.getByText("No shipment into a stronghold where two other factions already have forces.")).toBeVisible();
  await expect(page.getByTestId("engine-checks")).toContainText("Yes: the engine cites this rule");
  await expect(page.getByText("illegal-1.06.03.05-ship-into-full-stronghold.dgn")).toBeVisible();
  // Words find it too, and its own page is at its number.
  await page.goto("/rules?q=occupancy");
  await expect(page.getByRole("link", { name: "1.06.03.05 Occupancy limit" }).first()).toBeVisible();
  await page.goto("/rules/1.06.03.05");
  await expect(page.getByRole("heading", { level: 1, name: "1.06.03.05 Occupancy limit" })).toBeVisible();
  await expect(page.getByText(/Ruling 27: Occupancy limits\./)).toBeVisible();
  // The same rule in the full rulebook is one number lower (it has no "one force shipment").
  await expect(page.getByTestId("rule-book")).toHaveText("In the GenCon tournament rulebook 2.13.3");
  await page.getByRole("link", { name: "1.06.02.05 Occupancy limit" }).tap();
  await expect(page.getByRole("heading", { level: 1, name: "1.06.02.05 Occupancy limit" })).toBeVisible();
  await expect(page.getByTestId("rule-book")).toHaveText("In the full rulebook 2.10.9");
  await expect(page.getByText(/Ruling 27: Occupancy limits\./)).toBeVisible();
  // Nothing is wider than the phone.
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);

  // The full rulebook's own numbers: the Ixians' starting forces, which GenCon lacks.
  await page.goto("/rules/2.07.02");
  await expect(page.getByRole("heading", { level: 1, name: "2.07.02 Starting forces" })).toBeVisible();
  await expect(page.getByTestId("rule-book")).toHaveText("In the full rulebook 2.10.9");
  await expect(page.getByText("Three cyborgs and three suboids start on the Hidden Mobile Stronghold token")).toBeVisible();
  await expect(page.getByText("The GenCon tournament rulebook has no such rule.")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  // Words find an Ixian ability, marked with its book, one tap from its page.
  await page.getByLabel("Rule number or words").fill("suboid movement");
  await page.getByRole("button", { name: "Find the rule" }).tap();
  const hit = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: "2.07.16 Suboid movement" }) });
  await expect(hit).toContainText("Full rulebook");
  await hit.getByRole("link", { name: "2.07.16 Suboid movement" }).tap();
  await expect(page.getByRole("heading", { level: 1, name: "2.07.16 Suboid movement" })).toBeVisible();
  await expect(page.getByTestId("rule-anchors")).toContainText("faction_ixians_suboidmovement");
  // The name the full rulebook cites a rule by leads to its numbered page.
  await page.goto("/rules/faction_ixians_setupspice");
  await expect(page).toHaveURL(/\/rules\/2\.07\.01$/);
  await expect(page.getByRole("heading", { level: 1, name: "2.07.01 Starting spice" })).toBeVisible();
  // A number the books use for different rules says so and links to both.
  await page.goto("/rules/full/1.14.07");
  await expect(page.getByRole("heading", { level: 1, name: "1.14.07 Ixians" })).toBeVisible();
  await expect(page.getByTestId("same-number").getByRole("link", { name: "1.14.07 Free Traders" })).toHaveAttribute("href", "/rules/1.14.07");
  // A rule printed in two versions shows the revised text and links to the original.
  await page.goto("/rules/2.07.18");
  await expect(page.getByTestId("rule-edition")).toContainText("This page shows the revised text");
  await page.getByTestId("rule-edition").getByRole("link").tap();
  await expect(page).toHaveURL(/\/rules\/full\/2\.07\.18\/original$/);
  await expect(page.getByTestId("rule-edition")).toContainText("This page shows the original text");
  await expect(page.getByText(/Before the storm moves/)).toBeVisible();
  // The index of the full rulebook is a tap away from the rules page, and explains the books.
  await page.goto("/rules");
  await page.getByText("Two rulebooks: which one a number means").tap();
  await expect(page.getByText("A number alone, as in")).toBeVisible();
  await page.getByRole("link", { name: "The index of the full rulebook" }).tap();
  await expect(page.getByRole("heading", { level: 2, name: "All rules of the full rulebook 2.10.9" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await phone.close();
});
