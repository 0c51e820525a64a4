import { describe, expect, it } from "vitest";
import { parseMarkdownBlocks, parseMarkdownDocument, plainInline } from "./markdown-blocks";

describe("share card: reading the Markdown report", () => {
  it("inline marks become plain text; links keep their text; escapes are undone", () => {
    expect(plainInline("**买入**：理由 *强势* `code`")).toBe("买入：理由 强势 code");
    expect(plainInline("[茅台批价回升 \\[快讯\\]](https://news.example.com/3)")).toBe("茅台批价回升 [快讯]");
    expect(plainInline("a \\| b")).toBe("a | b");
    expect(plainInline("<script>alert(1)</script>")).toBe("<script>alert(1)</script>"); // escaping is html.ts's job
  });

  it("tables keep escaped pipes inside cells; lists split labels and checklist marks", () => {
    const blocks = parseMarkdownBlocks(
      [
        "| 指标 | 数值 |",
        "| --- | --- |",
        "| MA5 | 1.00 \\| 2.00 |",
        "",
        "- **操作说明**：逢低吸纳",
        "- ✅ 均线多头",
        "- ⚠️ 乖离偏大",
        "- 普通一条",
      ].join("\n"),
    );
    expect(blocks[0]).toEqual({ kind: "table", header: ["指标", "数值"], rows: [["MA5", "1.00 | 2.00"]] });
    expect(blocks[1]).toEqual({
      kind: "list",
      items: [
        { label: "操作说明", text: "逢低吸纳", status: null },
        { label: null, text: "均线多头", status: "pass" },
        { label: null, text: "乖离偏大", status: "warn" },
        { label: null, text: "普通一条", status: null },
      ],
    });
  });

  it("a document splits into title, preamble, level-2 sections and the text after the last rule", () => {
    const doc = parseMarkdownDocument(
      [
        "# 标题",
        "",
        "> 生成时间：x",
        "",
        "> 样本",
        "",
        "## 一",
        "",
        "第一段",
        "第二行",
        "",
        "### 小节",
        "",
        "- a",
        "",
        "## 二",
        "",
        "text",
        "",
        "---",
        "",
        "*免责声明*",
        "",
      ].join("\n"),
    );
    expect(doc.title).toBe("标题");
    expect(doc.preamble).toEqual([
      { kind: "quote", text: "生成时间：x" },
      { kind: "quote", text: "样本" },
    ]);
    expect(doc.sections.map((s) => s.title)).toEqual(["一", "二"]);
    expect(doc.sections[0]!.blocks).toEqual([
      { kind: "paragraph", text: "第一段第二行" }, // CJK soft breaks join without a space
      { kind: "heading", level: 3, text: "小节" },
      { kind: "list", items: [{ label: null, text: "a", status: null }] },
    ]);
    expect(doc.footer).toEqual(["免责声明"]);
  });

  it("a rule in the middle of the text is not a footer", () => {
    const doc = parseMarkdownDocument("## A\n\none\n\n---\n\n## B\n\ntwo\n");
    expect(doc.footer).toEqual([]);
    expect(doc.sections.map((s) => s.title)).toEqual(["A", "B"]);
  });
});
