import type { ShareCard } from "./card";

// The card the renderer threads draw at start-up (never shown), so that the first real share image
// finds the layout engine, the glyph code paths of both scripts and weights and every block kind already compiled.
// Its text is a sample of what cards hold, not data: no number here reaches a user.

const zh = "上升趋势完好，回落至均线附近分批建仓，跌破支撑止损";
const en = "Uptrend intact; add near the moving average, stop below support";

export const WARM_CARD: ShareCard = {
  lang: "zh",
  colors: "red_up",
  variant: "stock",
  title: "贵州茅台 Warm-up",
  subtitle: "600519",
  badge: "详细",
  meta: "2026-01-01 15:00 (Asia/Shanghai) · warm-up",
  marks: [
    { text: "示例数据 · 非真实行情", tone: "warn" },
    { text: "价格 csv · 2026-01-01 收盘", tone: "info" },
  ],
  notices: ["样例数据 sample"],
  light: "yellow",
  hero: [
    { label: "操作建议", value: "加仓", tone: "up" },
    { label: "评分", value: "64", note: "/ 100 · 乐观" },
    { label: "现价", value: "1660.50", note: "+0.00%", noteTone: "flat" },
    { label: "趋势预测", value: "看涨 Bullish" },
  ],
  sections: [
    {
      title: "核心结论",
      blocks: [
        { kind: "text", text: `${zh}。${en}.`, strong: true },
        { kind: "notice", text: zh },
      ],
    },
    {
      title: "行情",
      blocks: [
        {
          kind: "tiles",
          tiles: [
            { label: "涨跌幅", value: "+1.23%", tone: "up" },
            { label: "量比", value: "1.23" },
          ],
        },
      ],
    },
    {
      title: "策略点位",
      blocks: [
        {
          kind: "pairs",
          pairs: [
            { label: "止损", value: "1581.98（支撑下方）" },
            { label: "Stop", value: en },
          ],
        },
      ],
    },
    {
      title: "检查清单 Checklist",
      blocks: [
        {
          kind: "list",
          items: [
            { label: "均线", text: zh, status: "pass" },
            { label: null, text: en, status: "warn" },
            { label: "RSI", text: "85.3", status: "fail" },
          ],
          more: "另有 2 条",
        },
      ],
    },
    {
      title: "技术指标",
      blocks: [{ kind: "table", header: ["MA5", "MA10", "MACD"], rows: [["1664.98", "1643.92", "16.772 / 11.734"]] }],
    },
    {
      title: "涨跌家数",
      blocks: [{ kind: "breadth", advancers: 3, flat: 1, decliners: 2, caption: "上涨 3 · 平盘 1 · 下跌 2" }],
    },
    {
      title: "板块",
      blocks: [
        {
          kind: "columns",
          columns: [
            { title: "领涨板块", rows: [{ label: "白酒", value: "+2.1%", tone: "up" }] },
            { title: "Laggards", rows: [{ label: "Banks", value: "-1.0%", tone: "down" }] },
          ],
        },
      ],
    },
  ],
  footer: ["免责声明：仅供参考 Not investment advice"],
  brand: "DSA 智能股票分析",
};
