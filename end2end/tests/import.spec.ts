import { test, expect } from "@playwright/test";
import { createUser, live, run, signIn } from "./support";

// The players' CSV import as an organiser meets it: a paste from a spreadsheet (tabs, a form's
// extra columns, a junk line), the same paste again (nothing imported is never a success), and
// a CSV file chosen from the computer, each with its line-by-line report.

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
  await expect(report).toContainText("Columns ignored: Timestamp.");
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
  await expect(page.getByRole("heading", { level: 1, name: "CSV import" })).toBeVisible();
  await expect(page.getByText("Imported 1 player.")).toBeVisible();
  await expect(page.getByText(/semicolon-separated/)).toBeVisible();
  await page.getByRole("link", { name: "← Back to the players" }).click();
  await expect(page.getByRole("rowheader", { name: `Feyd ${run}` })).toBeVisible();
});
