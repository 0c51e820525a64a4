import { describe, expect, it } from "vitest";
import { applyEnvUpdates, formatEnvValue, locateAssignments, parseEnv } from "./env-file";

const TRICKY_VALUES = [
  "",
  "plain",
  "two words",
  "  leading and trailing  ",
  "#not-a-comment",
  "value # with hash",
  "a=b=c",
  "it's",
  'say "hi"',
  "`backticks`",
  'it\'s "both"',
  "unicode 中文 ✓ é",
  "line one\nline two",
  "windows\r\nline",
  "back\\slash",
  "ends with backslash\\",
  "\\n is literal here",
  "C:\\new\\table",
  "'already quoted'",
  '"double quoted"',
  "$HOME ${VAR}",
  "tab\there",
  "sk-abc123_XYZ-456.789",
  "https://example.com/hook?key=abc&x=1#frag",
  "={}[]:;,<>?/|~!@%^&*()",
];

describe("4.4 config store: env file text editing", () => {
  it.each(TRICKY_VALUES)("a written value reads back identically through dotenv: %j", (value) => {
    const formatted = formatEnvValue(value);
    expect(formatted).not.toBeNull();
    expect(parseEnv(`KEY=${formatted}\n`).KEY).toBe(value);
    // And in the middle of a file, with neighbours that contain quotes of their own.
    const text = `# it's a "file"\nBEFORE='x'\nKEY=old\nAFTER="y" # it's\n`;
    const out = applyEnvUpdates(text, { KEY: value });
    expect(parseEnv(out)).toEqual({ BEFORE: "x", KEY: value, AFTER: "y" });
  });

  it("every tricky value round-trips when written together as new keys", () => {
    const updates = Object.fromEntries(TRICKY_VALUES.map((v, i) => [`K${i}`, v]));
    const out = applyEnvUpdates("EXISTING=1\n", updates);
    expect(parseEnv(out)).toEqual({ EXISTING: "1", ...updates });
  });

  it("a value no quoting can hold is refused, not written wrongly", () => {
    expect(formatEnvValue("`'\"#")).toBeNull();
    expect(() => applyEnvUpdates("", { K: "`'\"#" })).toThrow(/cannot be written/);
  });

  it("keeps comments, blank lines, order, unknown keys and untouched lines byte for byte", () => {
    const text = [
      "# DSA settings",
      "",
      "  # indented comment",
      "UNKNOWN_THING=keep me   # trailing comment",
      "LOG_LEVEL=info",
      "",
      "export STOCK_LIST='600519, 000001'",
      'MULTI="first',
      'second"',
      "OTHER:  yaml style",
      "# end",
      "",
    ].join("\n");
    const out = applyEnvUpdates(text, { LOG_LEVEL: "debug", STOCK_LIST: "AAPL", MULTI: "one", NEW_KEY: "n" });
    expect(out).toBe(
      [
        "# DSA settings",
        "",
        "  # indented comment",
        "UNKNOWN_THING=keep me   # trailing comment",
        "LOG_LEVEL=debug",
        "",
        "export STOCK_LIST=AAPL",
        "MULTI=one",
        "OTHER:  yaml style",
        "# end",
        "NEW_KEY=n",
        "",
      ].join("\n"),
    );
  });

  it("keeps a trailing comment on a rewritten line", () => {
    expect(applyEnvUpdates("A=1 # the answer\n", { A: "2" })).toBe("A=2 # the answer\n");
    expect(applyEnvUpdates("A='x' # quoted\n", { A: "y z" })).toBe("A=y z # quoted\n");
  });

  it("keeps CRLF line endings and a missing final newline", () => {
    expect(applyEnvUpdates("# c\r\nA=1\r\nB=2", { A: "3", C: "4" })).toBe("# c\r\nA=3\r\nB=2\r\nC=4\r\n");
    expect(applyEnvUpdates("A=1", { A: "2" })).toBe("A=2");
  });

  it("updates every line of a key given twice, so whichever one a reader takes it sees the new value", () => {
    expect(applyEnvUpdates("A=1\nB=2\nA=3\n", { A: "9" })).toBe("A=9\nB=2\nA=9\n");
  });

  it("does not touch a key that only appears inside a comment or another value", () => {
    const text = "# A=commented\nB='A=inside'\n";
    expect(applyEnvUpdates(text, { A: "1" })).toBe(`${text}A=1\n`);
  });

  it("creates a file's text from nothing", () => {
    expect(applyEnvUpdates("", { A: "1", B: "two words" })).toBe("A=1\nB=two words\n");
  });

  it("no updates leaves the text unchanged", () => {
    const text = "odd line without equals\nA=1";
    expect(applyEnvUpdates(text, {})).toBe(text);
  });

  it("finds the same keys dotenv parses, with their line spans", () => {
    const text = 'A=1\n\n# c\nexport B="x\ny"\nC=\n';
    expect(locateAssignments(text).map((a) => [a.key, a.startLine, a.endLine])).toEqual([
      ["A", 0, 0],
      ["B", 3, 4],
      ["C", 5, 5],
    ]);
    expect(Object.keys(parseEnv(text))).toEqual(["A", "B", "C"]);
  });

  it("an empty value is written bare and does not swallow the next line", () => {
    expect(applyEnvUpdates("A=1\nB=2\n", { A: "" })).toBe("A=\nB=2\n");
    const out = applyEnvUpdates("A=1\n'quoted line'\n", { A: "" });
    expect(out).toBe("A=''\n'quoted line'\n");
    expect(parseEnv(out).A).toBe("");
  });

  it("refuses keys dotenv cannot read", () => {
    expect(() => applyEnvUpdates("", { "BAD KEY": "1" })).toThrow(/Invalid env key/);
  });
});

describe("4.4 config store: randomised round trips", () => {
  // A small seeded generator, so a failure can be replayed.
  function rng(seed: number) {
    let s = seed >>> 0;
    return () => {
      s = (s * 1664525 + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
  }
  const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const LINE_KINDS = [
    () => "# a comment with = and 'quotes'",
    () => "",
    () => "   ",
    () => "not an assignment",
    (k: string, v: string) => `${k}=${formatEnvValue(v) ?? ""}`,
    (k: string, v: string) => `export ${k}=${formatEnvValue(v) ?? ""}`,
    (k: string, v: string) => `${k}=${formatEnvValue(v) ?? ""} # trailing`,
    (k: string) => `  ${k} = spaced`,
  ] as const;
  const KEYS = ["A", "B", "C", "LOG_LEVEL", "STOCK_LIST", "X.Y", "Z-1"];

  it("300 generated files: updates read back exactly and appending keeps the original bytes", () => {
    const r = rng(20240607);
    for (let n = 0; n < 300; n++) {
      const lines: string[] = [];
      const count = Math.floor(r() * 8);
      for (let i = 0; i < count; i++) lines.push(pick(r, LINE_KINDS)(pick(r, KEYS), pick(r, TRICKY_VALUES)));
      const eol = r() < 0.2 ? "\r\n" : "\n";
      const text = lines.join(eol) + (r() < 0.7 ? eol : "");
      const updates: Record<string, string> = {};
      for (let i = 0; i < 3; i++) {
        const v = pick(r, TRICKY_VALUES);
        if (formatEnvValue(v) !== null) updates[pick(r, KEYS)] = v;
      }
      const out = applyEnvUpdates(text, updates);
      expect(parseEnv(out)).toEqual({ ...parseEnv(text), ...updates });
      const fresh = applyEnvUpdates(text, { BRAND_NEW: "v" });
      expect(fresh.startsWith(text)).toBe(true);
    }
  });
});
