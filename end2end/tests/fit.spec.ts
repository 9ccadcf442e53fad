import { test, expect, Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { createUser, live, run, signIn } from "./support";

// Every table inside a phone (issue 27): every page, in every role, at 360 px has no sideways
// scroll and no table cut at the right edge (each table's last column is inside the screen and
// nothing in it scrolls sideways); at 1366 and 1920 px nothing scrolls sideways either (the audit
// log did). The event is `mentat demo`'s (three rounds, reports final, disputed, awaiting
// confirmation, a clock stopped), made by the real command. A judge keeping score sees only the
// links of the pages a judge may open, and each of them opens.

type Login = { name: string; password: string };
type Demo = { slug: string; judge: Login; player: Login; playerId: string; round: string; table: string };

function demo(): Demo {
  const bin = process.env.MENTAT_BIN;
  if (!bin) throw new Error("MENTAT_BIN is not set (script/test sets it)");
  const base = process.env.MENTAT_URL ?? "http://127.0.0.1:3000";
  const out = execFileSync(bin, ["demo", "--base-url", base], { env: process.env, encoding: "utf8" });
  const slug = /\/events\/([^/\s]+)\/standings/.exec(out)![1];
  const judge = /head judge\s+user (\S+)\s+password (\S+)/.exec(out)!;
  const player = /player\s+user (\S+)\s+password (\S+)/.exec(out)!;
  const waits = /report of round (\d+), table (\d+) waits/.exec(out)!;
  const playerId = /\/find\/(\d+)\)/.exec(out)![1];
  return {
    slug,
    judge: { name: judge[1], password: judge[2] },
    player: { name: player[1], password: player[2] },
    playerId,
    round: waits[1],
    table: waits[2],
  };
}

const admin = { name: `fit-admin-${run}`, password: "fit-admin-password-1" };
const scorekeeper = { name: `fit-judge-${run}`, password: "fit-judge-password-1" };
let event: Demo;

test.beforeAll(() => {
  event = demo();
  createUser(admin.name, admin.password, true);
  createUser(scorekeeper.name, scorekeeper.password);
});

/// What overflows on the page shown: the page's own sideways scroll, and each visible table
/// whose last column ends past the screen's right edge or that scrolls inside itself.
async function cut(page: Page, path: string): Promise<string[]> {
  const response = await page.goto(path);
  expect(response, path).not.toBeNull();
  expect(response!.status(), path).toBeLessThan(400);
  if (await page.locator('link[rel="modulepreload"]').count()) {
    await expect(page.locator("html[data-live=true]")).toHaveCount(1);
  }
  return page.evaluate((path) => {
    const width = window.innerWidth;
    const found: string[] = [];
    const page = document.documentElement.scrollWidth;
    if (page > width) found.push(`${path}: the page is ${page} px wide in ${width}`);
    const shown = (e: Element) => {
      const box = e.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(e).visibility !== "hidden";
    };
    document.querySelectorAll("table").forEach((table, i) => {
      if (!shown(table)) return;
      const name = table.querySelector("caption")?.textContent?.trim() || table.className || `table ${i + 1}`;
      if (table.scrollWidth > table.clientWidth + 1) {
        found.push(`${path}: "${name}" scrolls sideways (${table.scrollWidth} px in ${table.clientWidth})`);
      }
      for (const row of Array.from(table.rows)) {
        // A header row kept only for screen readers (a table shown as cards) is clipped to 1 px.
        const group = row.parentElement;
        if (group && group !== table && group.getBoundingClientRect().width <= 1) continue;
        const cells = Array.from(row.cells).filter(shown);
        const last = cells[cells.length - 1];
        if (!last) continue;
        const right = last.getBoundingClientRect().right;
        if (right > width + 0.5) {
          found.push(`${path}: "${name}" ends at ${Math.round(right)} px in ${width}`);
          break;
        }
      }
    });
    return found;
  }, path);
}

function pages(e: string, role: "anyone" | "player" | "judge" | "head judge"): string[] {
  const anyone = [
    "/", "/events", "/rules", "/rules/1.06.03.05", "/signin", "/claim", "/statistics",
    e, `${e}/standings`, `${e}/standings?p=${event.playerId}`, `${e}/find`, `${e}/find?q=a`, `${e}/find/${event.playerId}`,
    `${e}/rounds/1`, `${e}/rounds/3`, `${e}/rounds/1/tables/1`, `${e}/finals`, `${e}/statistics`,
    `${e}/clocks`, `${e}/clocks?view=seating`, `${e}/clocks?view=standings`,
    `${e}/print/qr`, `${e}/print/standings`, `${e}/rounds/1/print/slips`, `${e}/rounds/1/print/pairings`,
  ];
  switch (role) {
    case "anyone":
      return anyone;
    case "player":
      return ["/account", e, `${e}/find/${event.playerId}`, `${e}/rounds/${event.round}/tables/${event.table}`];
    case "judge":
      return [
        e, `${e}/rounds/${event.round}`, `${e}/rounds/${event.round}/tables/${event.table}`, `${e}/rounds/1/tables/1`,
        `${e}/rounds/1/tables/1/log`, `${e}/logs`, `${e}/organise`, `${e}/rounds/1/print/reports`,
      ];
    case "head judge":
      return [
        "/events", e, `${e}/run`, `${e}/players`, `${e}/players?q=a`, `${e}/players/${event.playerId}`, `${e}/settings`,
        `${e}/staff`, `${e}/audit`, `${e}/rounds/1`, `${e}/rounds/3`, `${e}/rounds/1/tables/1`,
        `${e}/rounds/${event.round}/tables/${event.table}`, `${e}/rounds/1/tables/1/log`, `${e}/finals`, `${e}/logs`,
        `${e}/organise`, `${e}/statistics`, `${e}/clocks`, "/account",
      ];
  }
}

for (const viewport of [{ width: 360, height: 740 }, { width: 1366, height: 768 }, { width: 1920, height: 1080 }]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("no page in any role scrolls sideways or cuts a table", async ({ browser }) => {
      test.setTimeout(300_000);
      const e = `/events/${event.slug}`;
      const found: string[] = [];
      for (const [role, who] of [
        ["anyone", null],
        ["player", event.player],
        ["head judge", event.judge],
      ] as const) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        if (who) await signIn(page, who);
        for (const path of pages(e, role)) found.push(...(await cut(page, path)));
        await context.close();
      }
      expect(found).toEqual([]);
    });
  });
}

test("a judge keeping score sees only the pages a judge may open, each fitting a phone", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const e = `/events/${event.slug}`;
  // An organiser (a site administrator) gives the scorekeeper the judge's role.
  await signIn(page, admin);
  await page.goto(`${e}/staff`);
  await live(page);
  await page.getByLabel("User name", { exact: true }).fill(scorekeeper.name);
  await page.getByLabel("Role", { exact: true }).selectOption("judge");
  await page.getByRole("button", { name: "Give role" }).click();
  await expect(page.getByRole("row", { name: new RegExp(`^${scorekeeper.name} Judge`) })).toBeVisible();

  const phone = await browser.newContext({ viewport: { width: 360, height: 740 } });
  page = await phone.newPage();
  await signIn(page, scorekeeper);
  await page.goto(`${e}/rounds/${event.round}/tables/${event.table}`);
  await live(page);
  const menu = page.getByRole("navigation", { name: "Running the event" });
  await expect(menu).toBeVisible();
  for (const hidden of ["Dashboard", "Players", "Settings"]) {
    await expect(menu.getByRole("link", { name: hidden, exact: true })).toHaveCount(0);
  }
  const hrefs = await menu.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  expect(hrefs.length).toBeGreaterThanOrEqual(5);
  for (const href of hrefs) {
    const answer = await page.request.get(href);
    expect(answer.status(), href).toBe(200);
  }
  const found: string[] = [];
  for (const path of pages(e, "judge")) found.push(...(await cut(page, path)));
  expect(found).toEqual([]);
  await phone.close();
});
