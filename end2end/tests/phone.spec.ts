import { test, expect } from "@playwright/test";
import { execFileSync } from "node:child_process";

// The public standings on a 360 px phone: rank, name and points at a glance, nothing behind a
// sideways scroll. The event comes from `mentat seed` (names as long as a real event's).

test("the standings fit a 360 px phone with rank, name and points in view", async ({ browser }) => {
  const bin = process.env.MENTAT_BIN;
  if (!bin) throw new Error("MENTAT_BIN is not set (script/test sets it)");
  const out = execFileSync(bin, ["seed", "--players", "300", "--rounds", "3"], {
    env: { ...process.env, RUST_LOG: "warn" },
  });
  const seeded = JSON.parse(out.toString());
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true });
  const page = await context.newPage();
  await page.goto(`/events/${seeded.slug}/standings`);
  const table = page.locator(".standings-table");
  await expect(table).toBeVisible();
  const right = await table.evaluate((t) => t.getBoundingClientRect().right);
  expect(right).toBeLessThanOrEqual(360);
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(pageWidth).toBeLessThanOrEqual(360);
  // The first row: rank, name and points inside the screen.
  const first = table.locator("tbody tr[id]").first();
  for (const cell of [first.locator("td").nth(0), first.locator("th"), first.locator("td").nth(1)]) {
    const box = await cell.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
  }
  // The rest is a line below, inside the screen too.
  for (const cell of [first.locator("td").nth(2), first.locator("td").nth(3)]) {
    await expect(cell).not.toBeEmpty();
    const box = await cell.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
  }
  await context.close();
});
