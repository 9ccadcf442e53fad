import { expect, Page } from "@playwright/test";
import { execFileSync } from "node:child_process";

/// Creates an account with the real `mentat user add`, reading the password from stdin.
export function createUser(name: string, password: string, admin = false) {
  const bin = process.env.MENTAT_BIN;
  if (!bin) throw new Error("MENTAT_BIN is not set (script/test sets it)");
  const args = ["user", "add", name, ...(admin ? ["--admin"] : [])];
  execFileSync(bin, args, { input: password + "\n", env: process.env, stdio: ["pipe", "pipe", "pipe"] });
}

/// A suffix that keeps names unique when the suite runs twice against one database.
export const run = Date.now().toString(36);

/// Waits until the page is hydrated, so forms are handled by the app rather than posted plainly.
export async function live(page: Page) {
  await expect(page.locator("header[data-live=true]")).toHaveCount(1);
}

/// Signs in through the form, as a person would, and waits for the header to say so.
export async function signIn(page: Page, who: { name: string; password: string }) {
  await page.goto("/signin");
  await live(page);
  await page.getByLabel("User name or email").fill(who.name);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(`Signed in as ${who.name}`)).toBeVisible();
}
