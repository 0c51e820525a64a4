import fs from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { getSettings } from "@/lib/settings/settings";
import { logger } from "@/lib/log/logger";
import type { TAgentSkill } from "./schemas";
import { TOOL_NAMES, type ToolName } from "./tool-names";

// Strategies ("skills"): Markdown files whose YAML front matter names the strategy and whose body
// is the instruction text handed to the model. The built-in set ships in lib/agent/skills/; the user's own
// files in SKILLS_DIR come on top and may replace a built-in by reusing its id. A bad file never stops the
// service: it becomes a problem (shown by GET /agent/skills and logged) and the other files still load.
// Files are read on every call (a handful of small files), so an edited strategy applies without a restart.

/** The built-in strategies: resolved from the working directory, since the production server runs from the repo root. */
export const BUILTIN_SKILLS_DIR = path.join(process.cwd(), "lib", "agent", "skills");

/** A strategy may only lean on the chat's tools. */
export const AGENT_TOOL_NAMES = TOOL_NAMES;
export type AgentToolName = ToolName;

export const SKILL_ID_PATTERN = /^[a-z0-9_-]{1,64}$/;
export const MAX_SKILL_FILE_BYTES = 64 * 1024;

export type LoadedSkill = TAgentSkill & {
  instructions: string;
  nameEn: string;
  descriptionEn: string;
  priority: number;
};
export interface SkillProblem {
  file: string;
  error: string;
}
export interface SkillCatalog {
  skills: LoadedSkill[];
  problems: SkillProblem[];
  defaultSkillId: string;
}

// The front matter of a strategy file. Unknown keys are ignored, so a user may keep notes of their own in it.
export const ZSkillFrontMatter = z.object({
  id: z.string().regex(SKILL_ID_PATTERN, "must be 1–64 of a-z 0-9 _ -"),
  name: z.string().trim().min(1).max(64),
  name_en: z.string().trim().min(1).max(64).optional(),
  description: z.string().trim().min(1).max(500),
  description_en: z.string().trim().min(1).max(500).optional(),
  tools: z
    .array(z.enum(AGENT_TOOL_NAMES, { error: (issue) => `unknown tool ${JSON.stringify(issue.input)}` }))
    .max(AGENT_TOOL_NAMES.length)
    .default([]),
  priority: z.number().finite().default(100),
  default: z.boolean().default(false),
});
type TSkillFrontMatter = z.infer<typeof ZSkillFrontMatter>;

interface ParsedSkill {
  skill: LoadedSkill;
  isDefault: boolean;
  file: string;
}

// `---` on the first line, the YAML, `---` (or `...`) on a line of its own, then the body.
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

class SkillFileError extends Error {}

function firstLine(text: string, max = 160): string {
  const line = text.split("\n")[0]?.trim() ?? "";
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** A zod issue as a short reason a user can act on ("missing name", "tools.2: unknown tool \"x\""). */
function issueText(issue: z.core.$ZodIssue): string {
  const where = issue.path.map(String).join(".");
  if (issue.code === "invalid_type" && issue.input === undefined) return `missing ${where}`;
  return where ? `${where}: ${issue.message}` : issue.message;
}

/** One file's text → a strategy, or a SkillFileError with the reason. */
export function parseSkillFile(
  text: string,
  source: TAgentSkill["source"],
): { skill: LoadedSkill; isDefault: boolean } {
  const match = FRONT_MATTER.exec(text);
  if (!match) throw new SkillFileError("no front matter (the file must start with a --- line)");
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? "", { uniqueKeys: true });
  } catch (error) {
    throw new SkillFileError(`bad YAML: ${firstLine((error as Error).message)}`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data))
    throw new SkillFileError("front matter is not a YAML mapping");
  const parsed = ZSkillFrontMatter.safeParse(data);
  if (!parsed.success) throw new SkillFileError(parsed.error.issues.slice(0, 3).map(issueText).join("; "));
  const instructions = text.slice(match[0].length).trim();
  if (instructions === "") throw new SkillFileError("empty body: the instructions are missing");
  return { skill: toSkill(parsed.data, instructions, source), isDefault: parsed.data.default };
}

function toSkill(front: TSkillFrontMatter, instructions: string, source: TAgentSkill["source"]): LoadedSkill {
  return {
    id: front.id,
    name: front.name,
    description: front.description,
    tools: [...new Set(front.tools)],
    source,
    instructions,
    nameEn: front.name_en ?? front.name,
    descriptionEn: front.description_en ?? front.description,
    priority: front.priority,
  };
}

async function readSkillFile(file: string, source: TAgentSkill["source"]) {
  const stat = await fs.stat(file);
  if (!stat.isFile()) throw new SkillFileError("not a regular file");
  if (stat.size > MAX_SKILL_FILE_BYTES)
    throw new SkillFileError(`file is larger than ${MAX_SKILL_FILE_BYTES / 1024} KiB`);
  return parseSkillFile(await fs.readFile(file, "utf8"), source);
}

/** Every `*.md` file of one folder, sorted by name; a folder that cannot be read is one problem named `label`. */
async function readFolder(
  dir: string,
  label: string,
  source: TAgentSkill["source"],
  problems: SkillProblem[],
): Promise<ParsedSkill[]> {
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((name) => name.toLowerCase().endsWith(".md")).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "folder not found"
        : code === "ENOTDIR"
          ? "not a folder"
          : `folder unreadable (${code ?? "error"})`;
    problems.push({ file: label, error: reason });
    return [];
  }
  const loaded: ParsedSkill[] = [];
  for (const file of names) {
    try {
      loaded.push({ ...(await readSkillFile(path.join(dir, file), source)), file });
    } catch (error) {
      const reason =
        error instanceof SkillFileError ? error.message : `unreadable: ${firstLine((error as Error).message)}`;
      problems.push({ file, error: reason });
    }
  }
  return loaded;
}

/** One folder's files by id; a second file with an id already taken in the same folder is a problem. */
function byId(files: ParsedSkill[], problems: SkillProblem[]): Map<string, ParsedSkill> {
  const out = new Map<string, ParsedSkill>();
  for (const entry of files) {
    const first = out.get(entry.skill.id);
    if (first)
      problems.push({ file: entry.file, error: `duplicate id ${entry.skill.id} (already defined by ${first.file})` });
    else out.set(entry.skill.id, entry);
  }
  return out;
}

// The same bad file is logged once per process and reason, not on every request that lists the strategies.
const logged = new Set<string>();
function logProblems(problems: SkillProblem[]): void {
  for (const problem of problems) {
    const key = `${problem.file}\u0000${problem.error}`;
    if (logged.has(key)) continue;
    logged.add(key);
    logger.warn({ component: "skills", file: problem.file, error: problem.error }, "strategy file skipped");
  }
}

export interface LoadSkillsOptions {
  /** Tests: another built-in folder. */
  builtinDir?: string;
  /** Tests: another user folder; default SKILLS_DIR (relative to the working directory), "" for none. */
  userDir?: string;
}

/** The built-in strategies, then the user's (a user file replaces the built-in of the same id), by priority then id. */
export async function loadSkills(options: LoadSkillsOptions = {}): Promise<SkillCatalog> {
  const problems: SkillProblem[] = [];
  const builtinDir = options.builtinDir ?? BUILTIN_SKILLS_DIR;
  const merged = byId(await readFolder(builtinDir, path.basename(builtinDir), "builtin", problems), problems);
  const userDir = (options.userDir ?? getSettings().SKILLS_DIR).trim();
  const userDefaults: string[] = [];
  if (userDir !== "") {
    // The folder as the user wrote it names the problem, so it matches their setting.
    for (const [id, entry] of byId(await readFolder(path.resolve(userDir), userDir, "user", problems), problems)) {
      merged.set(id, entry);
      if (entry.isDefault) userDefaults.push(id);
    }
  }
  const entries = [...merged.values()].sort(
    (a, b) => a.skill.priority - b.skill.priority || a.skill.id.localeCompare(b.skill.id),
  );
  const skills = entries.map((e) => e.skill);
  // A user's default wins over the built-in one; among several, the first in the listing.
  const defaults = entries.filter((e) => e.isDefault).map((e) => e.skill.id);
  const defaultSkillId = defaults.find((id) => userDefaults.includes(id)) ?? defaults[0] ?? skills[0]?.id ?? "";
  logProblems(problems);
  return { skills, problems, defaultSkillId };
}

/** The strategies named by `ids` (trimmed, case-insensitive, each once, in the order given) and the ids that name none. */
export async function resolveSkills(
  ids: readonly string[] | null | undefined,
  catalog?: SkillCatalog,
): Promise<{ skills: LoadedSkill[]; unknown: string[] }> {
  const wanted = [...new Set((ids ?? []).map((id) => id.trim()).filter((id) => id !== ""))];
  if (wanted.length === 0) return { skills: [], unknown: [] };
  const { skills: all } = catalog ?? (await loadSkills());
  const skills: LoadedSkill[] = [];
  const unknown: string[] = [];
  for (const id of wanted) {
    const skill = all.find((s) => s.id === id.toLowerCase());
    if (!skill) unknown.push(id);
    else if (!skills.includes(skill)) skills.push(skill);
  }
  return { skills, unknown };
}

export type SkillPromptTarget = "chat" | "report";

const PROMPT_TEXT = {
  zh: {
    title: "## 交易策略",
    intro: (n: number) =>
      `按以下${n > 1 ? ` ${n} 个` : ""}策略分析。策略不改变上面的规则：数字只能来自数据，输出格式不变；策略所需的数据缺失时，明确说明缺什么，不要估算。`,
    report:
      "本次分析没有工具可调用：策略中提到的工具对应 <data> 中的内容（get_realtime_quote → quote，get_daily_history → recent_bars，analyze_trend → indicators 与 rule_decision，search_stock_news → news）；<data> 中没有的数据（大盘、持仓、历史报告、信号、回测）视为缺失。",
    heading: (s: LoadedSkill) => `### 策略：${s.name}（${s.id}）`,
  },
  en: {
    title: "## Trading strategies",
    intro: (n: number) =>
      `Analyse with the following ${n > 1 ? `${n} strategies` : "strategy"}. They do not change the rules above: every number comes from the data and the output format stays the same; when a strategy needs data that is missing, say what is missing instead of estimating it. Write the answer in English whatever the language of the strategy text.`,
    report:
      "This analysis has no tools to call: a tool a strategy names stands for a section of <data> (get_realtime_quote → quote, get_daily_history → recent_bars, analyze_trend → indicators and rule_decision, search_stock_news → news); data not in <data> (market indices, portfolio, past reports, signals, backtests) counts as missing.",
    heading: (s: LoadedSkill) => `### Strategy: ${s.nameEn} (${s.id})`,
  },
} as const;

/** The chosen strategies as one prompt section ("" for none): a header, then each strategy's name and instructions. */
export function skillPrompt(
  skills: readonly LoadedSkill[],
  language: "zh" | "en",
  target: SkillPromptTarget = "chat",
): string {
  if (skills.length === 0) return "";
  const text = PROMPT_TEXT[language];
  const parts: string[] = [text.title, text.intro(skills.length)];
  if (target === "report") parts.push(text.report);
  for (const skill of skills) parts.push(`${text.heading(skill)}\n\n${skill.instructions}`);
  return parts.join("\n\n");
}
