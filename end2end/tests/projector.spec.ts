import { test, expect, Page, Browser } from "@playwright/test";
import { createUser, eventInRoundOne, live, run, signIn } from "./support";

// The projector (issue 18): full screen with no site header, the round's timer, and a page at a
// time of clocks, where everyone sits and the standings, fitting the projectors of a hall
// (1280×720, 1366×768, 1920×1080) with nothing spilling out of its card or off the screen; the
// pages take turns with JavaScript and without it.

const hj = { name: `proj-hj-${run}`, password: "projector-head-judge-password" };
const eventName = `Projector ${run}`;
const sizes = [
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
];

test.beforeAll(() => createUser(hj.name, hj.password, true));

/// Nothing wider or taller than the screen, and every clock's digits inside their card.
async function fits(page: Page) {
  const problems = await page.evaluate(() => {
    const out: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth) out.push(`page ${root.scrollWidth} px wide`);
    if (root.scrollHeight > window.innerHeight) out.push(`page ${root.scrollHeight} px tall`);
    for (const card of Array.from(document.querySelectorAll(".projector-page:not([hidden]) .board-table"))) {
      const box = card.getBoundingClientRect();
      if (box.bottom > window.innerHeight) out.push(`${card.getAttribute("data-table")} below the screen`);
      for (const part of Array.from(card.querySelectorAll(".clock-time, h3, .badge"))) {
        const r = part.getBoundingClientRect();
        if (r.right > box.right + 0.5 || r.bottom > box.bottom + 0.5) out.push(`table ${card.getAttribute("data-table")}: ${part.className} spills`);
      }
    }
    for (const el of Array.from(document.querySelectorAll(".projector-page:not([hidden]) li, .projector-page:not([hidden]) tr"))) {
      const r = el.getBoundingClientRect();
      if (r.bottom > window.innerHeight || r.right > window.innerWidth) out.push(`${el.textContent} off the screen`);
    }
    return out;
  });
  expect(problems).toEqual([]);
}

async function visiblePage(page: Page): Promise<string | null> {
  return page.locator(".projector-page:not([hidden])").getAttribute("data-show");
}

test("the projector fits the hall's screens, shows the round's clocks, seats and standings, and takes turns", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, hj);
  const names = Array.from({ length: 30 }, (_, i) => `Projected Player ${String(i + 1).padStart(2, "0")} ${run}`);
  const eventUrl = await eventInRoundOne(page, eventName, ["name", ...names].join("\n") + "\n", 30);
  await live(page);
  await page.getByRole("button", { name: "Start all clocks" }).click();
  await expect(page.getByText(/Clocks started at 5 tables/)).toBeVisible();

  for (const size of sizes) {
    const context = await browser.newContext({ viewport: size });
    const screen = await context.newPage();
    await screen.goto(eventUrl + "/clocks?view=clocks");
    await expect(screen.locator("html[data-live=true]")).toHaveCount(1);
    // No site header: the projector is the whole screen.
    await expect(screen.getByRole("banner")).toHaveCount(0);
    await expect(screen.getByRole("heading", { level: 1 })).toHaveText(`${eventName} · round 1`);
    await expect(screen.getByRole("group", { name: "Round 1: time left" }).getByRole("timer")).toBeVisible();
    await expect(screen.locator(".round-timer .clock")).toHaveAttribute("data-phase", "running");
    await expect(screen.getByRole("heading", { level: 2, name: "Clocks" })).toBeVisible();
    await expect(screen.locator(".projector-page:not([hidden]) .board-table")).toHaveCount(5);
    await expect(screen.locator(".projector-page:not([hidden]) .clock[data-phase=running]")).toHaveCount(5);
    await expect(screen.getByRole("button", { name: "Full screen" })).toBeVisible();
    await fits(screen);
    await screen.screenshot({ path: `test-results/projector-clocks-${size.width}.png` });

    await screen.goto(eventUrl + "/clocks?view=seating");
    await expect(screen.getByRole("heading", { level: 2, name: "Where you sit" })).toBeVisible();
    const first = screen.locator(".seating li").filter({ hasText: names[0] });
    await expect(first).toContainText(/Table [1-5] · seat [1-6]/);
    await expect(screen.locator(".seating li")).toHaveCount(30);
    await fits(screen);
    await screen.screenshot({ path: `test-results/projector-seating-${size.width}.png` });

    await screen.goto(eventUrl + "/clocks?view=standings");
    await expect(screen.getByRole("heading", { level: 2, name: "Standings" })).toBeVisible();
    await fits(screen);
    await context.close();
  }

  // With JavaScript the pages take turns (three seconds each here).
  const turning = await browser.newContext({ viewport: sizes[1] });
  const wall = await turning.newPage();
  await wall.goto(eventUrl + "/clocks?every=3");
  await expect(wall.locator("html[data-live=true]")).toHaveCount(1);
  const shown = new Set<string | null>([await visiblePage(wall)]);
  await expect.poll(async () => { shown.add(await visiblePage(wall)); return shown.size; }, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  await expect(wall.locator(".projector-page:not([hidden])")).toHaveCount(1);
  await turning.close();

  // Without it the server renders the page that is up and the page comes again when the next is due.
  const plain = await browser.newContext({ viewport: sizes[0], javaScriptEnabled: false });
  const noJs = await plain.newPage();
  await noJs.goto(eventUrl + "/clocks?every=5");
  await expect(noJs.locator(".projector-page:not([hidden])")).toHaveCount(1);
  await expect(noJs.locator('meta[http-equiv="refresh"]')).toHaveCount(1);
  expect(Number((await noJs.locator('meta[http-equiv="refresh"]').getAttribute("content")) ?? "0")).toBeLessThanOrEqual(6);
  await expect(noJs.getByRole("button", { name: "Full screen" })).toHaveCount(0);
  await plain.close();
});
