"use client";

import { useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { readFailure, type ApiFailure } from "@/components/auth/api-errors";
import { BUTTON_PRIMARY, BUTTON_SECONDARY, FormMessage } from "@/components/auth/password-input";
import { Panel } from "@/components/ui/panel";
import { cx } from "@/components/ui/cx";
import { loginHref } from "@/lib/auth/next-path";
import { configFieldText } from "@/lib/i18n/config-fields";
import { BackupPanel } from "./backup-panel";
import { ConfigField } from "./config-field";
import { fmt } from "./format";
import {
  CATEGORY_IDS,
  categoryOf,
  issuesByKey,
  type CategoryId,
  type ConfigData,
  type ConfigFieldText,
  type ConfigIssue,
  type ConfigItem,
  type Edits,
  type FieldTexts,
  type SettingsTexts,
} from "./types";

const CONFIG_PATH = "/api/v1/system/config";

type Notice = { tone: "error" | "success"; text: string };

type SettingsEditorProps = {
  t: SettingsTexts;
  initial: ConfigData;
  /** The settings' titles and help texts in the UI language; absent: the schema's English texts. */
  fieldTexts?: FieldTexts;
  /** Export and import answer 403 while admin auth is off. */
  backupAllowed: boolean;
  /** Shown beside the backup panel (the admin authentication section). */
  aside?: ReactNode;
};

async function send(method: string, path: string, body?: unknown): Promise<Response | null> {
  try {
    return await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch {
    return null;
  }
}

function fieldTextOf(texts: FieldTexts | undefined, item: ConfigItem): ConfigFieldText | undefined {
  if (!texts) return undefined;
  const known = configFieldText(texts.fields, item.key);
  if (known) return known;
  return item.schema?.category === "uncategorized"
    ? { title: item.key, description: texts.unknownDescription }
    : undefined;
}

// The settings form generated from the config schema, with Validate, Save (optimistic
// version, conflict prompt), per-field issues, and the backup panel that shares the config version.
export function SettingsEditor({ t, initial, fieldTexts, backupAllowed, aside }: SettingsEditorProps) {
  const [config, setConfig] = useState(initial);
  const [edits, setEdits] = useState<Edits>({});
  const [issues, setIssues] = useState<ConfigIssue[]>([]);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [conflict, setConflict] = useState(false);
  const [busy, setBusy] = useState(false);
  const [tab, setTab] = useState<CategoryId>("base");
  const tabRefs = useRef<Partial<Record<CategoryId, HTMLButtonElement | null>>>({});

  const byCategory = useMemo(() => {
    const groups = new Map<CategoryId, ConfigData["items"]>();
    for (const item of config.items) {
      const c = categoryOf(item);
      groups.set(c, [...(groups.get(c) ?? []), item]);
    }
    return groups;
  }, [config]);
  const categories = CATEGORY_IDS.filter((c) => (byCategory.get(c)?.length ?? 0) > 0);
  const issueMap = useMemo(() => issuesByKey(issues), [issues]);
  const editCount = Object.keys(edits).length;

  const countIn = (c: CategoryId, test: (key: string) => boolean) =>
    (byCategory.get(c) ?? []).filter((i) => test(i.key)).length;

  function onEdit(key: string, value: string | undefined) {
    setEdits((prev) => {
      const next = { ...prev };
      if (value === undefined) delete next[key];
      else next[key] = value;
      return next;
    });
  }

  function showIssues(found: ConfigIssue[]) {
    setIssues(found);
    // Bring the first field with an error into view, switching tabs when it is on another one.
    const first = found.find((i) => i.severity === "error") ?? found[0];
    if (!first) return;
    const item = config.items.find((i) => i.key === first.key);
    if (
      item &&
      !found.some((i) => i.severity === "error" && (byCategory.get(tab) ?? []).some((x) => x.key === i.key))
    ) {
      setTab(categoryOf(item));
    }
  }

  function failureNotice(failure: ApiFailure | null): Notice {
    return { tone: "error", text: fmt(t.loadFailed, { message: failure?.message ?? "network error" }) };
  }

  async function reload(message: Notice | null = null) {
    const res = await send("GET", `${CONFIG_PATH}?include_schema=true`);
    if (res?.status === 401) return window.location.assign(loginHref("/settings"));
    if (!res?.ok) return setNotice(failureNotice(res ? await readFailure(res) : null));
    setConfig((await res.json()) as ConfigData);
    setEdits({});
    setIssues([]);
    setConflict(false);
    setNotice(message);
  }

  const items = () => Object.entries(edits).map(([key, value]) => ({ key, value }));

  async function validate() {
    if (editCount === 0) return setNotice({ tone: "success", text: t.noChanges });
    setBusy(true);
    setNotice(null);
    const res = await send("POST", `${CONFIG_PATH}/validate`, { items: items(), mask_token: config.mask_token });
    setBusy(false);
    if (res?.status === 401) return window.location.assign(loginHref("/settings"));
    if (!res?.ok) return setNotice(failureNotice(res ? await readFailure(res) : null));
    const body = (await res.json()) as { valid: boolean; issues: ConfigIssue[] };
    showIssues(body.issues);
    const errors = body.issues.filter((i) => i.severity === "error").length;
    if (errors > 0) setNotice({ tone: "error", text: fmt(t.validErrors, { count: errors }) });
    else if (body.issues.length > 0)
      setNotice({ tone: "success", text: fmt(t.validWarnings, { count: body.issues.length }) });
    else setNotice({ tone: "success", text: t.validOk });
  }

  /** Shared by Save and Import: 200 reloads, 409 prompts, 400 shows the issues. */
  async function handleWrite(res: Response | null, success: (applied: number) => string) {
    if (res?.status === 401) return window.location.assign(loginHref("/settings"));
    if (res?.ok) {
      const body = (await res.json()) as { applied_count: number };
      return reload({ tone: "success", text: body.applied_count > 0 ? success(body.applied_count) : t.savedNothing });
    }
    const failure = res ? await readFailure(res) : null;
    if (failure?.code === "config_version_conflict") {
      setConflict(true);
      return setNotice(null);
    }
    if (failure?.code === "validation_failed" && Array.isArray(failure.body.issues)) {
      const found = failure.body.issues as ConfigIssue[];
      showIssues(found);
      return setNotice({
        tone: "error",
        text: fmt(t.saveRejected, { count: found.filter((i) => i.severity === "error").length }),
      });
    }
    if (failure?.code === "invalid_import_file") return setNotice({ tone: "error", text: t.importInvalid });
    setNotice(failureNotice(failure));
  }

  async function save() {
    if (editCount === 0) return setNotice({ tone: "success", text: t.noChanges });
    setBusy(true);
    setNotice(null);
    const res = await send("PUT", CONFIG_PATH, {
      config_version: config.config_version,
      mask_token: config.mask_token,
      items: items(),
    });
    await handleWrite(res, (n) => fmt(t.saved, { count: n }));
    setBusy(false);
  }

  async function importContent(content: string) {
    setBusy(true);
    setNotice(null);
    const res = await send("POST", `${CONFIG_PATH}/import`, { config_version: config.config_version, content });
    await handleWrite(res, (n) => fmt(t.imported, { count: n }));
    setBusy(false);
  }

  function discard() {
    setEdits({});
    setIssues([]);
    setNotice(null);
  }

  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = categories[(categories.indexOf(tab) + step + categories.length) % categories.length];
    if (!next) return;
    setTab(next);
    tabRefs.current[next]?.focus();
  }

  const visible = byCategory.get(tab) ?? [];
  const issueKeys = Object.keys(issueMap);

  return (
    <div className="flex flex-col gap-4">
      {conflict && (
        <div
          role="alert"
          className="flex flex-col gap-2 rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-900 sm:flex-row sm:items-center dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-200"
        >
          <div className="flex-1">
            <p className="font-semibold">{t.conflictTitle}</p>
            <p className="mt-0.5 leading-5">{t.conflictBody}</p>
          </div>
          <button type="button" className={BUTTON_SECONDARY} onClick={() => reload()}>
            {t.reload}
          </button>
        </div>
      )}

      <Panel>
        <div
          role="tablist"
          aria-label={t.tabsLabel}
          onKeyDown={onTabKey}
          className="scrollbar-none flex overflow-x-auto border-b border-line px-2"
        >
          {categories.map((c) => {
            const selected = c === tab;
            const changed = countIn(c, (k) => Object.hasOwn(edits, k));
            const errors = countIn(c, (k) => issueMap[k]?.some((i) => i.severity === "error") ?? false);
            return (
              <button
                key={c}
                ref={(el) => {
                  tabRefs.current[c] = el;
                }}
                type="button"
                role="tab"
                id={`tab-${c}`}
                aria-selected={selected}
                aria-controls={`panel-${c}`}
                tabIndex={selected ? 0 : -1}
                onClick={() => setTab(c)}
                className={cx(
                  "-mb-px inline-flex h-10 shrink-0 items-center gap-1.5 border-b-2 px-3 text-sm whitespace-nowrap",
                  "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent",
                  selected ? "border-accent font-medium text-fg" : "border-transparent text-muted hover:text-fg",
                )}
              >
                {t.categories[c]}
                {errors > 0 ? (
                  <span className="rounded bg-red-600 px-1 text-[11px] leading-4 font-medium text-white tabular-nums">
                    {errors}
                  </span>
                ) : changed > 0 ? (
                  <span className="rounded bg-accent px-1 text-[11px] leading-4 font-medium text-accent-fg tabular-nums">
                    {changed}
                  </span>
                ) : null}
              </button>
            );
          })}
        </div>
        <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
          <p className="border-b border-line px-4 py-2 text-xs text-muted">{t.categoryNotes[tab]}</p>
          <div className="divide-y divide-line">
            {visible.map((item) => (
              <ConfigField
                key={`${item.key}@${config.config_version}`}
                t={t}
                item={item}
                text={fieldTextOf(fieldTexts, item)}
                edit={edits[item.key]}
                issues={issueMap[item.key] ?? []}
                mask={config.mask_token}
                onEdit={onEdit}
              />
            ))}
          </div>
        </div>
      </Panel>

      <div className="sticky bottom-(--phone-nav-space) z-10 -mx-4 border-t border-line bg-surface/95 px-4 py-2 backdrop-blur-sm sm:mx-0 sm:rounded-md sm:border">
        <div className="flex flex-wrap items-center gap-2">
          <p className="mr-auto text-sm text-muted tabular-nums" aria-live="polite">
            {editCount > 0 ? fmt(t.unsavedCount, { count: editCount }) : t.noChanges}
          </p>
          <button type="button" className={BUTTON_SECONDARY} disabled={busy || editCount === 0} onClick={discard}>
            {t.discard}
          </button>
          <button type="button" className={BUTTON_SECONDARY} disabled={busy} onClick={validate}>
            {t.validate}
          </button>
          <button type="button" className={BUTTON_PRIMARY} disabled={busy} onClick={save}>
            {busy ? t.working : t.save}
          </button>
        </div>
        {notice && (
          <div className="mt-2">
            <FormMessage tone={notice.tone}>{notice.text}</FormMessage>
          </div>
        )}
        {issueKeys.length > 0 && (
          <p className="mt-1.5 text-xs text-muted">
            {t.issuesIn}{" "}
            {issueKeys.map((key, i) => {
              const item = config.items.find((x) => x.key === key);
              return (
                <span key={key}>
                  {i > 0 && ", "}
                  <button
                    type="button"
                    className="font-mono text-accent hover:underline"
                    onClick={() => item && setTab(categoryOf(item))}
                  >
                    {key}
                  </button>
                </span>
              );
            })}
          </p>
        )}
      </div>

      <div className="grid items-start gap-4 md:grid-cols-2">
        {aside}
        <BackupPanel t={t} allowed={backupAllowed} busy={busy} onImport={importContent} />
      </div>
    </div>
  );
}
