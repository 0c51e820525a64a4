import fs from "node:fs";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { startScriptedModel, type ScriptedModel, type ScriptedRequest } from "@/tests/kits/scripted-model";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";
import {
  describeUiPage,
  expectDarkBackground,
  expectNoHorizontalOverflow,
  pageTitle,
  screenshot,
  SCREENSHOT_DIR,
  UI_PAGES,
} from "./fixtures/ui";
import { withE2eDb } from "./fixtures/e2e-db";

// The Ask DSA page (/chat). The e2e server runs on sample market data (switched through its env file).
// First without any LLM channel: the slash commands answer from the service's own data through the same stream
// events, a free question gets the list of commands, conversations are kept, reopened and deleted. Then against a
// scripted OpenAI-compatible model (tests/kits/scripted-model.ts) configured through the env file: a tool
// call and an answer quoting its price, an invented price that is marked, a slow answer cancelled mid-way, and an
// HTTP 500 from the model. Conversations are emptied before and after, so the file does not depend on others.

const chat = UI_PAGES.find((p) => p.slug === "chat")!;
const BUILTIN_STRATEGIES = [
  "trend_following",
  "volume_breakout",
  "pullback_support",
  "mean_reversion",
  "risk_first_review",
];

interface StoredToolCall {
  tool: string;
  display_name: string;
  output: unknown;
  success: boolean;
}
interface StoredMessage {
  role: "user" | "assistant";
  content: string;
  status: "complete" | "cancelled" | "error";
  tool_calls?: StoredToolCall[] | null;
}
interface SessionDetail {
  session_id: string;
  title: string;
  messages: StoredMessage[];
  context?: { stock_code?: string | null; stock_name?: string | null; record_id?: number | null } | null;
}
interface SkillList {
  skills: { id: string; name: string; source: string }[];
  default_skill_id: string;
}

const withDb = withE2eDb;

const clearChats = () =>
  withDb((db) => {
    db.prepare("DELETE FROM agent_message").run();
    db.prepare("DELETE FROM agent_session").run();
  });

const input = (page: Page) => page.getByRole("textbox", { name: "问题或命令" });
const sendButton = (page: Page) => page.getByRole("button", { name: "发送", exact: true });
const answers = (page: Page) => page.locator('[data-testid="chat-message"][data-role="assistant"]');
const questions = (page: Page) => page.locator('[data-testid="chat-message"][data-role="user"]');
const sessionItems = (page: Page) => page.getByTestId("chat-sessions").getByTestId("chat-session");

/** Types a message, sends it with Enter, and returns the answer bubble it opens. */
async function ask(page: Page, message: string): Promise<Locator> {
  const before = await answers(page).count();
  await input(page).fill(message);
  await input(page).press("Enter");
  await expect(answers(page)).toHaveCount(before + 1);
  return answers(page).nth(before);
}

async function finished(answer: Locator, state: "complete" | "cancelled" | "error" = "complete"): Promise<void> {
  await expect(answer).toHaveAttribute("data-state", state, { timeout: 30_000 });
}

function currentSessionId(page: Page): string {
  const id = new URL(page.url()).searchParams.get("session");
  expect(id, "the URL names the open conversation").toBeTruthy();
  return id!;
}

async function sessionDetail(request: APIRequestContext, id: string): Promise<SessionDetail> {
  const response = await request.get(`/api/v1/agent/chat/sessions/${encodeURIComponent(id)}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as SessionDetail;
}

async function agentAvailable(request: APIRequestContext): Promise<boolean> {
  return ((await (await request.get("/api/v1/agent/status")).json()) as { available: boolean }).available;
}

let originalEnv: string | null = null;

test.beforeAll(async ({ request }) => {
  originalEnv = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: "sample" });
  clearChats();
});
test.afterAll(() => {
  restoreEnvText(originalEnv);
  clearChats();
});

describeUiPage(chat, { built: true });

test.describe("Ask DSA without a language model", () => {
  test.beforeEach(() => clearChats());

  test("/quote answers from the sample data with its tool step, /help and a free question name the commands; the conversation is kept, exported and deleted", async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    expect(await agentAvailable(request), "no LLM channel in the e2e environment").toBe(false);
    await page.goto("/chat");
    await expect(pageTitle(page)).toHaveText("问股");
    await expect(page.getByTestId("chat-empty")).toBeVisible();
    await expect(page.getByTestId("chat-sessions-empty")).toBeVisible();
    // Without a channel the page says what free questions need, and that the commands work anyway.
    await expect(page.getByTestId("chat-no-llm")).toContainText("设置 → AI 模型");
    await expect(page.getByTestId("chat-no-llm").getByRole("link", { name: "前往设置" })).toHaveAttribute(
      "href",
      "/settings",
    );
    const commands = page.getByTestId("chat-commands");
    for (const command of ["/analyze", "/quote", "/market", "/history", "/signals", "/backtest", "/watch", "/help"])
      await expect(commands).toContainText(command);
    // A command chip fills the box with the command.
    await commands.getByRole("button", { name: "填入命令 /quote <代码>" }).click();
    await expect(input(page)).toHaveValue("/quote ");
    await expect(input(page)).toBeFocused();

    // /quote: a tool step shown as it runs, then ✓ and its duration; the answer quotes the tool's price.
    const quote = await ask(page, "/quote 600519");
    // The bubble starts with a screen-reader label ("你:"); the question follows it.
    await expect(questions(page).first()).toHaveText(/^\S*:?\s*\/quote 600519$/);
    await finished(quote);
    await expect(page).toHaveURL(/\/chat\?session=/);
    const sessionId = currentSessionId(page);
    const stored = await sessionDetail(request, sessionId);
    const call = stored.messages.find((m) => m.role === "assistant")?.tool_calls?.[0];
    expect(call?.tool).toBe("get_realtime_quote");
    const price = (call!.output as { price: number }).price;
    expect(price).toBeGreaterThan(0);
    const step = quote.getByTestId("chat-tool-step");
    await expect(step).toHaveCount(1);
    await expect(step).toHaveAttribute("data-state", "ok");
    await expect(step).toContainText("获取实时行情");
    await expect(step).toContainText("✓");
    await expect(step.getByTestId("chat-tool-duration")).toHaveText(/^\d+\.\d 秒$/);
    await expect(quote.getByTestId("chat-answer-text")).toContainText(price.toFixed(2));
    await expect(quote.getByTestId("chat-check-warning")).toHaveCount(0);
    await expect(quote.getByRole("alert")).toHaveCount(0);

    // /help lists the commands; a free question without a channel gets the commands and the setting.
    const help = await ask(page, "/help");
    await finished(help);
    for (const command of ["/analyze", "/quote", "/market", "/history", "/signals", "/backtest"])
      await expect(help.getByTestId("chat-answer-text")).toContainText(command);
    const free = await ask(page, "贵州茅台现在还能买吗？");
    await finished(free);
    await expect(free.getByTestId("chat-answer-text")).toContainText("/quote");
    await expect(free.getByTestId("chat-answer-text")).toContainText("AI 模型");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/chat-commands.png`, fullPage: true });

    // The conversation is in the sidebar, titled by its first message, and marked as the open one.
    const item = sessionItems(page).filter({ hasText: "/quote 600519" });
    await expect(sessionItems(page)).toHaveCount(1);
    await expect(item).toHaveAttribute("data-session-id", sessionId);
    await expect(item.getByRole("button", { name: /^\/quote 600519/ })).toHaveAttribute("aria-current", "true");

    // Copy one answer: exactly its Markdown.
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await quote.getByRole("button", { name: "复制" }).click();
    await expect(quote.getByRole("button", { name: "已复制" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(price.toFixed(2));

    // Export: a .md of the whole conversation.
    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("button", { name: "导出 Markdown" }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toMatch(/^dsa-chat-.*\.md$/);
    const markdown = fs.readFileSync(await download.path(), "utf8");
    expect(markdown).toContain("/quote 600519");
    expect(markdown).toContain("## DSA");
    expect(markdown).toContain(price.toFixed(2));

    // Send to channels: none is configured here, so the API's no_channels message is shown.
    await page.getByRole("button", { name: "发送到通知渠道" }).click();
    await expect(page.getByTestId("chat-share-status")).toHaveAttribute("role", "alert");
    await expect(page.getByTestId("chat-share-status")).toContainText("发送失败");

    // A reload reopens the conversation (its URL names it), stored tool steps included.
    await page.reload();
    await expect(questions(page)).toHaveCount(3);
    await expect(answers(page)).toHaveCount(3);
    await expect(answers(page).first().getByTestId("chat-tool-step")).toContainText("获取实时行情");
    await expect(answers(page).first().getByTestId("chat-answer-text")).toContainText(price.toFixed(2));
    await expect(sessionItems(page)).toHaveCount(1);

    // New chat empties the view but keeps the conversation; opening it from the list loads it again.
    await page.getByRole("button", { name: "新对话", exact: true }).click();
    await expect(page.getByTestId("chat-empty")).toBeVisible();
    await expect(page).toHaveURL(/\/chat$/);
    await item.getByRole("button", { name: /^\/quote 600519/ }).click();
    await expect(answers(page)).toHaveCount(3);
    await expect(page).toHaveURL(new RegExp(`session=${sessionId}`));

    // Delete asks first; "keep" keeps it, "delete" removes it everywhere.
    await item.getByRole("button", { name: "删除会话「/quote 600519」" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("/quote 600519");
    await dialog.getByRole("button", { name: "保留" }).click();
    await expect(sessionItems(page)).toHaveCount(1);
    await item.getByRole("button", { name: "删除会话「/quote 600519」" }).click();
    await dialog.getByRole("button", { name: "删除", exact: true }).click();
    await expect(sessionItems(page)).toHaveCount(0);
    await expect(page.getByTestId("chat-empty")).toBeVisible();
    await expect(page).toHaveURL(/\/chat$/);
    expect((await request.get(`/api/v1/agent/chat/sessions/${sessionId}`)).status()).toBe(404);
  });

  test("the strategy picker lists the five built-in strategies by the API's names, the default chosen, at most three sent", async ({
    page,
    request,
  }) => {
    const skills = (await (await request.get("/api/v1/agent/skills")).json()) as SkillList;
    const ids = skills.skills.map((s) => s.id);
    for (const id of BUILTIN_STRATEGIES) expect(ids).toContain(id);

    await page.goto("/chat");
    const defaultName = skills.skills.find((s) => s.id === skills.default_skill_id)!.name;
    const button = page.getByTestId("chat-strategy-button");
    await expect(button).toContainText(`策略：${defaultName}`);
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    const picker = page.getByTestId("chat-strategy-picker");
    for (const id of BUILTIN_STRATEGIES) {
      const skill = skills.skills.find((s) => s.id === id)!;
      const box = picker.getByRole("checkbox", { name: skill.name, exact: true });
      await expect(box).toBeVisible();
      if (id === skills.default_skill_id) await expect(box).toBeChecked();
      else await expect(box).not.toBeChecked();
    }

    // Three at most: after two more, the others cannot be ticked.
    const others = BUILTIN_STRATEGIES.filter((id) => id !== skills.default_skill_id).map(
      (id) => skills.skills.find((s) => s.id === id)!,
    );
    await picker.getByRole("checkbox", { name: others[0]!.name, exact: true }).check();
    await picker.getByRole("checkbox", { name: others[1]!.name, exact: true }).check();
    await expect(picker.getByRole("checkbox", { name: others[2]!.name, exact: true })).toBeDisabled();
    await expect(picker).toContainText("最多可选 3 个策略");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/chat-strategies.png`, fullPage: true });

    // The turn carries the choice, the UI language and a client request id.
    const sent = page.waitForRequest((r) => r.url().endsWith("/api/v1/agent/chat/stream") && r.method() === "POST");
    const answer = await ask(page, "/help");
    const body = (await sent).postDataJSON() as {
      skills: string[];
      language: string;
      request_id: string;
      session_id: string;
      stream_deltas: boolean;
    };
    expect(body.skills).toEqual([skills.default_skill_id, others[0]!.id, others[1]!.id]);
    expect(body).toMatchObject({ language: "zh", stream_deltas: true });
    expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.session_id).toMatch(/^[0-9a-f-]{36}$/);
    await finished(answer);
  });

  test('"Ask DSA about this stock" on a report opens a new conversation with the record as its context', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    const made = await request.post("/api/v1/analysis/analyze", {
      data: { stock_code: "600519", async_mode: false, notify: false },
    });
    expect(made.status()).toBe(200);
    const recordId = ((await made.json()) as { report: { meta: { id: number } } }).report.meta.id;

    await page.goto(`/history/${recordId}`);
    const link = page.getByRole("link", { name: "问问 DSA" });
    await expect(link).toHaveAttribute("href", new RegExp(`^/chat\\?record=${recordId}&code=600519`));
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/chat\\?record=${recordId}&code=600519`));
    await expect(pageTitle(page)).toHaveText("问股");
    const chip = page.getByTestId("chat-context");
    await expect(chip).toContainText("贵州茅台（600519）");
    await expect(chip).toContainText(`报告 #${recordId}`);
    await expect(input(page)).toHaveValue("贵州茅台（600519）现在怎么看？");
    await expect(page.getByTestId("chat-empty")).toBeVisible();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/chat-context.png`, fullPage: true });

    const sent = page.waitForRequest((r) => r.url().endsWith("/api/v1/agent/chat/stream") && r.method() === "POST");
    const answer = await ask(page, "/quote 600519");
    expect(((await sent).postDataJSON() as { context: unknown }).context).toEqual({
      stock_code: "600519",
      stock_name: "贵州茅台",
      record_id: recordId,
    });
    await finished(answer);
    const stored = await sessionDetail(request, currentSessionId(page));
    expect(stored.context).toMatchObject({ stock_code: "600519", record_id: recordId });
    // Reopened later, the conversation still shows what it is about.
    await page.reload();
    await expect(page.getByTestId("chat-context")).toContainText("600519");

    // The chip can be removed; the next turn goes without a context.
    await page.getByRole("button", { name: "移除股票上下文" }).click();
    await expect(page.getByTestId("chat-context")).toHaveCount(0);
    const next = page.waitForRequest((r) => r.url().endsWith("/api/v1/agent/chat/stream") && r.method() === "POST");
    await finished(await ask(page, "/help"));
    expect(((await next).postDataJSON() as { context?: unknown }).context).toBeUndefined();
  });

  test("in English the request asks for English answers and the page reads in English", async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: "dsa_lang", value: "en", url: baseURL! }]);
    await page.goto("/chat");
    await expect(pageTitle(page)).toHaveText("Ask DSA");
    const box = page.getByRole("textbox", { name: "Question or command" });
    const sent = page.waitForRequest((r) => r.url().endsWith("/api/v1/agent/chat/stream") && r.method() === "POST");
    await box.fill("/help");
    await box.press("Enter");
    expect(((await sent).postDataJSON() as { language: string }).language).toBe("en");
    const answer = answers(page).first();
    await finished(answer);
    await expect(answer.getByTestId("chat-answer-text")).toContainText("/quote");
    await expect(page.getByRole("button", { name: "Export Markdown" })).toBeEnabled();
  });
});

test.describe("Ask DSA with a scripted model", () => {
  let model: ScriptedModel;
  let envBefore: string | null = null;
  /** The last `"price": <number>` of the tool results the model was sent (the get_realtime_quote output). */
  const toolPrice = (req: ScriptedRequest): string | null =>
    [...req.messagesText.matchAll(/"price"\s*:\s*(-?\d+(?:\.\d+)?)/g)].at(-1)?.[1] ?? null;

  test.beforeAll(async ({ request }) => {
    envBefore = readEnvText();
    model = await startScriptedModel();
    // The model listens on 127.0.0.1, which the outbound policy refuses by default.
    await applySettings(request, {
      OUTBOUND_ALLOW_PRIVATE: "true",
      OPENAI_API_KEY: "sk-test-scripted-model",
      OPENAI_BASE_URL: model.url,
      OPENAI_MODEL: "scripted-model",
    });
    await expect
      .poll(() => agentAvailable(request), {
        message: "the server reads the scripted model's channel",
        timeout: 10_000,
      })
      .toBe(true);
  });
  test.afterAll(async ({ request }) => {
    restoreEnvText(envBefore);
    await model.close();
    await expect.poll(() => agentAvailable(request), { timeout: 10_000 }).toBe(false);
  });
  test.beforeEach(() => {
    model.reset();
    clearChats();
  });

  test("a tool call then an answer quoting the tool's price: the step shows, the figure is verified, no warning", async ({
    page,
  }) => {
    let quoted: string | null = null;
    model.queue({ toolCalls: [{ name: "get_realtime_quote", args: { code: "600519" } }] });
    model.fallback = (req) => {
      quoted = toolPrice(req);
      return { text: quoted ? `贵州茅台现价 ${quoted} 元，走势平稳。` : "没有拿到价格。" };
    };

    await page.goto("/chat");
    await expect(page.getByTestId("chat-no-llm")).toHaveCount(0);
    const answer = await ask(page, "600519 现在多少钱？");
    // While it runs: a status line, then the tool step.
    await expect(answer.getByTestId("chat-tool-step").first()).toContainText("获取实时行情");
    await finished(answer);
    expect(quoted, "the model was sent the tool's result").not.toBeNull();
    const step = answer.getByTestId("chat-tool-step");
    await expect(step).toHaveCount(1);
    await expect(step).toHaveAttribute("data-state", "ok");
    await expect(step).toContainText("✓");
    await expect(answer.getByTestId("chat-answer-text")).toContainText(`贵州茅台现价 ${quoted} 元`);
    await expect(answer.getByTestId("chat-progress")).toHaveCount(0);
    await expect(answer.getByTestId("unverified-figure")).toHaveCount(0);
    await expect(answer.getByTestId("chat-check-warning")).toHaveCount(0);
    await expect(answer.getByTestId("chat-check-ok")).toBeVisible();
    const completions = model.requests.filter((r) => r.path.endsWith("/chat/completions"));
    expect(completions.length).toBeGreaterThanOrEqual(2);
  });

  test("an invented target price is marked in the answer with a warning, after one regeneration", async ({ page }) => {
    model.queue({ toolCalls: [{ name: "get_realtime_quote", args: { code: "600519" } }] });
    // The same invented figure both times (the first answer and the regenerated one).
    model.fallback = (req) => ({ text: `现价 ${toolPrice(req) ?? "—"} 元，目标价 9999.99 元。` });

    await page.goto("/chat");
    const answer = await ask(page, "600519 的目标价是多少？");
    await finished(answer);
    const mark = answer.getByTestId("unverified-figure");
    await expect(mark).toHaveCount(1);
    await expect(mark).toHaveText("9999.99");
    await expect(mark).toHaveAttribute("title", "未在工具数据中找到");
    const warning = answer.getByTestId("chat-check-warning");
    await expect(warning).toBeVisible();
    await expect(warning).toContainText("9999.99");
    await expect(warning).toHaveAttribute("data-level", "key");
    await expect(warning).toContainText("请勿据此操作");
    await expect(warning).toContainText("重新生成过一次");
    await screenshot(page, { path: `${SCREENSHOT_DIR}/chat-unverified.png`, fullPage: true });

    // The same conversation at phone width: no sideways scroll, the sessions behind a toggle, and in dark mode.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalOverflow(page);
    const toggle = page.getByTestId("chat-sessions").getByRole("button", { name: /^会话列表/ });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(sessionItems(page).first()).toBeHidden();
    await toggle.click();
    await expect(sessionItems(page).first()).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/chat-phone.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: "dark" });
    await expectDarkBackground(page);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/chat-phone-dark.png`, fullPage: true });
  });

  test("a slow answer is cancelled mid-way: the partial text stays, labelled cancelled, and the model call stops", async ({
    page,
  }) => {
    const sentence = "市场仍在区间内整理，量能温和，耐心等待方向选择。";
    const full = Array.from({ length: 30 }, () => sentence).join("");
    model.queue({ text: full, chunkDelayMs: 400 });

    await page.goto("/chat");
    const answer = await ask(page, "详细讲讲最近的走势");
    await expect(answer.getByTestId("chat-progress")).toBeVisible();
    await expect(answer.getByTestId("chat-answer-text")).toContainText("市场仍在");
    await page.getByRole("button", { name: "取消回答" }).click();
    await finished(answer, "cancelled");
    await expect(answer.getByTestId("chat-cancelled")).toHaveText("已取消");
    const partial = await answer.getByTestId("chat-answer-text").innerText();
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(full.length);
    await expect.poll(() => model.inFlight, { message: "the model call was stopped", timeout: 10_000 }).toBe(0);
    await expect(page.getByRole("button", { name: "取消回答" })).toHaveCount(0);
    await screenshot(page, { path: `${SCREENSHOT_DIR}/chat-cancelled.png`, fullPage: true });

    // Kept as cancelled with its partial text.
    await page.reload();
    await expect(answers(page).first()).toHaveAttribute("data-state", "cancelled");
    await expect(answers(page).first().getByTestId("chat-cancelled")).toBeVisible();
    await expect(answers(page).first().getByTestId("chat-answer-text")).toContainText("市场仍在");
  });

  test("an HTTP 500 from the model is shown as the answer's error", async ({ page }) => {
    model.fallback = () => ({ status: 500, errorMessage: "scripted upstream failure" });

    await page.goto("/chat");
    const answer = await ask(page, "今天大盘怎么样？");
    await finished(answer, "error");
    await expect(answer.getByRole("alert")).toContainText("回答出错");
    // The box is free again for the next question.
    await input(page).fill("/help");
    await expect(sendButton(page)).toBeEnabled();
    await screenshot(page, { path: `${SCREENSHOT_DIR}/chat-error.png`, fullPage: true });
  });
});
