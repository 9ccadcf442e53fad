import { test, expect } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { createUser, live, run, signIn } from "./support";

// The players' CSV import as an organiser meets it: a paste from a spreadsheet (tabs, a form's
// extra columns, a junk line), the same paste again (nothing imported is never a success), a
// CSV file chosen from the computer, each with its line-by-line report and which column became
// which field; and a sign-up form's export whose club column has a compound header and whose
// unknown column is offered in a preview, with a choice of field, before anything is saved.

const admin = { name: `imp-${run}`, password: "import-admin-password-1" };
const eventName = `Import ${run}`;

test.beforeAll(() => {
  createUser(admin.name, admin.password, true);
});

test("import: a spreadsheet paste, a repeated paste, and a file", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, admin);
  await page.goto("/events");
  await live(page);
  await page.getByLabel("Event name").fill(eventName);
  await page.getByRole("button", { name: "Create event" }).click();
  await expect(page.getByRole("heading", { level: 1, name: eventName })).toBeVisible();
  const players = page.url() + "/players";

  const paste = [
    "Timestamp\tEmail Address\tName",
    `2026-07-30 10:00\talia-${run}@example.org\tAlia ${run}`,
    ";;;",
    `2026-07-30 10:05\tpaul-${run}@example.org\tPaul ${run}`,
  ].join("\n");
  await page.goto(players);
  await live(page);
  await page.getByLabel("CSV lines").fill(paste);
  await page.getByRole("button", { name: "Import players" }).click();
  const report = page.locator(".import-report");
  await expect(report.getByText("Imported 2 players.")).toBeVisible();
  await expect(report).toContainText("Read as tab-separated, with a header");
  await expect(report).toContainText("Columns: “Email Address” → email · “Name” → name; ignored: “Timestamp”.");
  // The report is where the eye is: the page opens at it, not at its top.
  await expect(report).toBeInViewport();
  await expect(report.locator(".refused li")).toHaveCount(1);
  await expect(report.locator(".refused li")).toContainText("Line 3");

  // The same again: every line refused, and the report says nothing was imported.
  await page.getByLabel("CSV lines").fill(paste);
  await page.getByRole("button", { name: "Import players" }).click();
  await expect(report.getByText("Nothing was imported.")).toBeVisible();
  await expect(report.locator(".ok")).toHaveCount(0);
  await expect(report.locator(".refused li")).toHaveCount(3);

  // A file, semicolon-separated as many spreadsheets save it.
  await page.getByLabel("Or choose a CSV file").setInputFiles({
    name: "players.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`name;club\nFeyd ${run};Giedi Prime\n`),
  });
  await page.getByRole("button", { name: "Import the file" }).click();
  await expect(report.getByText("Imported 1 player.")).toBeVisible();
  await expect(report).toContainText("semicolon-separated");
  await expect(report).toContainText("“club” → club");
  await expect(page.getByRole("rowheader", { name: `Feyd ${run}` })).toBeVisible();
});

for (const viewport of [{ width: 360, height: 740 }, { width: 1366, height: 768 }]) {
  test(`import at ${viewport.width} px: a form export's compound club header is read, its unknown column offered in a preview`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await signIn(page, admin);
    await page.goto("/events");
    await live(page);
    const name = `Form export ${viewport.width} ${run}`;
    await page.getByLabel("Event name").fill(name);
    await page.getByRole("button", { name: "Create event" }).click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    const players = page.url() + "/players";
    const who = (n: string) => `${n} ${viewport.width} ${run}`;
    // As an online form exports it: a timestamp, combined labels, punctuation, an extra column.
    const csv = [
      "Timestamp,First and last name,E-mail address,Club / Team affiliation (if any),Favourite faction",
      `2026/07/30 10:01:02,${who("Zoë Zhang (张)")},zoe-${viewport.width}-${run}@example.org,Sietch Tabr,Fremen`,
      `2026/07/30 10:03:40,${who("Piter De Vries")},,Giedi Prime Gamers,Harkonnen`,
      `2026/07/30 10:05:00,"${who("Carter, A. B. Jr.")}",,,Atreides`,
    ].join("\n");
    await page.goto(players);
    await live(page);
    await page.getByLabel("CSV lines").fill(csv);
    await page.getByRole("button", { name: "Import players" }).click();

    // The preview: nothing saved yet; each column with its first rows and a choice of field.
    await expect(page.getByRole("heading", { level: 1, name: "Import players: check the columns" })).toBeVisible();
    await expect(page).toHaveTitle(`CSV import · ${name} · Mentat`);
    const faction = page.getByLabel("“Favourite faction” holds");
    await expect(faction).toHaveValue("");
    await expect(page.locator(".column-card[data-unclear=true]")).toHaveCount(1);
    await expect(page.locator(".column-card[data-unclear=true]")).toContainText("Harkonnen");
    await expect(page.getByLabel("“Club / Team affiliation (if any)” holds")).toHaveValue("club");
    await expect(page.getByLabel("“First and last name” holds")).toHaveValue("name");
    await expect(page.getByLabel("“E-mail address” holds")).toHaveValue("email");
    await expect(page.getByLabel("“Timestamp” holds")).toHaveValue("");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
    const meanwhile = await page.context().newPage();
    await meanwhile.goto(players);
    await expect(meanwhile.getByTestId("player-summary")).toHaveText("0 registered · 0 checked in · 0 dropped");
    await meanwhile.close();

    // Imported as chosen: every club kept, the report says which column became which field.
    await page.getByRole("button", { name: "Import these players" }).click();
    const report = page.locator(".import-report");
    await expect(report.getByText("Imported 3 players.")).toBeVisible();
    await expect(report).toBeInViewport();
    await expect(report).toContainText(
      "“First and last name” → name · “E-mail address” → email · “Club / Team affiliation (if any)” → club; ignored: “Timestamp”, “Favourite faction”",
    );
    const row = (n: string) => page.locator("#player-list tbody tr").filter({ hasText: who(n) });
    await expect(row("Zoë Zhang (张)")).toContainText("Sietch Tabr");
    await expect(row("Piter De Vries")).toContainText("Giedi Prime Gamers");
    await expect(row("Carter, A. B. Jr.")).toHaveCount(1);
  });
}
