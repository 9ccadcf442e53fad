import { test, expect } from "@playwright/test";
import { createUser, live, run, signIn } from "./support";

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
  await page.goto("/events");
  await live(page);
  await page.getByLabel("Event name").fill(eventName);
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByRole("heading", { level: 1, name: eventName })).toBeVisible();
  const eventUrl = page.url();
  await page.goto(eventUrl + "/players");
  await live(page);
  await page.getByLabel("CSV lines").fill(csv());
  await page.getByRole("button", { name: "Import players" }).click();
  await expect(page.getByText("Imported 5 players.")).toBeVisible();
  await page.getByRole("button", { name: "Check in everyone" }).click();
  await expect(page.getByTestId("player-summary")).toHaveText("5 registered · 5 checked in · 0 dropped");
  await page.goto(eventUrl + "/run");
  await live(page);
  await page.getByRole("button", { name: "Start round 1" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Round 1" })).toBeVisible();

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
