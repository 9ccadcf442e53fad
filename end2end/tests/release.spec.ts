import { test, expect } from "@playwright/test";

// The browser half as phones get it: the release build, through wasm-opt. script/test runs this
// alone (MENTAT_RELEASE_CHECK=1) against a Mentat serving that build; an optimiser fault that
// the debug build lacks shows here as a page that never becomes interactive.

test("the optimised browser half starts and runs", async ({ page }) => {
  test.skip(!process.env.MENTAT_RELEASE_CHECK, "script/test runs it against the release build");
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  // An island runs: the home page's last island marks the header once it has hydrated.
  await page.goto("/");
  await expect(page.locator("header[data-live=true]")).toHaveCount(1);
  // The form listener: a refused sign-in is shown at the field by the browser half, without the
  // plain post's round trip (which would put the error in the address).
  await page.goto("/signin");
  await expect(page.locator("header[data-live=true]")).toHaveCount(1);
  await page.getByLabel("User name or email").fill("nobody-of-that-name");
  await page.getByLabel("Password").fill("not-a-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("do not match an account")).toBeVisible();
  expect(page.url()).not.toContain("__err");
  await expect(page.getByLabel("User name or email")).toHaveValue("nobody-of-that-name");
  expect(errors).toEqual([]);
  // The release's files are named by their content's hash, built with a brotli copy, and kept
  // by the browser for good (server/src/http/statics.rs).
  const css = await page.locator('link[rel="stylesheet"]').first().getAttribute("href");
  expect(css).toMatch(/^\/pkg\/mentat\.[A-Za-z0-9_-]+\.css$/);
  const sheet = await page.request.get(css!, { headers: { "Accept-Encoding": "br, gzip" } });
  expect(sheet.status()).toBe(200);
  expect(sheet.headers()["content-encoding"]).toBe("br");
  expect(sheet.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(sheet.headers()["etag"]).toMatch(/^"/);
  // Its size, for the record (phones on convention Wi-Fi download it once).
  const wasmPath = await page.locator('link[rel="preload"][href$=".wasm"]').getAttribute("href");
  expect(wasmPath).toMatch(/^\/pkg\/mentat\.[A-Za-z0-9_-]+\.wasm$/);
  const wasm = await page.request.get(wasmPath!);
  console.log(`release wasm: ${(await wasm.body()).length} bytes`);
});
