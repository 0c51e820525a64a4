import { describe, expect, it } from "vitest";
import { makeLoggers, writeAccessLine } from "./logger";

// The access log line skips pino's redaction (our own fields, nothing secret in them), so it must still be
// the line the redacting logger writes, at the same level; everything else is still censored.
function memoryLoggers(level = "info") {
  const lines: string[] = [];
  const loggers = makeLoggers({ write: (line: string) => void lines.push(line) }, level);
  return { ...loggers, lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const withoutTime = ({ time, ...rest }: Record<string, unknown>) => {
  expect(typeof time).toBe("string");
  return rest;
};

describe("process loggers", () => {
  it("the access line is the line the redacting logger writes for the same fields, key for key in the same order", () => {
    const { logger, access, lines } = memoryLoggers();
    const line = { method: "GET", path: "/api/v1/history", status: 200, ms: 3 };
    writeAccessLine(access, "trace-0123456789", line);
    writeAccessLine(logger, "trace-0123456789", line);
    const [fromAccess, fromLogger] = lines().map(withoutTime);
    expect(fromAccess).toEqual({ level: 30, service: "dsa", trace_id: "trace-0123456789", ...line, msg: "request" });
    expect(Object.keys(fromAccess!)).toEqual(Object.keys(fromLogger!));
    expect(fromAccess).toEqual(fromLogger);
  });

  it("the process logger still censors secrets wherever they appear", () => {
    const { logger, lines } = memoryLoggers();
    logger.warn(
      {
        req: { authorization: "Bearer dsa_secret", cookie: "dsa_session=x" },
        llm: { apiKey: "sk-1", api_key: "sk-2" },
        login: { password: "pw" },
      },
      "refused",
    );
    const [entry] = lines();
    expect(entry).toMatchObject({
      req: { authorization: "[redacted]", cookie: "[redacted]" },
      llm: { apiKey: "[redacted]", api_key: "[redacted]" },
      login: { password: "[redacted]" },
    });
    expect(JSON.stringify(entry)).not.toMatch(/dsa_secret|sk-1|sk-2|"pw"/);
  });

  it("both loggers follow the configured level: at warn no access line is written", () => {
    const { logger, access, lines } = memoryLoggers("warn");
    expect(access.isLevelEnabled("info")).toBe(false);
    expect(logger.isLevelEnabled("info")).toBe(false);
    writeAccessLine(access, "trace-0123456789", { method: "GET", path: "/", status: 200, ms: 1 });
    expect(lines()).toEqual([]);
  });
});
