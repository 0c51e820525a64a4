// Marks the figures of an answer that no tool of the turn returned (done.checks.unverified) inside the rendered
// Markdown: a rehype plugin that splits text nodes around each occurrence and wraps it in <mark>. Code is left
// alone. A figure only matches as a whole number: "99.5" is not marked inside "199.5" or "99.55".

type TreeNode = {
  type: string;
  tagName?: string;
  value?: string;
  properties?: Record<string, unknown>;
  children?: TreeNode[];
};

export type Piece = { text: string; figure: boolean };

const DIGIT = /\d/;

function standsAlone(text: string, at: number, figure: string): boolean {
  const before = text[at - 1] ?? "";
  const after = text[at + figure.length] ?? "";
  if (DIGIT.test(figure[0] ?? "")) {
    if (DIGIT.test(before) || before === ".") return false;
    // "1,234.5": the figure "234.5" is part of a larger number.
    if (before === "," && DIGIT.test(text[at - 2] ?? "")) return false;
  }
  if (DIGIT.test(figure[figure.length - 1] ?? "")) {
    if (DIGIT.test(after)) return false;
    if ((after === "." || after === ",") && DIGIT.test(text[at + figure.length + 1] ?? "")) return false;
  }
  return true;
}

/** The text cut into plain pieces and figure pieces (longest figure first where two start at one place). */
export function splitFigures(text: string, figures: readonly string[]): Piece[] {
  const wanted = [...new Set(figures.map((f) => f.trim()).filter(Boolean))].sort((a, b) => b.length - a.length);
  if (wanted.length === 0) return [{ text, figure: false }];
  const pieces: Piece[] = [];
  let plainFrom = 0;
  let at = 0;
  while (at < text.length) {
    const hit = wanted.find((f) => text.startsWith(f, at) && standsAlone(text, at, f));
    if (!hit) {
      at++;
      continue;
    }
    if (at > plainFrom) pieces.push({ text: text.slice(plainFrom, at), figure: false });
    pieces.push({ text: hit, figure: true });
    at += hit.length;
    plainFrom = at;
  }
  if (plainFrom < text.length) pieces.push({ text: text.slice(plainFrom), figure: false });
  return pieces;
}

const SKIP = new Set(["code", "pre"]);

export function rehypeMarkFigures(options: { figures: readonly string[]; title: string }) {
  function walk(node: TreeNode): void {
    if (!node.children) return;
    const children: TreeNode[] = [];
    for (const child of node.children) {
      if (child.type === "element") {
        if (!SKIP.has(child.tagName ?? "")) walk(child);
        children.push(child);
        continue;
      }
      if (child.type !== "text" || !child.value) {
        children.push(child);
        continue;
      }
      for (const piece of splitFigures(child.value, options.figures)) {
        if (!piece.figure) children.push({ type: "text", value: piece.text });
        else
          children.push({
            type: "element",
            tagName: "mark",
            properties: { title: options.title, dataUnverified: "true" },
            children: [{ type: "text", value: piece.text }],
          });
      }
    }
    node.children = children;
  }
  return (tree: TreeNode) => walk(tree);
}
