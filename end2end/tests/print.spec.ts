import { test, expect, Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { signIn } from "./support";

// Print: a round's table slips and game-report forms printed to PDF by Chromium, on A4 and on
// Letter, one page per table. The PDFs are kept in test-results/print/ to look at.

/// A demo event (5 tables a round) made by the real `mentat demo`: its address and the head
/// judge's sign-in.
function demoEvent(): { slug: string; hj: { name: string; password: string } } {
  const bin = process.env.MENTAT_BIN;
  if (!bin) throw new Error("MENTAT_BIN is not set (script/test sets it)");
  const out = execFileSync(bin, ["demo", "--base-url", "http://mentat.test"], {
    env: process.env,
    encoding: "utf8",
  });
  const slug = /Event page\s+http:\/\/mentat\.test\/events\/(\S+)/.exec(out)?.[1];
  const hj = /head judge\s+user (\S+)\s+password (\S+)/.exec(out);
  if (!slug || !hj) throw new Error(`unexpected demo output:\n${out}`);
  return { slug, hj: { name: hj[1], password: hj[2] } };
}

/// Pages in a PDF as Chromium writes it: one `/Type /Page` dictionary each.
function pages(pdf: Buffer): number {
  return (pdf.toString("latin1").match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;
}

const out = "test-results/print";

/// The first page's size in a PDF, "width height" in points (A4 595×842, Letter 612×792).
function mediaBox(file: string): string {
  const box = /\/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]/.exec(readFileSync(file, "latin1"));
  return box ? `${box[1]} ${box[2]}` : "none";
}

/// Prints `url` to PDF as Chromium's Print does (the page's own paper size, when it names one,
/// wins over `format`), keeps the file, and returns its number of pages.
async function printed(page: Page, url: string, format: "A4" | "Letter", name: string): Promise<number> {
  await page.goto(url);
  const pdf = await page.pdf({ format, printBackground: true, preferCSSPageSize: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(`${out}/${name}-${format}.pdf`, pdf);
  return pages(pdf);
}

test("print: slips and report forms come out one page per table on A4 and Letter", async ({ page }) => {
  test.setTimeout(120_000);
  const { slug, hj } = demoEvent();
  const round = `/events/${slug}/rounds/1`;

  // On screen: a heading per table, the paper choice, and no print bar on paper.
  await page.goto(`${round}/print/slips`);
  const tables = await page.getByRole("heading", { level: 1, name: /^Table \d+$/ }).count();
  expect(tables).toBe(5);
  await expect(page.getByRole("navigation", { name: "Printing" })).toBeVisible();
  await expect(page.getByRole("table").first()).toContainText("Place");
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("navigation", { name: "Printing" })).toBeHidden();
  await page.emulateMedia({ media: null });

  for (const format of ["A4", "Letter"] as const) {
    expect(await printed(page, `${round}/print/slips`, format, "slips")).toBe(tables);
  }
  // The paper named on the page wins over the printer's.
  expect(await printed(page, `${round}/print/slips?paper=letter`, "A4", "slips-named-letter")).toBe(tables);
  expect(mediaBox(`${out}/slips-named-letter-A4.pdf`)).toBe("612 792");
  expect(mediaBox(`${out}/slips-A4.pdf`)).toMatch(/^595\.\d+ 841\.\d+$|^595\.\d+ 842\.\d+$/);

  // Nobody signed in: no claim codes on the slips.
  await page.goto(`${round}/print/slips`);
  await expect(page.getByTestId("slip-claim-code")).toHaveCount(0);

  // Report forms are the judges'.
  await signIn(page, hj);
  // The head judge's slips carry a claim-code strip for each player without an account (the
  // demo's player has one), at the event's public address (the demo's --base-url), and still
  // take one page per table.
  await page.goto(`${round}/print/slips`);
  await expect(page.getByTestId("slip-claim-code")).toHaveCount(29);
  await expect(page.getByText("type the code at http://mentat.test/claim").first()).toBeVisible();
  for (const format of ["A4", "Letter"] as const) {
    expect(await printed(page, `${round}/print/slips`, format, "slips-with-codes")).toBe(tables);
  }
  for (const format of ["A4", "Letter"] as const) {
    expect(await printed(page, `${round}/print/reports`, format, "reports")).toBe(tables);
  }
  await page.goto(`${round}/print/reports`);
  await expect(page.getByRole("heading", { level: 1, name: "Game Report · Table 1" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Win attempts (4.01.04)" }).first()).toBeVisible();

  // The wall pairings: by name (surname first), then by table, on two pages.
  expect(await printed(page, `${round}/print/pairings`, "A4", "pairings")).toBeGreaterThanOrEqual(2);
  expect(await printed(page, `/events/${slug}/print/standings`, "A4", "standings")).toBeGreaterThanOrEqual(1);
});

test("the wall's pairings print names as written, sorted with accents and capitals ignored", async ({ page }) => {
  test.setTimeout(120_000);
  const { createUser, eventInRoundOne, live, run } = await import("./support");
  const organiser = { name: `walls-${run}`, password: "wall-pairings-password" };
  createUser(organiser.name, organiser.password, true);
  await signIn(page, organiser);
  // Names from around the world, as their players wrote them.
  const names = [
    "Zoë Zhang (张)",
    "A. B. Carter Jr.",
    "Nguyễn Thị Hoa",
    "Piter De Vries",
    "Émile Ørsted",
    "Anna van Dijk",
    "Hanna Ölund",
    "Łukasz Nowak",
    "María José García",
    "bob brown",
  ];
  const csv = ["name", ...names.map((n) => `"${n}"`)].join("\n") + "\n";
  const eventUrl = await eventInRoundOne(page, `Wall ${run}`, csv, 10);
  // Anna wants to be found under D: her sort key says so; her name stays as she wrote it.
  await page.goto(eventUrl + "/players");
  await live(page);
  await page.getByRole("link", { name: "Edit: Anna van Dijk" }).click();
  await live(page);
  await page.getByLabel("Sort as (optional)").fill("Dijk, Anna van");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved: Anna van Dijk.")).toBeVisible();

  await page.goto(`${eventUrl}/rounds/1/print/pairings`);
  await expect(page).toHaveTitle(/^Round 1 pairings · Wall .* · Mentat$/);
  const byName = page.getByRole("table").filter({ has: page.getByText("By name, A to Z (accents and capitals ignored)") });
  const printed = await byName.getByRole("rowheader").allInnerTexts();
  expect(printed).toEqual([
    "A. B. Carter Jr.",
    "bob brown",
    "Anna van Dijk",
    "Émile Ørsted",
    "Hanna Ölund",
    "Łukasz Nowak",
    "María José García",
    "Nguyễn Thị Hoa",
    "Piter De Vries",
    "Zoë Zhang (张)",
  ]);
  // The tables' sheet: one heading level below the page's, in order (axe's heading-order).
  await expect(page.getByRole("heading", { level: 2, name: "Table 1" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 3 })).toHaveCount(0);
});
