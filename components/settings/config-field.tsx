"use client";

import { useState } from "react";
import { BUTTON_SECONDARY, FIELD_INPUT } from "@/components/auth/password-input";
import { Badge } from "@/components/ui/badge";
import { cx } from "@/components/ui/cx";
import { fmt } from "./format";
import type { ConfigFieldText, ConfigIssue, ConfigItem, SettingsTexts } from "./types";

const TRUE_WORDS = ["true", "1", "yes", "on"];
const LAUNCH_KEYS = ["PORT", "HOSTNAME", "DATABASE_URL", "ENV_FILE"];
const SMALL_BUTTON = cx(BUTTON_SECONDARY, "h-7 px-2 text-xs");

type ConfigFieldProps = {
  t: SettingsTexts;
  item: ConfigItem;
  /** Title, help text and option labels in the UI language; the schema's (English) texts when absent. */
  text?: ConfigFieldText;
  /** The pending value, when this key has been edited. */
  edit: string | undefined;
  issues: readonly ConfigIssue[];
  mask: string;
  onEdit: (key: string, value: string | undefined) => void;
};

function optionList(item: ConfigItem, labels: ConfigFieldText["options"]): { label: string; value: string }[] {
  return (item.schema?.options ?? []).map((o) => {
    const option = typeof o === "string" ? { label: o, value: o } : o;
    const label = labels && Object.hasOwn(labels, option.value) ? labels[option.value] : undefined;
    return label ? { ...option, label } : option;
  });
}

/** A select option as shown: its label with the value in brackets, or the bare value when it has no own label. */
function optionText(options: readonly { value: string; label: string }[], value: string): string {
  const option = options.find((o) => o.value === value);
  return !option || option.label === option.value ? value : `${option.label} (${option.value})`;
}

// One setting: its title, key and state on the left; the control typed by ui_control, help text and the
// issues of the last Validate or Save on the right (stacked on a phone).
export function ConfigField({ t, item, text, edit, issues, mask, onEdit }: ConfigFieldProps) {
  const schema = item.schema;
  // The label is the control's accessible name, so it follows the UI language too.
  const title = text?.title ?? schema?.title ?? item.key;
  const description = text?.description ?? schema?.description;
  const id = `cfg-${item.key}`;
  const helpId = `${id}-help`;
  const editable = schema?.is_editable !== false;
  const sensitive = schema?.is_sensitive === true || item.is_masked;
  const value = edit ?? item.value;
  const changed = edit !== undefined;
  const hasError = issues.some((i) => i.severity === "error");

  const set = (next: string) => onEdit(item.key, next === item.value ? undefined : next);

  const help: string[] = [];
  if (schema?.default_value) help.push(fmt(t.defaultValue, { value: schema.default_value }));
  const options = optionList(item, text?.options);
  if (options.length > 0 && schema?.ui_control !== "select" && schema?.ui_control !== "switch") {
    help.push(fmt(t.allowedValues, { values: options.map((o) => o.value).join(", ") }));
  }
  if (schema?.examples[0]) help.push(fmt(t.example, { value: schema.examples[0] }));

  const inputClass = cx(FIELD_INPUT, hasError && "border-red-500 dark:border-red-500");
  const describedBy = helpId;
  let control;
  if (sensitive && editable) {
    control = (
      <SecretControl
        t={t}
        id={id}
        item={item}
        edit={edit}
        mask={mask}
        describedBy={describedBy}
        className={inputClass}
        onEdit={onEdit}
      />
    );
  } else {
    switch (schema?.ui_control) {
      case "switch": {
        const effective = value === "" ? (schema.default_value ?? "false") : value;
        const on = TRUE_WORDS.includes(effective.toLowerCase());
        control = (
          <button
            id={id}
            type="button"
            role="switch"
            aria-checked={on}
            aria-describedby={describedBy}
            disabled={!editable}
            onClick={() => set(on ? "false" : "true")}
            className={cx(
              "inline-flex h-7 items-center gap-2 self-start rounded-md border border-line px-1.5 text-xs font-medium",
              "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-60",
              on ? "bg-accent-soft text-accent" : "bg-subtle text-muted",
            )}
          >
            <span className={cx("relative h-4 w-7 rounded-full transition-colors", on ? "bg-accent" : "bg-line")}>
              <span
                className={cx(
                  "absolute top-0.5 size-3 rounded-full bg-white shadow transition-all",
                  on ? "left-3.5" : "left-0.5",
                )}
              />
            </span>
            <span className="min-w-5">{on ? t.on : t.off}</span>
          </button>
        );
        break;
      }
      case "select": {
        const known = options.some((o) => o.value === value);
        control = (
          <select
            id={id}
            aria-describedby={describedBy}
            disabled={!editable}
            value={value}
            onChange={(e) => set(e.target.value)}
            className={inputClass}
          >
            {!schema.is_required && (
              <option value="">
                {schema.default_value
                  ? `${optionText(options, schema.default_value)} · ${t.useDefault}`
                  : `— ${t.useDefault} —`}
              </option>
            )}
            {!known && value !== "" && <option value={value}>{value}</option>}
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {optionText(options, o.value)}
              </option>
            ))}
          </select>
        );
        break;
      }
      case "textarea":
        control = (
          <textarea
            id={id}
            aria-describedby={describedBy}
            disabled={!editable}
            value={value}
            rows={Math.min(6, Math.max(2, value.split("\n").length))}
            spellCheck={false}
            onChange={(e) => set(e.target.value)}
            className={cx(inputClass, "h-auto py-1.5 font-mono text-[13px] leading-5")}
          />
        );
        break;
      default:
        control = (
          <input
            id={id}
            type="text"
            aria-describedby={describedBy}
            disabled={!editable}
            value={value}
            placeholder={schema?.ui_control === "time" ? "HH:MM" : (schema?.default_value ?? undefined)}
            inputMode={
              schema?.ui_control === "number" ? "decimal" : schema?.ui_control === "time" ? "numeric" : undefined
            }
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => set(e.target.value)}
            className={cx(
              inputClass,
              (schema?.ui_control === "number" || schema?.ui_control === "time") && "max-w-40 tabular-nums",
            )}
          />
        );
    }
  }

  return (
    <div
      data-key={item.key}
      className={cx(
        "grid gap-x-6 gap-y-1.5 px-4 py-3 md:grid-cols-[minmax(0,15rem)_minmax(0,1fr)]",
        changed && "bg-accent-soft/40",
      )}
    >
      <div className="min-w-0">
        <label htmlFor={id} className="block text-sm font-medium leading-5">
          {title}
        </label>
        <div className="mt-0.5 flex flex-wrap items-center gap-1.5">
          <code className="text-[11px] break-all text-muted">{item.key}</code>
          {!editable && <Badge>{t.readOnly}</Badge>}
          {schema?.category === "uncategorized" && <Badge>{t.unknownKey}</Badge>}
          {changed && <Badge tone="accent">{t.changed}</Badge>}
        </div>
      </div>
      <div className="flex min-w-0 flex-col gap-1">
        {control}
        <div id={helpId} className="text-xs leading-5 text-muted">
          {description && <p>{description}</p>}
          {!editable && (
            <p>
              {item.key === "ADMIN_AUTH_ENABLED"
                ? t.readOnlyAuth
                : LAUNCH_KEYS.includes(item.key)
                  ? t.readOnlyLaunch
                  : null}
            </p>
          )}
          {help.length > 0 && <p className="break-all">{help.join(" · ")}</p>}
        </div>
        {issues.length > 0 && (
          <ul className="flex flex-col gap-0.5" aria-label={item.key}>
            {issues.map((issue, i) => (
              <li
                key={`${issue.code}-${i}`}
                data-severity={issue.severity}
                className={cx(
                  "text-xs leading-5",
                  issue.severity === "error" ? "text-red-700 dark:text-red-400" : "text-amber-700 dark:text-amber-400",
                )}
              >
                <span className="font-medium">{issue.severity === "error" ? t.severityError : t.severityWarning}:</span>{" "}
                {issue.message}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

type SecretControlProps = {
  t: SettingsTexts;
  id: string;
  item: ConfigItem;
  edit: string | undefined;
  mask: string;
  describedBy: string;
  className: string;
  onEdit: (key: string, value: string | undefined) => void;
};

// A masked secret is never shown: its state ("set" / "not set") and a way to replace or clear it.
function SecretControl({ t, id, item, edit, mask, describedBy, className, onEdit }: SecretControlProps) {
  const isSet = item.is_masked || (item.value !== "" && item.value !== mask);
  const [replacing, setReplacing] = useState(!isSet);

  const state = <Badge tone={isSet ? "accent" : "neutral"}>{isSet ? t.secretSet : t.secretUnset}</Badge>;

  if (isSet && !replacing) {
    return (
      <div className="flex flex-wrap items-center gap-2">
        {state}
        <span aria-hidden="true" className="font-mono text-sm tracking-widest text-muted">
          ••••••
        </span>
        <button
          type="button"
          aria-describedby={describedBy}
          className={SMALL_BUTTON}
          onClick={() => setReplacing(true)}
        >
          {t.replace}
        </button>
      </div>
    );
  }
  return (
    <div className="flex min-w-0 items-center gap-2">
      {state}
      <input
        id={id}
        type="password"
        aria-describedby={describedBy}
        autoComplete="new-password"
        spellCheck={false}
        placeholder={isSet ? t.newSecretPlaceholder : t.secretPlaceholder}
        value={edit ?? ""}
        onChange={(e) => onEdit(item.key, e.target.value === "" && !isSet ? undefined : e.target.value)}
        className={className}
        autoFocus={isSet}
      />
      {isSet && (
        <button
          type="button"
          className={SMALL_BUTTON}
          onClick={() => {
            onEdit(item.key, undefined);
            setReplacing(false);
          }}
        >
          {t.cancelReplace}
        </button>
      )}
    </div>
  );
}
