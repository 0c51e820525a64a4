import { expect, test, type Page } from "@playwright/test";
import { readEnvText, restoreEnvText, setAdminAuth } from "./fixtures/env-file";
import { expectNoHorizontalOverflow, pageTitle, screenshot, SCREENSHOT_DIR } from "./fixtures/ui";

// Login page, login state in the nav, logout. The flow switches ADMIN_AUTH_ENABLED by
// writing the e2e server's env file and always puts the file back, so the other specs run with auth off.
// It expects a fresh e2e database (no admin password stored yet), as every playwright run creates.

test.describe.configure({ mode: "serial" });

let original: string | null = null;
test.beforeAll(() => {
  original = readEnvText();
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

const PASSWORD = "first-pass-123";
const NEW_PASSWORD = "second-pass-456";

const logoutButton = (page: Page) => page.getByRole("banner").getByRole("button", { name: "退出" });

/** Loads `path` until the UI gate (which re-reads the env file within a second) sends it to the login page. */
async function expectLoginRedirect(page: Page, path: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.goto(path);
        const url = new URL(page.url());
        return `${url.pathname}${url.search}`;
      },
      { timeout: 10_000 },
    )
    .toBe(`/login?next=${encodeURIComponent(path)}`);
}

test("with auth off, /login says so and links to Settings", async ({ page }) => {
  const response = await page.goto("/login");
  expect(response?.status()).toBe(200);
  await expect(pageTitle(page)).toHaveText("未开启管理员认证");
  await expect(page).toHaveTitle("登录 · DSA");
  const link = page.getByRole("link", { name: "前往设置" });
  await expect(link).toHaveAttribute("href", "/settings#admin-auth");
  await link.click();
  await expect(page).toHaveURL(/\/settings#admin-auth$/);
  await expect(pageTitle(page)).toHaveText("设置");
  await page.goto("/login");
  await screenshot(page, { path: `${SCREENSHOT_DIR}/login-disabled.png`, fullPage: true });
});

test("with auth on, /settings redirects to /login, the first password is set there (errors localised), Settings is reached, logout ends the session", async ({
  page,
  request,
}) => {
  await setAdminAuth(request, true);
  await expectLoginRedirect(page, "/settings");
  await expect(pageTitle(page)).toHaveText("设置管理员密码");
  await expect(page.getByText("首次使用")).toBeVisible();
  await screenshot(page, { path: `${SCREENSHOT_DIR}/login-setup.png`, fullPage: true });

  const password = page.getByLabel("密码", { exact: true });
  const confirm = page.getByLabel("确认密码");
  const submit = page.getByRole("button", { name: "设置密码并登录" });
  await password.fill(PASSWORD);
  await confirm.fill("something-else");
  await submit.click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("两次输入的密码不一致");
  await password.fill("abc");
  await confirm.fill("abc");
  await submit.click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("密码至少需要 6 个字符");

  await password.fill(PASSWORD);
  await confirm.fill(PASSWORD);
  await submit.click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(pageTitle(page)).toHaveText("设置");
  await expect(logoutButton(page)).toBeVisible();
  // Logged in with auth on: export and import are available, and the API accepts the session.
  await expect(page.getByRole("button", { name: "导出配置" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "导入配置" })).toBeEnabled();
  expect((await page.request.get("/api/v1/system/config")).status()).toBe(200);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "导出配置" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^dsa-config-\d{8}-\d{4}\.env$/);
  expect(await file.path().then((p) => import("node:fs").then((fs) => fs.readFileSync(p, "utf8")))).toContain(
    "ADMIN_AUTH_ENABLED=true",
  );
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, { path: `${SCREENSHOT_DIR}/settings-auth-on.png`, fullPage: true });

  // Another UI page is reachable too, and the nav shows the login state there.
  await page.goto("/history");
  await expect(logoutButton(page)).toBeVisible();

  await logoutButton(page).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(pageTitle(page)).toHaveText("登录");
  expect((await page.request.get("/api/v1/system/config")).status(), "the session is gone").toBe(401);
  await expectLoginRedirect(page, "/settings");
  await expectLoginRedirect(page, "/history");
});

test("the login page reports a wrong password, then logs in and goes to `next` (same-site paths only)", async ({
  page,
  baseURL,
}) => {
  await expectLoginRedirect(page, "/settings");
  await expect(pageTitle(page)).toHaveText("登录");
  await expect(page.getByLabel("确认密码")).toHaveCount(0);
  await screenshot(page, { path: `${SCREENSHOT_DIR}/login.png`, fullPage: true });

  const password = page.getByLabel("密码", { exact: true });
  await password.fill("not-the-password");
  await page.getByRole("button", { name: "登录", exact: true }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("密码错误");
  await password.fill(PASSWORD);
  await page.getByRole("button", { name: "登录", exact: true }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(logoutButton(page)).toBeVisible();

  // Logged in already: /login forwards to `next`, but never off-site.
  for (const next of ["https://evil.example/", "//evil.example/x", "/\\evil.example"]) {
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    await expect(page, `next=${next}`).toHaveURL(`${baseURL}/`);
  }
  await page.goto(`/login?next=${encodeURIComponent("/history?x=1")}`);
  await expect(page).toHaveURL(/\/history\?x=1$/);
});

test("in Settings, change the admin password, then turn auth off with it (the nav drops the logout button)", async ({
  page,
  request,
}) => {
  await page.goto("/login?next=%2Fsettings");
  await page.getByLabel("密码", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "登录", exact: true }).click();
  await expect(page).toHaveURL(/\/settings$/);

  const change = page.getByRole("form", { name: "修改密码" });
  await change.getByLabel("当前密码").fill("wrong-current");
  await change.getByLabel("新密码", { exact: true }).fill(NEW_PASSWORD);
  await change.getByLabel("确认新密码").fill(NEW_PASSWORD);
  await change.getByRole("button", { name: "修改密码" }).click();
  await expect(change.getByRole("alert")).toHaveText("当前密码错误");
  await change.getByLabel("当前密码").fill(PASSWORD);
  await change.getByRole("button", { name: "修改密码" }).click();
  await expect(change.getByRole("status")).toHaveText("密码已修改，其他会话已全部退出。");

  const off = page.getByRole("form", { name: "关闭认证" });
  await off.getByLabel("当前密码").fill(NEW_PASSWORD);
  await off.getByRole("button", { name: "关闭认证" }).click();
  await expect(page.getByRole("form", { name: "开启认证" })).toBeVisible();
  await expect(logoutButton(page)).toHaveCount(0);
  await expect(page.getByText("之前设置的密码仍然保存着")).toBeVisible();
  expect(((await (await request.get("/api/v1/auth/status")).json()) as { authEnabled: boolean }).authEnabled).toBe(
    false,
  );
});

test("the login page fits a 390px phone screen", async ({ page, request }) => {
  await setAdminAuth(request, true);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectLoginRedirect(page, "/settings");
  await expect(pageTitle(page)).toHaveText("登录");
  await expectNoHorizontalOverflow(page);
  await screenshot(page, { path: `${SCREENSHOT_DIR}/login-phone.png`, fullPage: true });
  await setAdminAuth(request, false);
});
