"use client";

import { useEffect, useRef, useState } from "react";
import { documentPriceColors } from "@/components/analysis/tone";
import { readFailure } from "@/components/auth/api-errors";
import { fmt } from "@/components/settings/format";
import { Panel } from "@/components/ui/panel";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

type Texts = Dictionary["historyUi"];

type ShareState =
  | { status: "idle" }
  | { status: "working" }
  | { status: "done"; url: string; fileName: string }
  | { status: "failed"; message: string };

/** The file name of a Content-Disposition header (filename* first, then filename). */
function dispositionName(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8'[^']*')?([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim().replace(/^"(.*)"$/, "$1"));
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain ? plain[1]!.trim() : null;
}

function saveBlob(url: string, fileName: string): void {
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
}

// Share: one request to GET /api/v1/history/{id}/share-image renders the PNG; the same bytes are saved as a
// download and shown as the preview, so what the user sees is what they send.
export function SharePanel({ t, recordId, name }: { t: Texts; recordId: number; name: string }) {
  const [state, setState] = useState<ShareState>({ status: "idle" });
  const objectUrl = useRef<string | null>(null);

  useEffect(
    () => () => {
      if (objectUrl.current) URL.revokeObjectURL(objectUrl.current);
    },
    [],
  );

  async function share() {
    setState({ status: "working" });
    try {
      // The picture in the user's price colours, not the report language's default.
      const res = await fetch(`/api/v1/history/${recordId}/share-image?colors=${documentPriceColors().colors}`, {
        cache: "no-store",
      });
      if (!res.ok) {
        setState({ status: "failed", message: fmt(t.shareFailed, { message: (await readFailure(res)).message }) });
        return;
      }
      const blob = await res.blob();
      if (objectUrl.current) URL.revokeObjectURL(objectUrl.current);
      const url = URL.createObjectURL(blob);
      objectUrl.current = url;
      const fileName = dispositionName(res.headers.get("content-disposition")) ?? `report-${recordId}.png`;
      saveBlob(url, fileName);
      setState({ status: "done", url, fileName });
    } catch (error) {
      setState({
        status: "failed",
        message: fmt(t.shareFailed, { message: error instanceof Error ? error.message : String(error) }),
      });
    }
  }

  return (
    <Panel>
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-3 py-1.5">
        <h2 className="text-sm font-semibold">{t.shareTitle}</h2>
        <button
          type="button"
          onClick={share}
          disabled={state.status === "working"}
          className="inline-flex h-7 items-center rounded-md bg-accent px-2.5 text-xs font-semibold text-accent-fg hover:bg-accent/90 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:cursor-progress disabled:opacity-70"
        >
          {state.status === "working" ? t.shareWorking : t.shareButton}
        </button>
      </div>
      <div className="px-3 py-2 text-xs leading-5 text-muted">
        {state.status === "failed" ? (
          <p role="alert" className="font-medium text-amber-700 dark:text-amber-400">
            {state.message}
          </p>
        ) : state.status === "done" ? (
          <p role="status" className="flex flex-wrap items-center gap-x-2">
            <span data-testid="share-file">{fmt(t.shareDone, { file: state.fileName })}</span>
            <a href={state.url} download={state.fileName} className="text-accent underline-offset-2 hover:underline">
              {t.shareDownloadAgain}
            </a>
          </p>
        ) : (
          <p>{t.shareHint}</p>
        )}
      </div>
      {state.status === "done" ? (
        <div className="max-h-[36rem] overflow-auto border-t border-line bg-subtle p-2">
          {/* eslint-disable-next-line @next/next/no-img-element -- a blob: URL of the PNG just rendered; next/image cannot optimise it */}
          <img
            src={state.url}
            alt={fmt(t.sharePreviewAlt, { name })}
            data-testid="share-preview"
            className="mx-auto block h-auto w-full max-w-[540px] rounded border border-line"
          />
        </div>
      ) : null}
    </Panel>
  );
}
