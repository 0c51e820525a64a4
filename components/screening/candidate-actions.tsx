"use client";

import { useState } from "react";
import { fmt } from "@/components/settings/format";
import { messageOf, requestJson } from "@/components/ui/request";
import { SMALL_BUTTON, type ScreeningTexts } from "./format";

// What a trader does with a candidate: analyse it (queued as a task; the report lands in History) or put it on the
// watchlist. Both go through the same APIs as the rest of the UI.

function queueAnalyses(codes: string[], language: "zh" | "en") {
  return requestJson("POST", "/api/v1/analysis/analyze", {
    stock_codes: codes,
    async_mode: true,
    report_type: "simple",
    report_language: language,
  });
}

function useNotice() {
  const [notice, setNotice] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const view = notice ? (
    <span
      role="status"
      data-testid="candidate-notice"
      className={notice.tone === "ok" ? "text-xs text-muted" : "text-xs text-red-700 dark:text-red-300"}
    >
      {notice.text}
    </span>
  ) : null;
  return { setNotice, view };
}

export function CandidateActions({ t, code, language }: { t: ScreeningTexts; code: string; language: "zh" | "en" }) {
  const [busy, setBusy] = useState(false);
  const [watched, setWatched] = useState(false);
  const { setNotice, view } = useNotice();

  async function act(run: () => Promise<unknown>, done: string | null, after?: () => void) {
    setBusy(true);
    setNotice(null);
    try {
      await run();
      after?.();
      if (done) setNotice({ tone: "ok", text: done });
    } catch (failure) {
      setNotice({ tone: "error", text: fmt(t.requestFailed, { message: messageOf(failure) }) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <button
        type="button"
        className={SMALL_BUTTON}
        disabled={busy}
        onClick={() => act(() => queueAnalyses([code], language), t.queued)}
      >
        {t.analyse}
      </button>
      <button
        type="button"
        className={SMALL_BUTTON}
        disabled={busy || watched}
        onClick={() =>
          act(
            () => requestJson("POST", "/api/v1/stocks/watchlist/add", { stock_code: code }),
            null,
            () => setWatched(true),
          )
        }
      >
        {watched ? t.watched : t.watch}
      </button>
      {view}
    </span>
  );
}

export function AnalyseAll({ t, codes, language }: { t: ScreeningTexts; codes: string[]; language: "zh" | "en" }) {
  const [busy, setBusy] = useState(false);
  const { setNotice, view } = useNotice();
  async function run() {
    setBusy(true);
    setNotice(null);
    try {
      await queueAnalyses(codes, language);
      setNotice({ tone: "ok", text: fmt(t.queuedAll, { count: codes.length }) });
    } catch (failure) {
      setNotice({ tone: "error", text: fmt(t.requestFailed, { message: messageOf(failure) }) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button type="button" className={SMALL_BUTTON} disabled={busy} onClick={run}>
        {fmt(t.analyseAll, { count: codes.length })}
      </button>
      {view}
    </span>
  );
}
