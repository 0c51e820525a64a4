import { afterEach, describe, expect, it } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { ApiError } from "@/lib/errors/api-error";
import { assertShareSize, characterCount, shareImageFilename, shareImageMaxChars } from "./share-image";

afterEach(() => setEnvironmentForTests(process.env));

function env(values: Record<string, string>) {
  setEnvironmentForTests({ ENV_FILE: "/nonexistent/dsa-share-test.env", ...values });
}

describe("share image limits and names (spec 4.3 rules 5-6, spec 8)", () => {
  it("SHARE_IMAGE_MAX_CHARS, else the reference's MARKDOWN_TO_IMAGE_MAX_CHARS, else 15000", () => {
    env({});
    expect(shareImageMaxChars()).toBe(15000);
    env({ MARKDOWN_TO_IMAGE_MAX_CHARS: "900" });
    expect(shareImageMaxChars()).toBe(900);
    env({ MARKDOWN_TO_IMAGE_MAX_CHARS: "900", SHARE_IMAGE_MAX_CHARS: "1200" });
    expect(shareImageMaxChars()).toBe(1200);
  });

  it("a report of exactly the limit passes; one character more is 413 share_image_too_large", () => {
    expect(() => assertShareSize("a".repeat(100), 100)).not.toThrow();
    const error = (() => {
      try {
        assertShareSize("a".repeat(101), 100);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 413,
      code: "share_image_too_large",
      extra: { detail: { length: 101, max_chars: 100 } },
    });
  });

  it("characters are code points: CJK counts one each, an emoji one, not two", () => {
    expect(characterCount("贵州茅台")).toBe(4);
    expect(characterCount("📈a")).toBe(2);
    expect(() => assertShareSize("📈".repeat(100), 100)).not.toThrow();
  });

  it("the file name is <code>-report-<id>.png in safe ASCII", () => {
    expect(shareImageFilename("600519", 42)).toBe("600519-report-42.png");
    expect(shareImageFilename("sh000001", 7)).toBe("sh000001-report-7.png");
    expect(shareImageFilename("MARKET", 9)).toBe("MARKET-report-9.png");
    expect(shareImageFilename('../a"b;c\r\n茅台', 3)).toBe("a_b_c_-report-3.png");
    expect(shareImageFilename("茅台", 3)).toBe("record-report-3.png");
  });
});
