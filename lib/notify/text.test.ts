import { describe, expect, it } from "vitest";
import { cutTo, fitMessage, markdownToHtml, markdownToPlain, markdownToSlack, utf16Units, utf8Bytes } from "./text";

describe("cutting messages to a channel's limit", () => {
  it("cuts by UTF-8 bytes on code-point boundaries (CJK is 3 bytes, never split)", () => {
    const text = "贵州茅台".repeat(10); // 40 characters, 120 bytes
    const cut = cutTo(text, 20, utf8Bytes);
    expect(cut).toBe("贵州茅台贵州");
    expect(utf8Bytes(cut)).toBe(18);
    expect(cut.includes("\uFFFD")).toBe(false);
  });

  it("never splits a surrogate pair (emoji) when counting UTF-16 units", () => {
    const cut = cutTo("a😀😀😀", 4, utf16Units);
    expect(cut).toBe("a😀");
  });

  it("prefers a line end when it loses little", () => {
    expect(cutTo("line one is here\nline two", 20, utf16Units)).toBe("line one is here");
    expect(cutTo("short\nthe second line is longer", 20, utf16Units)).toBe("short\nthe second lin");
  });

  it("keeps head and tail (the report link) and marks the cut", () => {
    const tail = "\n\n[report](http://x/history/1)";
    const fitted = fitMessage({ head: "### T\n\n", body: "好".repeat(5000), tail }, 4096, utf8Bytes);
    expect(utf8Bytes(fitted)).toBeLessThanOrEqual(4096);
    expect(fitted.startsWith("### T\n\n好")).toBe(true);
    expect(fitted.endsWith(`…${tail}`)).toBe(true);
    expect(fitMessage({ head: "h ", body: "b", tail: " t" }, 100, utf16Units)).toBe("h b t");
  });
});

describe("Markdown conversions", () => {
  it("plain text for Telegram and email", () => {
    expect(markdownToPlain("### Title\n- **Action**: buy `x`\n[Open](http://h/a)")).toBe(
      "Title\n- Action: buy x\nOpen: http://h/a",
    );
  });

  it("Slack mrkdwn escapes &, <, > and keeps links as <url|label>", () => {
    expect(markdownToSlack("**A&B** <tag>\n[Open report](http://h/history/1?a=1&b=2)")).toBe(
      "*A&amp;B* &lt;tag&gt;\n<http://h/history/1?a=1&b=2|Open report>",
    );
  });

  it("HTML for email escapes text and renders lists and links", () => {
    expect(markdownToHtml("- **x** <script>\n[go](http://h/1)")).toBe(
      '<ul>\n<li><strong>x</strong> &lt;script&gt;</li>\n</ul>\n<p><a href="http://h/1">go</a></p>',
    );
  });
});
