"use client";

import { useState } from "react";
import { SegmentedButton, SegmentedGroup } from "@/components/ui/segmented";
import { Panel } from "@/components/ui/panel";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { CopyButton } from "./copy-button";
import { MONO_WITH_CJK } from "./format";
import { MarkdownText } from "./markdown-text";

type Texts = Dictionary["historyUi"];

// The record's Markdown report (GET /api/v1/history/{id}/markdown), rendered or as source, with a copy button.
export function MarkdownPanel({
  t,
  content,
  initialView = "source",
}: {
  t: Texts;
  content: string | null;
  initialView?: "preview" | "source";
}) {
  const [view, setView] = useState(initialView);
  return (
    <Panel>
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-3 py-1.5">
        <h2 className="text-sm font-semibold">{t.markdownTitle}</h2>
        {content !== null ? (
          <div className="flex items-center gap-2">
            <SegmentedGroup label={t.markdownViews}>
              <SegmentedButton selected={view === "preview"} onClick={() => setView("preview")}>
                {t.markdownPreview}
              </SegmentedButton>
              <SegmentedButton selected={view === "source"} onClick={() => setView("source")}>
                {t.markdownSource}
              </SegmentedButton>
            </SegmentedGroup>
            <CopyButton text={content} label={t.copy} copiedLabel={t.copied} failedLabel={t.copyFailed} />
          </div>
        ) : null}
      </div>
      {content === null ? (
        <p className="px-3 py-3 text-sm text-muted">{t.markdownUnavailable}</p>
      ) : view === "source" ? (
        <pre
          data-testid="markdown-source"
          tabIndex={0}
          style={MONO_WITH_CJK}
          className="max-h-[32rem] overflow-auto px-3 py-2 text-xs leading-5 break-words whitespace-pre-wrap focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
        >
          {content}
        </pre>
      ) : (
        <div
          tabIndex={0}
          className="max-h-[32rem] overflow-auto px-3 py-2 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
        >
          <MarkdownText source={content} />
        </div>
      )}
    </Panel>
  );
}
