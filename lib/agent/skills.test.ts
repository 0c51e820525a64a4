import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { logger } from "@/lib/log/logger";
import {
  AGENT_TOOL_NAMES,
  BUILTIN_SKILLS_DIR,
  loadSkills,
  MAX_SKILL_FILE_BYTES,
  parseSkillFile,
  resolveSkills,
  skillPrompt,
} from "./skills";

const BUILTIN_IDS = ["trend_following", "volume_breakout", "pullback_support", "mean_reversion", "risk_first_review"];

let tmp: string;
let userDir: string;
const missingEnv = () => path.join(tmp, "missing.env");

function skillFile(
  front: Record<string, string>,
  body = "Check the trend with analyze_trend; every level comes from a tool result.",
): string {
  const lines = Object.entries(front).map(([k, v]) => `${k}: ${v}`);
  return `---\n${lines.join("\n")}\n---\n${body}\n`;
}

const GOOD = {
  id: "my_swing",
  name: "我的波段",
  description: "A user's swing strategy",
  tools: "[get_realtime_quote, analyze_trend]",
  priority: "5",
};

function writeUser(name: string, text: string): void {
  fs.writeFileSync(path.join(userDir, name), text);
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-skills-"));
});
afterAll(() => {
  setEnvironmentForTests(process.env);
  fs.rmSync(tmp, { recursive: true, force: true });
});
afterEach(() => {
  setEnvironmentForTests(process.env);
  vi.restoreAllMocks();
});

function freshUserDir(): string {
  userDir = fs.mkdtempSync(path.join(tmp, "user-"));
  return userDir;
}

describe("the built-in strategies", () => {
  it("load with no problems: the five ids, each with a name, description, known tools and instructions, and one default", async () => {
    setEnvironmentForTests({ ENV_FILE: missingEnv() });
    const catalog = await loadSkills();
    expect(catalog.problems).toEqual([]);
    expect(catalog.skills.map((s) => s.id).sort()).toEqual([...BUILTIN_IDS].sort());
    expect(catalog.defaultSkillId).toBe("trend_following");
    for (const skill of catalog.skills) {
      expect(skill.source).toBe("builtin");
      expect(skill.name).not.toBe("");
      expect(skill.nameEn).not.toBe(skill.name);
      expect(skill.descriptionEn).not.toBe(skill.description);
      expect(skill.tools.length).toBeGreaterThan(0);
      for (const tool of skill.tools) expect(AGENT_TOOL_NAMES).toContain(tool);
      // Every built-in strategy states the no-invented-numbers rule in its own text.
      expect(skill.instructions).toContain("绝不估算或编造");
    }
    // Sorted by priority: the default first, the position review last.
    expect(catalog.skills[0]!.id).toBe("trend_following");
    expect(catalog.skills.at(-1)!.id).toBe("risk_first_review");
  });

  it("read from the folder named by BUILTIN_SKILLS_DIR (the working directory's lib/agent/skills)", () => {
    expect(BUILTIN_SKILLS_DIR).toBe(path.join(process.cwd(), "lib", "agent", "skills"));
    const files = fs.readdirSync(BUILTIN_SKILLS_DIR).filter((f) => f.endsWith(".md"));
    expect(files.sort()).toEqual(BUILTIN_IDS.map((id) => `${id}.md`).sort());
  });
});

describe("the user's strategies in SKILLS_DIR", () => {
  it("a good file is listed as a user strategy, a file with a built-in's id replaces it, each malformed file is a problem and the rest still load", async () => {
    freshUserDir();
    writeUser("a-good.md", skillFile(GOOD));
    writeUser(
      "b-replace.md",
      skillFile(
        { id: "volume_breakout", name: "我的放量突破", description: "Mine", tools: "[get_daily_history]" },
        "My own breakout rules.",
      ),
    );
    writeUser("c-duplicate.md", skillFile({ ...GOOD, name: "Second of the id" }));
    writeUser("no-front.md", "# Just Markdown\n\nNo front matter here.\n");
    writeUser("bad-yaml.md", "---\nid: broken\nname: [unclosed\ndescription: x\n---\nbody\n");
    writeUser("no-name.md", skillFile({ id: "no_name", description: "x" }));
    writeUser("no-description.md", skillFile({ id: "no_description", name: "x" }));
    writeUser("no-id.md", skillFile({ name: "x", description: "x" }));
    writeUser("bad-id.md", skillFile({ id: "Bad Id!", name: "x", description: "x" }));
    writeUser(
      "bad-tool.md",
      skillFile({ id: "bad_tool", name: "x", description: "x", tools: "[get_realtime_quote, buy_now]" }),
    );
    writeUser("empty-body.md", skillFile({ id: "empty_body", name: "x", description: "x" }, "   \n"));
    writeUser(
      "too-big.md",
      skillFile({ id: "too_big", name: "x", description: "x" }, "x".repeat(MAX_SKILL_FILE_BYTES)),
    );
    writeUser("not-markdown.txt", skillFile({ id: "txt_file", name: "x", description: "x" }));
    setEnvironmentForTests({ ENV_FILE: missingEnv(), SKILLS_DIR: userDir });
    const warn = vi.spyOn(logger, "warn");

    const catalog = await loadSkills();
    const problems = Object.fromEntries(catalog.problems.map((p) => [p.file, p.error]));
    expect(Object.keys(problems).sort()).toEqual(
      [
        "bad-id.md",
        "bad-tool.md",
        "bad-yaml.md",
        "c-duplicate.md",
        "empty-body.md",
        "no-description.md",
        "no-front.md",
        "no-id.md",
        "no-name.md",
        "too-big.md",
      ].sort(),
    );
    expect(problems["no-front.md"]).toMatch(/no front matter/);
    expect(problems["bad-yaml.md"]).toMatch(/^bad YAML/);
    expect(problems["no-name.md"]).toBe("missing name");
    expect(problems["no-description.md"]).toBe("missing description");
    expect(problems["no-id.md"]).toBe("missing id");
    expect(problems["bad-id.md"]).toMatch(/^id: /);
    expect(problems["bad-tool.md"]).toBe('tools.1: unknown tool "buy_now"');
    expect(problems["empty-body.md"]).toMatch(/empty body/);
    expect(problems["too-big.md"]).toMatch(/larger than 64 KiB/);
    expect(problems["c-duplicate.md"]).toBe("duplicate id my_swing (already defined by a-good.md)");
    // Each problem is one warn line (once per process: a second listing logs nothing new).
    expect(warn).toHaveBeenCalledTimes(catalog.problems.length);
    expect(warn).toHaveBeenCalledWith(
      { component: "skills", file: "bad-tool.md", error: 'tools.1: unknown tool "buy_now"' },
      "strategy file skipped",
    );
    await loadSkills();
    expect(warn).toHaveBeenCalledTimes(catalog.problems.length);

    const ids = catalog.skills.map((s) => s.id);
    // The replacing file names no priority (default 100), so it sorts after the built-ins.
    expect(ids).toEqual([
      "my_swing",
      "trend_following",
      "pullback_support",
      "mean_reversion",
      "risk_first_review",
      "volume_breakout",
    ]);
    const mine = catalog.skills.find((s) => s.id === "my_swing")!;
    expect(mine).toMatchObject({
      source: "user",
      name: "我的波段",
      nameEn: "我的波段",
      priority: 5,
      tools: ["get_realtime_quote", "analyze_trend"],
    });
    const replaced = catalog.skills.find((s) => s.id === "volume_breakout")!;
    expect(replaced).toMatchObject({
      source: "user",
      name: "我的放量突破",
      instructions: "My own breakout rules.",
      priority: 100,
    });
    expect(catalog.defaultSkillId).toBe("trend_following");
  });

  it("a user file marked default becomes the default; a relative SKILLS_DIR is read from the working directory", async () => {
    freshUserDir();
    writeUser("mine.md", skillFile({ ...GOOD, default: "true", priority: "200" }));
    setEnvironmentForTests({ ENV_FILE: missingEnv(), SKILLS_DIR: path.relative(process.cwd(), userDir) });
    const catalog = await loadSkills();
    expect(catalog.problems).toEqual([]);
    expect(catalog.defaultSkillId).toBe("my_swing");
    expect(catalog.skills.at(-1)!.id).toBe("my_swing");
  });

  it("a SKILLS_DIR that does not exist is one problem; the built-ins still load", async () => {
    setEnvironmentForTests({ ENV_FILE: missingEnv(), SKILLS_DIR: path.join(tmp, "nowhere") });
    const catalog = await loadSkills();
    expect(catalog.problems).toEqual([{ file: path.join(tmp, "nowhere"), error: "folder not found" }]);
    expect(catalog.skills).toHaveLength(5);
  });

  it("with no built-in folder and no user files there is no default (empty id) and no exception", async () => {
    const catalog = await loadSkills({ builtinDir: path.join(tmp, "none"), userDir: "" });
    expect(catalog).toEqual({
      skills: [],
      problems: [{ file: "none", error: "folder not found" }],
      defaultSkillId: "",
    });
  });
});

describe("parseSkillFile", () => {
  it("accepts CRLF line ends and a byte-order mark, and keeps the body as the instructions", () => {
    const text = "\uFEFF---\r\nid: crlf\r\nname: CRLF\r\ndescription: d\r\n---\r\nLine one.\r\nLine two.\r\n";
    const { skill, isDefault } = parseSkillFile(text, "user");
    expect(skill).toMatchObject({ id: "crlf", tools: [], priority: 100 });
    expect(skill.instructions).toBe("Line one.\r\nLine two.");
    expect(isDefault).toBe(false);
  });

  it("refuses front matter that is not a mapping and duplicate keys", () => {
    expect(() => parseSkillFile("---\n- a\n- b\n---\nbody", "user")).toThrow(/not a YAML mapping/);
    expect(() => parseSkillFile("---\nid: a\nid: b\nname: n\ndescription: d\n---\nbody", "user")).toThrow(/bad YAML/);
  });
});

describe("resolveSkills", () => {
  it("returns the named strategies in the order given, each once, and the ids that name none", async () => {
    setEnvironmentForTests({ ENV_FILE: missingEnv() });
    const { skills, unknown } = await resolveSkills([
      " Volume_Breakout ",
      "nope",
      "trend_following",
      "volume_breakout",
      "",
    ]);
    expect(skills.map((s) => s.id)).toEqual(["volume_breakout", "trend_following"]);
    expect(unknown).toEqual(["nope"]);
  });

  it("null, undefined and [] choose nothing", async () => {
    for (const ids of [null, undefined, []]) expect(await resolveSkills(ids)).toEqual({ skills: [], unknown: [] });
  });
});

describe("skillPrompt", () => {
  it("renders one section with each strategy's name and instructions, in the chosen language", async () => {
    setEnvironmentForTests({ ENV_FILE: missingEnv() });
    const { skills } = await resolveSkills(["volume_breakout", "risk_first_review"]);
    const zh = skillPrompt(skills, "zh");
    expect(zh).toMatch(/^## 交易策略/);
    expect(zh).toContain("### 策略：放量突破（volume_breakout）");
    expect(zh).toContain("### 策略：风险优先持仓检查（risk_first_review）");
    expect(zh).toContain(skills[0]!.instructions);
    expect(zh).toContain(skills[1]!.instructions);
    expect(zh).not.toContain("<data>");

    const en = skillPrompt(skills, "en", "report");
    expect(en).toMatch(/^## Trading strategies/);
    expect(en).toContain("### Strategy: Volume breakout (volume_breakout)");
    expect(en).toContain("Write the answer in English");
    expect(en).toContain("get_daily_history → recent_bars");
  });

  it("is empty for no strategies", () => {
    expect(skillPrompt([], "zh")).toBe("");
  });
});
