"use client";

import { useEffect, useId, useState, type KeyboardEvent } from "react";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

type Texts = Dictionary["analyzeUi"];

/** One row of GET /api/v1/stocks/search. */
export interface StockSuggestion {
  kind: "stock" | "index";
  market: "cn" | "hk" | "us";
  code: string;
  display_code: string;
  name?: string;
  name_en?: string;
}

const DEBOUNCE_MS = 180;
const LIMIT = 8;

type SearchState =
  | { status: "idle" }
  | { status: "loading"; query: string }
  | { status: "done"; query: string; items: StockSuggestion[] }
  | { status: "error"; query: string; message: string };

export function MarketBadge({
  t,
  market,
  kind,
}: {
  t: Texts;
  market: StockSuggestion["market"];
  kind?: StockSuggestion["kind"] | null;
}) {
  return (
    <span className="inline-flex shrink-0 items-center gap-0.5">
      <span className="rounded border border-line bg-subtle px-1 text-[11px] leading-4 font-medium text-muted">
        {t.market[market]}
      </span>
      {kind === "index" ? (
        <span className="rounded border border-accent/30 bg-accent-soft px-1 text-[11px] leading-4 font-medium text-accent">
          {t.kind.index}
        </span>
      ) : null}
    </span>
  );
}

export function suggestionName(item: StockSuggestion, locale: string): string {
  return (locale === "en" ? (item.name_en ?? item.name) : (item.name ?? item.name_en)) ?? "";
}

/**
 * The code input with autocomplete (WAI-ARIA combobox with a listbox popup): debounced search, arrow keys
 * move the active option, Enter or a click picks it, Escape closes. Without a pick, the typed text is
 * submitted as is.
 */
export function StockSearchInput({
  t,
  locale,
  text,
  onTextChange,
  onPick,
  disabled,
}: {
  t: Texts;
  locale: string;
  text: string;
  onTextChange: (text: string) => void;
  onPick: (item: StockSuggestion) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [search, setSearch] = useState<SearchState>({ status: "idle" });
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // Text set by a pick is not searched again.
  const [pickedText, setPickedText] = useState<string | null>(null);

  const query = text.trim();
  useEffect(() => {
    if (!query || pickedText === text) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setSearch({ status: "loading", query });
      try {
        const res = await fetch(`/api/v1/stocks/search?q=${encodeURIComponent(query)}&limit=${LIMIT}`, {
          signal: controller.signal,
          credentials: "same-origin",
        });
        const body = (await res.json().catch(() => ({}))) as { items?: StockSuggestion[]; message?: string };
        if (!res.ok) {
          setSearch({ status: "error", query, message: body.message ?? `HTTP ${res.status}` });
          return;
        }
        setSearch({ status: "done", query, items: body.items ?? [] });
        setActive(-1);
      } catch (error) {
        if ((error as Error).name !== "AbortError")
          setSearch({ status: "error", query, message: (error as Error).message });
      }
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, text, pickedText]);

  const items = search.status === "done" && search.query === query ? search.items : [];
  const current = search.status !== "idle" && search.query === query;
  const showPopup = open && query.length > 0 && pickedText !== text && (current || search.status === "loading");
  const activeItem = showPopup && active >= 0 ? items[active] : undefined;

  function pick(item: StockSuggestion) {
    const label = [item.display_code, suggestionName(item, locale)].filter(Boolean).join(" ");
    setPickedText(label);
    onTextChange(label);
    onPick(item);
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!showPopup) {
        setOpen(true);
        return;
      }
      if (items.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (step > 0 ? (current + 1) % items.length : current <= 0 ? items.length - 1 : current - 1));
    } else if (event.key === "Enter" && activeItem) {
      event.preventDefault();
      pick(activeItem);
    } else if (event.key === "Escape" && showPopup) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  }

  return (
    <div className="relative min-w-0 flex-1">
      <label htmlFor={`${id}-input`} className="mb-1 block text-xs font-medium text-muted">
        {t.codeLabel}
      </label>
      <input
        id={`${id}-input`}
        type="text"
        role="combobox"
        aria-expanded={showPopup}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeItem ? `${id}-opt-${active}` : undefined}
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
        value={text}
        placeholder={t.codePlaceholder}
        onChange={(event) => {
          setPickedText(null);
          onTextChange(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className={cx(
          "h-9 w-full rounded-md border border-line bg-surface px-2.5 text-sm text-fg placeholder:text-muted/70",
          "focus-visible:border-accent focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-accent/40",
          "disabled:opacity-60",
        )}
      />
      <div
        className={cx(
          "absolute inset-x-0 top-full z-20 mt-1 overflow-hidden rounded-md border border-line bg-surface shadow-lg",
          showPopup ? "block" : "hidden",
        )}
      >
        <ul id={listId} role="listbox" aria-label={t.suggestions} className="max-h-72 overflow-y-auto py-1">
          {items.map((item, index) => {
            const name = suggestionName(item, locale);
            const other = locale === "en" ? item.name : item.name_en;
            return (
              <li
                key={`${item.kind}:${item.market}:${item.code}`}
                id={`${id}-opt-${index}`}
                role="option"
                aria-selected={index === active}
                // mousedown, not click: the input's blur would close the list first.
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(item);
                }}
                onMouseEnter={() => setActive(index)}
                className={cx(
                  "flex cursor-pointer items-center gap-2 px-2.5 py-1.5 text-sm",
                  index === active ? "bg-accent-soft" : "",
                )}
              >
                <span className="w-16 shrink-0 font-mono text-xs tabular-nums text-fg">{item.display_code}</span>
                <span className="min-w-0 flex-1 truncate">
                  <span className="font-medium">{name}</span>
                  {other && other !== name ? <span className="ml-1.5 text-xs text-muted">{other}</span> : null}
                </span>
                <MarketBadge t={t} market={item.market} kind={item.kind} />
              </li>
            );
          })}
        </ul>
        {search.status === "loading" && items.length === 0 ? (
          <p className="px-2.5 py-2 text-xs text-muted">{t.searching}</p>
        ) : null}
        {search.status === "done" && search.query === query && items.length === 0 ? (
          <p className="px-2.5 py-2 text-xs text-muted">{t.noMatches}</p>
        ) : null}
        {search.status === "error" ? (
          <p className="px-2.5 py-2 text-xs text-muted">{fmt(t.searchFailed, { message: search.message })}</p>
        ) : null}
      </div>
    </div>
  );
}
