import { test, expect, Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { createEvent, createUser, importAndCheckIn, live, run, signIn, startRoundOne } from "./support";

// The final table (issue 18, ruling 13): after qualifying closes and the tie across the cut is
// drawn, the head judge seats the finalists at one table; it runs like any table (locked seats,
// its report, the head judge's final word) and its result gives the event's placings, shown on
// the finals page, the standings, the projector and the winner's own card on a phone.

const hj = { name: `final-hj-${run}`, password: "final-head-judge-password" };
const eventName = `Final ${run}`;

test.beforeAll(() => {
  createUser(hj.name, hj.password, true);
});

function players(): string {
  const lines = ["name"];
  for (let i = 1; i <= 12; i++) lines.push(`Finalist ${String(i).padStart(2, "0")} ${run}`);
  return lines.join("\n") + "\n";
}

/// Seat `winner` (0-based) wins alone; the judge saves the report and makes it final.
async function reportWin(page: Page, url: string, winner: number): Promise<string[]> {
  await page.goto(url);
  await live(page);
  const rows = page.locator("section[aria-labelledby=attempts] tbody tr");
  const names: string[] = [];
  for (let i = 0; i < (await rows.count()); i++) names.push((await rows.nth(i).getAttribute("data-player")) ?? "");
  await page.getByLabel("How the game ended").selectOption("win");
  await page.getByLabel("Last turn played").fill("6");
  const group = page.getByRole("group", { name: new RegExp(`^${names[winner]} · `) });
  await group.getByLabel("Result").selectOption("SSH");
  // A Solo Stronghold Victory takes three strongholds (1.09.02.01).
  await group.getByLabel("Strongholds").fill("3");
  await page.getByRole("button", { name: "Save the report" }).click();
  await expect(page.getByText("Saved as revision 1.")).toBeVisible();
  await page.getByRole("button", { name: "Make this report final (head judge, 4.01.05)" }).click();
  await expect(page.locator(".report-state")).toHaveAttribute("data-state", "final");
  return names;
}

test("the final table is seated from the finals list, reported, and gives the placings everywhere", async ({ page, browser }) => {
  test.setTimeout(240_000);
  await signIn(page, hj);
  const eventUrl = await createEvent(page, eventName);

  // One qualifying round, so closing after it needs no confirmation.
  await page.goto(eventUrl + "/settings");
  await live(page);
  await page.getByLabel("Qualifying rounds").fill("1");
  await expect(page.getByLabel("Seating the final table")).toHaveValue("drawn");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();

  await importAndCheckIn(page, eventUrl, players(), 12);
  await startRoundOne(page, eventUrl);
  await live(page);
  await page.getByRole("button", { name: "Lock seats and begin play" }).click();
  await expect(page.getByTestId("round-state")).toHaveText("In play: seats are final.");
  for (const t of [1, 2]) await reportWin(page, `${eventUrl}/rounds/1/tables/${t}`, 0);

  // Close qualifying; ten players are tied for four seats, drawn by the head judge.
  await page.goto(eventUrl + "/finals");
  await live(page);
  await expect(page.getByRole("button", { name: "Seat the final table" })).toHaveCount(0);
  await page.getByRole("button", { name: "Close qualifying" }).click();
  await expect(page.getByRole("heading", { name: "Finalists", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Draw the open seats" }).click();
  await expect(page.getByTestId("cut-draw")).toBeVisible();
  const finalists = await page.locator("ol.finalists li").evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset.player ?? ""));
  const drawn = (await page.getByTestId("cut-draw").innerText()).split(": ")[1].replace(/\.$/, "").split(", ");
  const everyone = [...finalists, ...drawn].sort();
  expect(everyone).toHaveLength(6);

  // The dashboard no longer offers a qualifying round; it points to the finals.
  await page.goto(eventUrl + "/run");
  await live(page);
  await expect(page.getByRole("button", { name: /^Start round/ })).toHaveCount(0);
  await expect(page.getByText("Qualifying is closed: seat the final table on the")).toBeVisible();

  // Seat the final table: one table of the six finalists, factions dealt.
  await page.goto(eventUrl + "/finals");
  await live(page);
  await page.getByRole("button", { name: "Seat the final table" }).click();
  await expect(page).toHaveURL(/\/rounds\/2$/, { timeout: 20_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Final table (round 2)" })).toBeVisible();
  const table = page.locator("section.game-table");
  await expect(table).toHaveCount(1);
  await expect(table.locator("td.faction")).toHaveCount(6);
  await live(page);
  await expect(page.getByRole("button", { name: "Redraw this round" })).toHaveCount(0);
  await page.getByRole("button", { name: "Lock seats and begin play" }).click();
  await expect(page.getByTestId("round-state")).toHaveText("In play: seats are final.");

  // Before its report, the standings say the final is being played; qualifying is unchanged.
  await page.goto(eventUrl + "/standings");
  await expect(page.getByRole("heading", { name: "Final table", exact: true })).toBeVisible();

  // The third seat wins the final alone.
  const seated = await reportWin(page, `${eventUrl}/rounds/2/tables/1`, 2);
  expect([...seated].sort()).toEqual(everyone);
  const winner = seated[2];

  // The finals page: placings, the winner first; reopening is no longer offered.
  await page.goto(eventUrl + "/finals");
  await live(page);
  const placings = page.getByRole("list", { name: "Final placings" });
  await expect(placings.getByRole("listitem")).toHaveCount(6);
  await expect(placings.getByRole("listitem").first()).toContainText(`1st ${winner}`);
  await expect(placings.getByRole("listitem").first()).toContainText("won the final: Solo Stronghold Victory");
  await expect(page.getByRole("button", { name: "Reopen qualifying" })).toHaveCount(0);

  // The sheet pinned to the wall: the final placings first, the winner at the top, then the
  // qualifying standings for reference.
  await page.goto(eventUrl + "/print/standings");
  await expect(page.getByRole("heading", { level: 1, name: "Final standings" })).toBeVisible();
  const sheet = page.getByRole("table", { name: "Final placings" });
  const top = sheet.getByRole("row").nth(1);
  await expect(top.getByRole("rowheader")).toHaveText(winner);
  await expect(top.getByRole("cell").first()).toHaveText("1st");
  await expect(top.getByRole("cell").last()).toHaveText("won the final: Solo Stronghold Victory");
  await expect(sheet.getByRole("row")).toHaveCount(13);
  const placingsTop = (await sheet.boundingBox())!.y;
  const qualifyingTop = (await page.getByRole("heading", { name: "Qualifying standings" }).boundingBox())!.y;
  expect(placingsTop).toBeLessThan(qualifyingTop);
  await expect(page.getByText(/^After round/)).toHaveCount(0);

  // The public standings lead with the placings.
  await page.goto(eventUrl + "/standings");
  await expect(page.getByRole("heading", { name: "Final placings" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Final placings" }).getByRole("listitem").first()).toContainText(winner);

  // The projector puts the placings first, every finalist on the hall's screens.
  const wall = await page.context().newPage();
  for (const size of [{ width: 1280, height: 720 }, { width: 1366, height: 768 }, { width: 1920, height: 1080 }]) {
    await wall.setViewportSize(size);
    await wall.goto(eventUrl + "/clocks?view=placings");
    await expect(wall.getByRole("heading", { name: "Final placings" })).toBeVisible();
    await expect(wall.locator(".projector-placings li")).toHaveCount(6);
    await expect(wall.locator(".projector-placings li").first()).toContainText(winner);
    await expect(wall.getByRole("heading", { level: 1 })).toContainText("final table");
    const off = await wall.evaluate(() => {
      const out: string[] = [];
      const root = document.documentElement;
      if (root.scrollWidth > window.innerWidth || root.scrollHeight > window.innerHeight) out.push("the page scrolls");
      for (const li of Array.from(document.querySelectorAll(".projector-placings li"))) {
        const r = li.getBoundingClientRect();
        if (r.bottom > window.innerHeight || r.right > window.innerWidth) out.push(`${li.textContent} off the screen`);
      }
      return out;
    });
    expect(off, `${size.width}×${size.height}`).toEqual([]);
  }
  await wall.close();

  // The pages the final added, at a phone's width and a laptop's: no axe violations.
  for (const viewport of [{ width: 360, height: 740 }, { width: 1366, height: 768 }]) {
    await page.setViewportSize(viewport);
    for (const path of ["/finals", "/standings", "/rounds/2", "/rounds/2/tables/1", "/clocks?view=placings"]) {
      await page.goto(eventUrl + path);
      if (await page.locator('link[rel="modulepreload"]').count()) {
        await expect(page.locator("html[data-live=true]")).toHaveCount(1);
      }
      const result = await new AxeBuilder({ page }).analyze();
      expect(result.violations.map((v) => `${path} at ${viewport.width}: ${v.id} ${v.help}`)).toEqual([]);
    }
  }

  // The winner's phone, without JavaScript: her card says where she placed.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
  const mobile = await phone.newPage();
  await mobile.goto(`${eventUrl}/find?q=${encodeURIComponent(winner)}`);
  await mobile.getByRole("link", { name: winner }).click();
  await expect(mobile.getByRole("status").first()).toContainText("You placed 1st of the event (won the final: Solo Stronghold Victory).");
  await phone.close();
});
