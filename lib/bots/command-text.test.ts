import { describe, expect, it } from "vitest";
import { toChatMessage } from "./command-text";
import { isAllowed } from "./inbox";

describe("what people type to a bot", () => {
  it("maps zh and en words to the agent chat's commands", () => {
    expect(toChatMessage("分析 600519")).toEqual({ message: "/analyze 600519", command: "/analyze", language: "zh" });
    expect(toChatMessage("quote AAPL")).toEqual({ message: "/quote AAPL", command: "/quote", language: "en" });
    expect(toChatMessage("加自选 600519").message).toBe("/watch add 600519");
    expect(toChatMessage("自选 删 600519").message).toBe("/watch remove 600519");
    expect(toChatMessage("/watch add 00700").message).toBe("/watch add 00700");
    expect(toChatMessage("帮助")).toMatchObject({ message: "/help", language: "zh" });
    expect(toChatMessage("大盘 hk").message).toBe("/market hk");
  });

  it("drops mentions and Telegram's @BotName suffix", () => {
    expect(toChatMessage("@_user_1 行情 600519").message).toBe("/quote 600519");
    expect(toChatMessage("/quote@DsaBot 600519").message).toBe("/quote 600519");
  });

  it("reads a lone code or name as an analysis, and other text as a question", () => {
    expect(toChatMessage("600519").message).toBe("/analyze 600519");
    expect(toChatMessage("AAPL").message).toBe("/analyze AAPL");
    expect(toChatMessage("hi")).toEqual({ message: "hi", command: null, language: null });
    expect(toChatMessage("茅台最近怎么样？")).toEqual({ message: "茅台最近怎么样？", command: null, language: "zh" });
  });

  it("takes the platform's language hint when the text has no Chinese", () => {
    expect(toChatMessage("600519", "zh").language).toBe("zh");
    expect(toChatMessage("/help", "zh").language).toBe("zh");
  });
});

describe("the allowlist", () => {
  const message = { platform: "telegram" as const, chatId: "-100", userId: "42" };
  it("matches a chat, a user or a platform's *", () => {
    expect(isAllowed(message, ["telegram:-100"])).toBe(true);
    expect(isAllowed(message, ["telegram:42"])).toBe(true);
    expect(isAllowed(message, ["telegram:*"])).toBe(true);
    expect(isAllowed(message, ["feishu:-100", "telegram:43", "-100", "*"])).toBe(false);
    expect(isAllowed(message, [])).toBe(false);
  });
});
