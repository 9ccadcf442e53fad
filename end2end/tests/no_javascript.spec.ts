import { test, expect, Browser, Page } from "@playwright/test";
import { createUser, live, run, signIn } from "./support";

// Phones act before the wasm arrives: every action a player or a check-in volunteer takes is a
// plain HTML form the server answers. These journeys run in a browser with JavaScript turned
// off, so nothing but the server's HTML and its redirects can make them pass.

const hj = { name: `njhj-${run}`, password: "head-judge-password-3" };
const cara = { name: `cara-${run}`, password: "cara-player-password-1" };
const dan = { name: `dan-${run}`, password: "dan-player-password-1" };
const eventName = `Plain forms ${run}`;
const player = (i: number) => `Plain ${String(i).padStart(2, "0")} ${run}`;

test.beforeAll(() => {
  createUser(hj.name, hj.password, true);
  createUser(cara.name, cara.password);
  createUser(dan.name, dan.password);
});

/// A phone with JavaScript off, signed in through the plain sign-in form.
async function plainPhone(browser: Browser, who?: { name: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
  const page = await context.newPage();
  if (who) {
    await page.goto("/signin");
    await page.getByLabel("User name or email").fill(who.name);
    await page.getByLabel("Password").fill(who.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText(`Signed in as ${who.name}`)).toBeVisible();
  }
  return page;
}

test("without JavaScript: sign in, check in, find me, confirm and dispute a report", async ({ page, browser }) => {
  test.setTimeout(180_000);

  // A wrong password on the plain form: the page comes back with the message at the field,
  // not a bare error document.
  const volunteer = await plainPhone(browser);
  await volunteer.goto("/signin");
  await volunteer.getByLabel("User name or email").fill(hj.name);
  await volunteer.getByLabel("Password").fill("not-the-password");
  await volunteer.getByRole("button", { name: "Sign in" }).click();
  await expect(volunteer.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await expect(volunteer.getByText("do not match an account")).toBeVisible();
  await expect(volunteer.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
  await volunteer.getByLabel("User name or email").fill(hj.name);
  await volunteer.getByLabel("Password").fill(hj.password);
  await volunteer.getByRole("button", { name: "Sign in" }).click();
  await expect(volunteer.getByText(`Signed in as ${hj.name}`)).toBeVisible();

  // The head judge sets the event up in a browser with JavaScript: ten players, two linked.
  await signIn(page, hj);
  await page.goto("/events");
  await live(page);
  await page.getByLabel("Event name").fill(eventName);
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByRole("heading", { level: 1, name: eventName })).toBeVisible();
  const eventUrl = page.url();
  await page.goto(eventUrl + "/players");
  await live(page);
  const csv = ["name", ...Array.from({ length: 10 }, (_, i) => player(i + 1))].join("\n") + "\n";
  await page.getByLabel("CSV lines").fill(csv);
  await page.getByRole("button", { name: "Import players" }).click();
  await expect(page.getByText("Imported 10 players.")).toBeVisible();

  // The check-in volunteer's page, without JavaScript: one player, then everyone.
  await volunteer.goto(eventUrl + "/players");
  await expect(volunteer).toHaveTitle(`Players · ${eventName} · Mentat`);
  const summary = volunteer.getByTestId("player-summary");
  await expect(summary).toHaveText("10 registered · 0 checked in · 0 dropped");
  await volunteer.getByRole("button", { name: `Check in: ${player(1)}` }).click();
  await expect(summary).toHaveText("10 registered · 1 checked in · 0 dropped");
  await expect(volunteer.getByRole("row", { name: new RegExp(player(1)) })).toContainText("Checked in");
  // A stale button (the player was checked in elsewhere meanwhile) is refused with a message on
  // the page, never a raw error.
  await page.reload();
  await live(page);
  await page.getByRole("button", { name: `Check in: ${player(2)}` }).click();
  await expect(page.getByTestId("player-summary")).toHaveText("10 registered · 2 checked in · 0 dropped");
  await volunteer.getByRole("button", { name: `Check in: ${player(2)}` }).click();
  await expect(volunteer.getByRole("heading", { level: 1, name: "Players" })).toBeVisible();
  await expect(volunteer.getByRole("alert").filter({ hasText: "reload" })).toBeVisible();
  await volunteer.reload();
  await expect(summary).toHaveText("10 registered · 2 checked in · 0 dropped");
  // Everyone at once asks first: a tick, then the button.
  await volunteer.getByLabel(/^Yes, check in all \d+ players? not checked in yet$/).check();
  await volunteer.getByRole("button", { name: "Check in everyone" }).click();
  await expect(summary).toHaveText("10 registered · 10 checked in · 0 dropped");

  // Round 1 (two tables of five), and a report at table 1 to confirm.
  await page.goto(eventUrl + "/players");
  await live(page);
  await page.goto(eventUrl + "/run");
  await live(page);
  await page.getByRole("button", { name: "Start round 1" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Round 1" })).toBeVisible();
  await live(page);
  await page.getByRole("button", { name: "Lock seats and begin play" }).click();
  await expect(page.getByTestId("round-state")).toHaveText("In play: seats are final.");
  const seated = await page.locator("section.game-table").first().locator("tbody tr th").allInnerTexts();
  const [first, second] = seated.map((s) => s.trim());
  const tableUrl = `${eventUrl}/rounds/1/tables/1`;
  await page.goto(tableUrl);
  await live(page);
  await page.getByLabel("How the game ended").selectOption("time");
  await page.getByLabel("Last turn played").fill("7");
  await page.getByRole("group", { name: new RegExp(`^${first} · `) }).getByLabel("Forces on board").fill("9");
  await page.getByRole("group", { name: new RegExp(`^${second} · `) }).getByLabel("Forces on board").fill("14");
  await page.getByRole("button", { name: "Save the report" }).click();
  await expect(page.getByText("Saved as revision 1.")).toBeVisible();
  await page.goto(eventUrl + "/players");
  await live(page);
  for (const [name, account] of [
    [first, cara.name],
    [second, dan.name],
  ]) {
    await page.getByLabel("Player", { exact: true }).selectOption({ label: name });
    await page.getByLabel("Account user name").fill(account);
    await page.getByRole("button", { name: "Link", exact: true }).click();
    await expect(page.getByText(`${name} now confirms reports as ${account}.`)).toBeVisible();
  }

  // A player's phone without JavaScript: find me, their card, their table, confirm.
  const phone = await plainPhone(browser, cara);
  await phone.goto(eventUrl);
  await phone.getByLabel("Your name").fill(first);
  await phone.getByRole("button", { name: "Find me" }).click();
  await phone.getByRole("link", { name: first }).click();
  await expect(phone.getByRole("heading", { level: 1, name: first })).toBeVisible();
  // Each page names itself first, so a phone's tabs tell apart.
  await expect(phone).toHaveTitle(`${first} · ${eventName} · Mentat`);
  await expect(phone.getByTestId("table")).toHaveText("1");
  await phone.getByRole("link", { name: "Win attempts and game report" }).click();
  await expect(phone.getByRole("heading", { name: "Your confirmation" })).toBeVisible();
  await expect(phone).toHaveTitle(`Round 1 · Table 1 · ${eventName} · Mentat`);
  await phone.getByRole("button", { name: "The report is right" }).click();
  await expect(phone.getByTestId("my-answer")).toHaveText(/^You confirmed revision 1\./);
  await expect(phone.getByRole("heading", { name: "Your confirmation" })).toHaveCount(0);
  await expect(phone.locator(".report-state")).toContainText("awaiting confirmation (1 of 5)");

  // The other player disputes: first without saying why (refused at the note), then with it.
  const other = await plainPhone(browser, dan);
  await other.goto(tableUrl);
  await other.getByText("Something is wrong").click();
  await other.getByRole("button", { name: "Dispute: call the head judge" }).click();
  await expect(other.getByRole("heading", { name: "Your confirmation" })).toBeVisible();
  const note = other.getByLabel("What is wrong?");
  await expect(note).toBeVisible();
  await expect(note).toHaveAttribute("aria-invalid", "true");
  await expect(other.getByText("Say what is wrong with the report")).toBeVisible();
  await note.fill("My forces were 12, not 14");
  await other.getByRole("button", { name: "Dispute: call the head judge" }).click();
  await expect(other.getByTestId("my-answer")).toHaveText(/^You disputed revision 1: the head judge will decide/);
  await expect(other.locator(".report-state")).toHaveAttribute("data-state", "disputed");

  // The head judge sees both answers.
  await page.goto(tableUrl);
  await expect(page.locator(`tr[data-player="${first}"] .answer-cell`)).toHaveText("yes");
  await expect(page.locator(`tr[data-player="${second}"] .answer-cell`)).toHaveText("disputes: My forces were 12, not 14");
  for (const p of [volunteer, phone, other]) await p.context().close();
});

test("without JavaScript: a judge saves a game log, reads the board at a turn and uploads a batch", async ({ browser }) => {
  test.setTimeout(180_000);
  const { readFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const legal = readFileSync(join(__dirname, "../../engine/tests/games/legal-two-turn-example.dgn"), "utf8");
  const oneMistake = legal.replace("M SG ship 4 TUK $2 ;", "M SG ship 4 TUK $3 ;");
  const judge = await plainPhone(browser, hj);
  await judge.goto("/events");
  await judge.getByLabel("Event name").fill(`Plain logs ${run}`);
  await judge.getByRole("button", { name: "Create event" }).click();
  await expect(judge.getByRole("heading", { level: 1, name: `Plain logs ${run}` })).toBeVisible();
  const eventUrl = judge.url();
  await judge.goto(eventUrl + "/players");
  const names = ["name", ...Array.from({ length: 6 }, (_, i) => `Log plain ${i} ${run}`)].join("\n");
  await judge.getByLabel("CSV lines").fill(names);
  await judge.getByRole("button", { name: "Import players" }).click();
  await expect(judge.getByText("Imported 6 players.")).toBeVisible();
  // Everyone at once asks first: a tick, then the button.
  await judge.getByLabel(/^Yes, check in all \d+ players? not checked in yet$/).check();
  await judge.getByRole("button", { name: "Check in everyone" }).click();
  await expect(judge.getByTestId("player-summary")).toHaveText("6 registered · 6 checked in · 0 dropped");
  await judge.goto(eventUrl + "/run");
  await judge.getByRole("button", { name: "Start round 1" }).click();
  await expect(judge.getByRole("heading", { level: 1, name: "Round 1" })).toBeVisible();

  // The log is a plain form: saved, the page comes back with the problem under its line.
  await judge.goto(`${eventUrl}/rounds/1/tables/1/log`);
  await expect(judge).toHaveTitle(/^Game log · Round 1 · Table 1 · /);
  await judge.getByLabel("Game log (DGN)").fill(oneMistake);
  await judge.getByRole("button", { name: "Save the log" }).click();
  await expect(judge.getByText("Revision 1 saved by")).toBeVisible();
  await expect(judge.getByText("Saved as revision 1.")).toBeVisible();
  await expect(judge.getByTestId("verdict")).toContainText("1 rule broken in 2 turns.");
  await expect(judge.locator("#L69")).toHaveClass(/bad/);

  // Changing saved lines needs a reason: refused, and said at the field.
  await judge.getByLabel("Game log (DGN)").fill(legal);
  await judge.getByRole("button", { name: "Save the log" }).click();
  await expect(judge.getByLabel("Why this change")).toHaveAttribute("aria-invalid", "true");
  await expect(judge.locator("[data-error-for=reason]")).toBeVisible();
  await expect(judge.getByText("Revision 1 saved by")).toBeVisible();

  // The board's slider is a GET form counting turns as the page names them.
  await judge.getByLabel("Turn", { exact: true }).fill("1");
  await judge.getByRole("button", { name: "Show" }).click();
  await expect(judge.getByTestId("turn-shown")).toHaveText(/^Turn 1/);
  await expect(judge.getByTestId("storm")).toHaveText("The storm is in sector 17.");

  // A batch without JavaScript: one multipart post, a line per file in the answer.
  await judge.goto(`${eventUrl}/logs?round=1`);
  await judge.getByLabel("Game logs").setInputFiles([
    { name: "r1-t1.dgn", mimeType: "text/plain", buffer: Buffer.from(oneMistake.replace('[Table "4"]', "")) },
  ]);
  await judge.getByRole("button", { name: "Upload and verify" }).click();
  await expect(judge.getByText("Verified 1 of 1 file")).toBeVisible();
  await expect(judge.getByText("r1-t1.dgn: round 1, table 1: saved as revision 2; 1 violation")).toBeVisible();
  await judge.context().close();
});
