import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSkills } from "@/lib/agent/skills";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { buildReportPrompt } from "./prompt";
import { sampleContext } from "@/tests/kits/llm-fixtures";

beforeAll(() => setEnvironmentForTests({ ENV_FILE: path.join(os.tmpdir(), "dsa-prompt-test-missing.env") }));
afterAll(() => setEnvironmentForTests(process.env));

describe("the analyze request's skills join the LLM prompt", () => {
  it("the chosen strategies' instructions sit in the system message, after the rules and before the schema", async () => {
    const { skills } = await resolveSkills(["volume_breakout"]);
    const prompt = buildReportPrompt(sampleContext({ language: "zh", skills }), { describeSchema: true });
    const breakout = skills[0]!;
    expect(prompt.system).toContain("## 交易策略");
    expect(prompt.system).toContain("### 策略：放量突破（volume_breakout）");
    expect(prompt.system).toContain(breakout.instructions);
    // The report call has no tools: the section says which data block stands for each tool.
    expect(prompt.system).toContain("get_daily_history → recent_bars");
    const rules = prompt.system.indexOf("只输出一个 JSON 对象");
    const strategies = prompt.system.indexOf("## 交易策略");
    const schema = prompt.system.indexOf("JSON Schema");
    expect(rules).toBeLessThan(strategies);
    expect(strategies).toBeLessThan(schema);
    // The data block is unchanged.
    expect(JSON.stringify(prompt.messages)).not.toContain("交易策略");
  });

  it("in English the header and the strategy's English name are used", async () => {
    const { skills } = await resolveSkills(["mean_reversion", "risk_first_review"]);
    const prompt = buildReportPrompt(sampleContext({ language: "en", skills }), { describeSchema: false });
    expect(prompt.system).toContain("## Trading strategies");
    expect(prompt.system).toContain("### Strategy: Range mean reversion (mean_reversion)");
    expect(prompt.system).toContain("### Strategy: Risk-first position review (risk_first_review)");
    expect(prompt.system).toContain("Write the answer in English whatever the language of the strategy text.");
  });

  it("without strategies the prompt has no strategy section", () => {
    for (const skills of [undefined, null, []]) {
      const prompt = buildReportPrompt(sampleContext({ language: "zh", skills }), { describeSchema: false });
      expect(prompt.system).not.toContain("交易策略");
    }
  });
});
