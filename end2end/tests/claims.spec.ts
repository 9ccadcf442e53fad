import { test, expect } from "@playwright/test";
import { createUser, eventInRoundOne, live, run, signIn } from "./support";

// A player claims her registration with the code the head judge gives her, and from then on
// the event's page opens on her table.

const judge = { name: `claims-hj-${run}`, password: "head-judge-password-1" };
const hanna = { name: `hanna-${run}`, password: "hanna-password-12" };
const eventName = `Claims Cup ${run}`;

function csv(): string {
  const lines = ["name,email,club"];
  for (let i = 1; i <= 5; i++) lines.push(`Claimer ${i} ${run},c${i}-${run}@example.org,Club`);
  return lines.join("\n") + "\n";
}

test.beforeAll(() => {
  createUser(judge.name, judge.password, true);
});

test("a player claims her registration with her code and opens on her table", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, judge);
  const eventUrl = await eventInRoundOne(page, eventName, csv(), 5);

  // The head judge opens Hanna's card and makes her a code.
  const player = `Claimer 3 ${run}`;
  await page.goto(eventUrl + "/find?q=" + encodeURIComponent(player));
  await page.getByRole("link", { name: player }).click();
  await expect(page.getByRole("heading", { level: 1, name: player })).toBeVisible();
  const seat = (await page.getByTestId("seat").innerText()).trim();
  await live(page);
  await page.getByRole("button", { name: "Make a claim code" }).click();
  const code = (await page.getByTestId("claim-code").innerText()).trim();
  expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);

  // On her phone she types it (in lower case), making her account as she does.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const mobile = await phone.newPage();
  await mobile.goto("/claim");
  await mobile.getByLabel("Claim code").fill(code.toLowerCase());
  await mobile.getByLabel("User name").fill(hanna.name);
  await mobile.getByLabel("Password", { exact: true }).fill(hanna.password);
  await mobile.getByLabel("Repeat the password").fill(hanna.password);
  await mobile.getByRole("button", { name: "Create the account and claim" }).click();
  await expect(mobile.getByRole("heading", { level: 1, name: player })).toBeVisible();
  await expect(mobile.getByTestId("seat")).toHaveText(seat);

  // From then on the event's page opens on her table.
  await mobile.goto(eventUrl);
  await expect(mobile.getByRole("heading", { level: 2, name: `Your game, ${player}` })).toBeVisible();
  await expect(mobile.getByTestId("your-place")).toHaveText(`Round 1: table 1, seat ${seat}.`);

  // The code worked once: typed again, even by her, it is refused.
  await mobile.goto("/claim");
  await mobile.getByLabel("Claim code").fill(code);
  await mobile.getByRole("button", { name: "Claim my registration" }).click();
  await expect(mobile.getByText("has been used already")).toBeVisible();
  await phone.close();
});

test("links to send and the slips' claim codes use the event's public address", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, judge);
  const eventUrl = await eventInRoundOne(page, `${eventName} hall`, csv(), 5);
  await page.goto(eventUrl + "/settings");
  await live(page);
  await page.getByLabel("Public address").fill("https://hall.example.org");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();

  // A staff invitation and a claim code made on a player's card: both links start there, like
  // the QR codes, whatever address the head judge's own browser used.
  await page.goto(eventUrl + "/staff");
  await live(page);
  await page.getByLabel("Who is it for").fill("Sam");
  await page.getByRole("button", { name: "Make an invitation link" }).click();
  expect(await page.getByLabel("Invitation link").inputValue()).toMatch(/^https:\/\/hall\.example\.org\/invite\/mentat_/);
  await expect(page.getByTestId("link-warning")).toHaveCount(0);
  const carded = `Claimer 2 ${run}`;
  await page.goto(eventUrl + "/find?q=" + encodeURIComponent(carded));
  await page.getByRole("link", { name: carded }).click();
  await live(page);
  await page.getByRole("button", { name: "Make a claim code" }).click();
  await expect(page.getByRole("link", { name: /^https:\/\/hall\.example\.org\/claim\?code=[A-Z2-9-]{14}$/ })).toBeVisible();
  await expect(page.getByTestId("link-warning")).toHaveCount(0);

  // The head judge's table slips: a strip per player not yet claimed, with her code and its QR
  // code, made as the page opens.
  const slips = eventUrl + "/rounds/1/print/slips";
  await page.goto(slips);
  await expect(page.getByTestId("slip-claim-code")).toHaveCount(5);
  await expect(page.getByRole("img", { name: /^QR code: the claim link for Claimer/ })).toHaveCount(5);
  await expect(page.getByText("type the code at https://hall.example.org/claim").first()).toBeVisible();
  const player = `Claimer 4 ${run}`;
  const code = (await page.getByRole("listitem").filter({ hasText: player }).getByTestId("slip-claim-code").innerText()).trim();
  expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);

  // She types the printed code on her phone and her registration is hers.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const mobile = await phone.newPage();
  await mobile.goto("/claim");
  await mobile.getByLabel("Claim code").fill(code);
  await mobile.getByLabel("User name").fill(`slip-${run}`);
  await mobile.getByLabel("Password", { exact: true }).fill("slip-password-1234");
  await mobile.getByLabel("Repeat the password").fill("slip-password-1234");
  await mobile.getByRole("button", { name: "Create the account and claim" }).click();
  await expect(mobile.getByRole("heading", { level: 1, name: player })).toBeVisible();

  // Anyone else reading the slips sees no codes at all.
  await mobile.goto(slips);
  await expect(mobile.getByRole("heading", { level: 1, name: "Table 1" })).toBeVisible();
  await expect(mobile.getByTestId("slip-claim-code")).toHaveCount(0);
  await phone.close();

  // Printed again: she has claimed, so no strip for her; and slips without codes on request.
  await page.goto(slips);
  await expect(page.getByTestId("slip-claim-code")).toHaveCount(4);
  await expect(page.getByRole("listitem").filter({ hasText: player })).toHaveCount(0);
  await page.getByRole("link", { name: "Slips without claim codes" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Table 1" })).toBeVisible();
  await expect(page.getByTestId("slip-claim-code")).toHaveCount(0);
});
