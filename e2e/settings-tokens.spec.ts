import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { readEnvText, restoreEnvText, setAdminAuth } from "./fixtures/env-file";
import { pageTitle, screenshot, SCREENSHOT_DIR } from "./fixtures/ui";

// The Settings page's API tokens panel with admin auth on. Like login.spec.ts it switches auth
// on through the e2e server's env file and puts the file back. It starts from a fresh install: the admin
// password an earlier spec (login.spec.ts) left in the shared e2e database is removed first.

test.describe.configure({ mode: "serial" });

let original: string | null = null;
test.beforeAll(() => {
  original = readEnvText();
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, "e2e.db"));
  try {
    db.pragma("busy_timeout = 5000");
    db.prepare("DELETE FROM app_state WHERE key = 'admin_password_hash'").run();
  } finally {
    db.close();
  }
});
test.afterAll(async ({ request }) => {
  restoreEnvText(original);
  await expect
    .poll(
      async () => ((await (await request.get("/api/v1/auth/status")).json()) as { authEnabled: boolean }).authEnabled,
      { timeout: 10_000 },
    )
    .toBe(false);
});

const PASSWORD = "tokens-pass-123";

test("create a token in Settings, copy it once, call the API with it, revoke it and be refused", async ({
  page,
  request,
}) => {
  await setAdminAuth(request, true);
  await expect
    .poll(async () => (await page.goto("/settings"), new URL(page.url()).pathname), { timeout: 10_000 })
    .toBe("/login");
  await page.getByLabel("密码", { exact: true }).fill(PASSWORD);
  await page.getByLabel("确认密码").fill(PASSWORD);
  await page.getByRole("button", { name: "设置密码并登录" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(pageTitle(page)).toHaveText("设置");

  // The `request` fixture has no session cookie: without a token the API refuses it.
  expect((await request.get("/api/v1/portfolio/accounts")).status()).toBe(401);

  const form = page.getByRole("form", { name: "创建 API 令牌" });
  await form.getByLabel("名称").fill("e2e-reader");
  await form.getByLabel("权限").selectOption("read");
  await form.getByRole("button", { name: "创建令牌" }).click();
  const dialog = page.getByRole("dialog", { name: "复制新令牌" });
  await expect(dialog).toBeVisible();
  const token = await dialog.getByLabel("新的 API 令牌").inputValue();
  expect(token).toMatch(/^dsa_[A-Za-z0-9_-]{43}$/);
  await screenshot(page, { path: `${SCREENSHOT_DIR}/settings-token-created.png`, fullPage: false });
  await dialog.getByRole("button", { name: "完成" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId("api-token").filter({ hasText: "e2e-reader" });
  await expect(row).toContainText(token.slice(0, 12));
  await expect(page.getByText(token)).toHaveCount(0);

  const bearer = { authorization: `Bearer ${token}` };
  expect((await request.get("/api/v1/portfolio/accounts", { headers: bearer })).status()).toBe(200);
  expect((await request.post("/api/v1/portfolio/accounts", { headers: bearer, data: { name: "nope" } })).status()).toBe(
    403,
  );

  await row.getByRole("button", { name: "吊销令牌 e2e-reader" }).click();
  await page.getByRole("dialog", { name: "吊销 e2e-reader？" }).getByRole("button", { name: "吊销" }).click();
  await expect(page.getByText("已吊销 e2e-reader。")).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.getByRole("heading", { name: "API 令牌" }).scrollIntoViewIfNeeded();
  await screenshot(page, { path: `${SCREENSHOT_DIR}/settings-tokens.png`, fullPage: false });

  const refused = await request.get("/api/v1/portfolio/accounts", { headers: bearer });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ error: "unauthorized" });
});
