import dotenv from "dotenv";

// Text-level editing of an env file. Values are always read with dotenv (the same parser the settings
// accessor uses); this module only finds which lines hold which key, so an edit replaces those lines and
// leaves every other byte (comments, blank lines, order, unknown keys, line endings) as it was.

/** dotenv's own grammar (its LINE expression), with match indices, to locate each assignment. */
const ASSIGNMENT =
  /(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/dgm;

/** Keys dotenv can read back (it accepts word characters, dots and dashes). */
export const ENV_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export function parseEnv(text: string): Record<string, string> {
  return dotenv.parse(text);
}

interface Line {
  text: string;
  eol: string;
}

export interface Assignment {
  key: string;
  /** First and last line (0-based, inclusive) that the assignment occupies. */
  startLine: number;
  endLine: number;
  /** Text before the key on its line (indentation, "export "). */
  prefix: string;
  /** A trailing "# comment" on the assignment's last line, kept when the line is rewritten. */
  comment: string;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  const eolPattern = /\r\n|\r|\n/g;
  let start = 0;
  for (let m = eolPattern.exec(text); m; m = eolPattern.exec(text)) {
    lines.push({ text: text.slice(start, m.index), eol: m[0] });
    start = m.index + m[0].length;
  }
  if (start < text.length) lines.push({ text: text.slice(start), eol: "" });
  return lines;
}

/** Every assignment dotenv sees in the text, in file order (a key may appear more than once). */
export function locateAssignments(text: string): Assignment[] {
  const lines = splitLines(text);
  // dotenv normalises line endings before matching; every terminator becomes one "\n", so line numbers agree.
  const normalized = lines.map((l) => l.text + (l.eol ? "\n" : "")).join("");
  const lineStarts: number[] = [];
  let offset = 0;
  for (const l of lines) {
    lineStarts.push(offset);
    offset += l.text.length + (l.eol ? 1 : 0);
  }
  const lineOf = (pos: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  const found: Assignment[] = [];
  ASSIGNMENT.lastIndex = 0;
  for (let m = ASSIGNMENT.exec(normalized); m; m = ASSIGNMENT.exec(normalized)) {
    if (m[0].length === 0) {
      ASSIGNMENT.lastIndex++;
      continue;
    }
    const keySpan = m.indices?.[1];
    if (!keySpan) continue;
    const [keyStart, keyEnd] = keySpan;
    const separator = /^\s*=|^:\s/.exec(normalized.slice(keyEnd));
    const separatorEnd = keyEnd + (separator ? separator[0].length : 0);
    const valueEnd = m.indices?.[2]?.[1] ?? separatorEnd;
    const lastChar = Math.max(valueEnd, separatorEnd) - 1;
    const startLine = lineOf(keyStart);
    const endLine = lineOf(lastChar);
    const endLineStart = lineStarts[endLine] ?? 0;
    const rest = (lines[endLine]?.text ?? "").slice(Math.max(0, valueEnd - endLineStart));
    const comment = /^\s*(#.*)$/.exec(rest)?.[1] ?? "";
    const prefix = (lines[startLine]?.text ?? "").slice(0, keyStart - (lineStarts[startLine] ?? 0));
    found.push({ key: m[1] as string, startLine, endLine, prefix, comment });
  }
  return found;
}

function roundTrips(candidate: string, value: string): boolean {
  return parseEnv(`K=${candidate}\n`).K === value;
}

/**
 * The text to write after "KEY=" so that dotenv reads `value` back exactly, or null when no quoting can
 * (a value holding all three quote characters and a "#", for example). Tries bare, then '…', "…", `…`.
 */
export function formatEnvValue(value: string): string | null {
  if (value === "") return "";
  const candidates: string[] = [];
  if (/^[^\s'"`#][^#\r\n]*$/.test(value) && value.trimEnd() === value) candidates.push(value);
  // A quoted value ending in a backslash would read as an escaped closing quote; never offer one.
  const trailingBackslash = value.endsWith("\\");
  const single = !trailingBackslash && !value.includes("'") && !value.includes("\r") ? `'${value}'` : null;
  const double =
    !trailingBackslash && !value.includes('"') && !/\\[nr]/.test(value)
      ? `"${value.replace(/\n/g, "\\n").replace(/\r/g, "\\r")}"`
      : null;
  // A line break is written as \n inside double quotes where possible, so each key stays on one line.
  const quoted = /[\r\n]/.test(value) ? [double, single] : [single, double];
  for (const c of quoted) if (c !== null) candidates.push(c);
  if (!trailingBackslash && !value.includes("`") && !value.includes("\r")) candidates.push(`\`${value}\``);
  return candidates.find((c) => roundTrips(c, value)) ?? null;
}

export class UnrepresentableValueError extends Error {
  constructor(readonly key: string) {
    super(`The value of ${key} cannot be written to an env file so that it reads back unchanged`);
    this.name = "UnrepresentableValueError";
  }
}

/**
 * Applies key → value updates to env-file text: every line of an existing key is replaced in place
 * (keeping its indentation, "export " and trailing comment), new keys are appended at the end, and
 * every other byte is kept. The result is checked by parsing it back.
 */
export function applyEnvUpdates(text: string, updates: Record<string, string>): string {
  const keys = Object.keys(updates);
  if (keys.length === 0) return text;
  const formatted = new Map<string, string>();
  for (const key of keys) {
    if (!ENV_KEY_PATTERN.test(key)) throw new Error(`Invalid env key: ${JSON.stringify(key)}`);
    const value = formatEnvValue(updates[key] as string);
    if (value === null) throw new UnrepresentableValueError(key);
    formatted.set(key, value);
  }

  const expected = { ...parseEnv(text), ...updates };
  let out = render(text, formatted);
  if (!readsBackAs(out, expected)) {
    // A bare empty value followed by a line that starts with a quote would swallow that line; quote it.
    for (const key of keys) if (updates[key] === "") formatted.set(key, "''");
    out = render(text, formatted);
  }
  if (!readsBackAs(out, expected)) throw new Error("Env file edit does not read back identically");
  return out;
}

function readsBackAs(text: string, expected: Record<string, string>): boolean {
  const actual = parseEnv(text);
  return Object.keys({ ...expected, ...actual }).every((k) => expected[k] === actual[k]);
}

function render(text: string, formatted: Map<string, string>): string {
  const lines = splitLines(text);
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const replaced = new Map<number, { endLine: number; text: string }>();
  const present = new Set<string>();
  for (const a of locateAssignments(text)) {
    const value = formatted.get(a.key);
    if (value === undefined) continue;
    present.add(a.key);
    const comment = a.comment ? ` ${a.comment}` : "";
    replaced.set(a.startLine, { endLine: a.endLine, text: `${a.prefix}${a.key}=${value}${comment}` });
  }

  let out = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    const edit = replaced.get(i);
    if (!edit) {
      out += line.text + line.eol;
      continue;
    }
    out += edit.text + (lines[edit.endLine]?.eol ?? "");
    i = edit.endLine;
  }
  const appended = [...formatted.keys()].filter((k) => !present.has(k));
  if (appended.length > 0) {
    if (out.length > 0 && !out.endsWith("\n") && !out.endsWith("\r")) out += eol;
    for (const key of appended) out += `${key}=${formatted.get(key)}${eol}`;
  }
  return out;
}
