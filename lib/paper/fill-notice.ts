import type { PaperAccount } from "@/generated/prisma/client";
import { dictionaryOf } from "@/lib/i18n/dictionaries";
import { notifyInBackground } from "@/lib/notify";
import { publicBaseUrl } from "@/lib/notify/messages";
import { getSettings } from "@/lib/settings/settings";
import type { PaperFill } from "./engine";

// A run that filled orders tells the notification channels (Web Push on a phone above all): one message per run
// with each fill, in REPORT_LANGUAGE, linking the account's page. Sent in the background: a channel never slows
// or fails the run.

const MAX_LINES = 20;

// The side and reason words are the Paper page's own (lib/i18n); the message's frame is here.
const FRAME = {
  zh: {
    title: (name: string, n: number) => `模拟盘 ${name}：${n} 笔成交`,
    line: (f: PaperFill, side: string, why: string) =>
      `- ${f.session} ${side} ${f.code} ${f.quantity} 股 @ ${f.price.toFixed(2)}（${why}）`,
    more: (n: number) => `…另有 ${n} 笔`,
    open: "打开模拟盘",
  },
  en: {
    title: (name: string, n: number) => `Paper account ${name}: ${n} fill${n === 1 ? "" : "s"}`,
    line: (f: PaperFill, side: string, why: string) =>
      `- ${f.session} ${side} ${f.quantity} ${f.code} @ ${f.price.toFixed(2)} (${why})`,
    more: (n: number) => `…and ${n} more`,
    open: "Open the paper account",
  },
} as const;

export function notifyPaperFills(account: Pick<PaperAccount, "id" | "name">, fills: readonly PaperFill[]): void {
  if (fills.length === 0) return;
  const settings = getSettings();
  const lang = settings.REPORT_LANGUAGE === "en" ? "en" : "zh";
  const t = FRAME[lang];
  const words = dictionaryOf(lang).paperUi;
  const lines = fills.slice(0, MAX_LINES).map((f) => t.line(f, words.sides[f.side], words.reasons[f.reason]));
  if (fills.length > MAX_LINES) lines.push(t.more(fills.length - MAX_LINES));
  void notifyInBackground({
    kind: "report",
    title: t.title(account.name, fills.length),
    body: lines.join("\n"),
    link: { url: `${publicBaseUrl()}/paper?account=${account.id}`, label: t.open },
    related: { kind: "paper_account", id: account.id },
    subject: `paper:${account.id}`,
  });
}
