import { test, expect, Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { execFileSync } from "node:child_process";
import { signIn } from "./support";

// Every page in every role, print pages included, at a phone's width, a laptop's and a
// projector's, checked with axe (WCAG 2.1 A and AA and axe's best practices): zero violations. The event is `mentat demo`'s (30 players, three
// rounds, reports final, disputed, awaiting confirmation), made by the real command.

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

let event: Demo;
test.beforeAll(() => {
  event = demo();
});

async function violations(page: Page, path: string): Promise<string[]> {
  const response = await page.goto(path);
  expect(response, path).not.toBeNull();
  // Pages of the app hydrate; axe reads the page as a person meets it, after that.
  if (await page.locator('link[rel="modulepreload"]').count()) {
    await expect(page.locator("html[data-live=true]")).toHaveCount(1);
  }
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map(
    (v) => `${path}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`,
  );
}

for (const viewport of [{ width: 360, height: 740 }, { width: 1366, height: 768 }, { width: 1920, height: 1080 }]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("anonymous visitors' pages have no axe violations", async ({ page }) => {
      test.setTimeout(120_000);
      const e = `/events/${event.slug}`;
      const found: string[] = [];
      for (const path of [
        "/", "/events", "/rules", "/rules/1.06.03.05", "/rules/2.07.18", "/signin", "/claim", "/no-such-page", `${e}/print/qr`,
        e, `${e}/standings`, `${e}/find`, `${e}/find?q=a`, `${e}/find/${event.playerId}`,
        `${e}/rounds/1`, `${e}/rounds/1/tables/1`, `${e}/clocks`, `${e}/clocks?view=seating`, `${e}/clocks?view=standings`,
        `${e}/standings?p=${event.playerId}`, `${e}/finals`, `${e}/print/standings`, `${e}/rounds/1/print/slips`,
        `${e}/rounds/1/print/pairings`, `${e}/statistics`, "/statistics",
      ]) found.push(...(await violations(page, path)));
      expect(found).toEqual([]);
    });

    test("a player's pages have no axe violations", async ({ page }) => {
      test.setTimeout(120_000);
      const e = `/events/${event.slug}`;
      await signIn(page, event.player);
      const found: string[] = [];
      for (const path of ["/account", `${e}/find/${event.playerId}`, `${e}/rounds/${event.round}/tables/${event.table}`, e])
        found.push(...(await violations(page, path)));
      expect(found).toEqual([]);
    });

    test("a head judge's pages have no axe violations", async ({ page }) => {
      test.setTimeout(180_000);
      const e = `/events/${event.slug}`;
      await signIn(page, event.judge);
      const found: string[] = [];
      for (const path of [
        "/events", e, `${e}/run`, `${e}/players`, `${e}/players/${event.playerId}`, `${e}/settings`, `${e}/staff`, `${e}/audit`,
        `${e}/rounds/1`, `${e}/rounds/3`, `${e}/rounds/1/tables/1`, `${e}/rounds/1/tables/1/log`,
        `${e}/finals`, `${e}/logs`, `${e}/organise`, `${e}/statistics`, "/statistics", `${e}/clocks`, `/account`,
        `${e}/players?q=a`, `${e}/rounds/1/print/reports`, `${e}/rounds/1/print/slips`,
      ]) found.push(...(await violations(page, path)));
      expect(found).toEqual([]);
    });
  });
}
