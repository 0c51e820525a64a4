"use client";

import { useId, useState } from "react";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import type { TAgentSkill } from "@/lib/agent/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

type Texts = Dictionary["chatUi"];

export interface SkillChoices {
  skills: TAgentSkill[];
  defaultId: string;
  problems: { file: string; error: string }[];
}

/** A strategy named and described in the UI language: the file's English texts in the en UI, its own texts in zh. */
export function skillInLanguage(skill: TAgentSkill, language: "zh" | "en"): TAgentSkill {
  if (language !== "en") return skill;
  return { ...skill, name: skill.name_en ?? skill.name, description: skill.description_en ?? skill.description };
}

function summary(t: Texts, skills: TAgentSkill[], selected: readonly string[]): string {
  const names = selected.map((id) => skills.find((s) => s.id === id)?.name ?? id);
  if (names.length === 0) return t.strategiesNone;
  if (names.length === 1) return names[0]!;
  return fmt(t.strategiesMore, { first: names[0]!, count: names.length });
}

// The strategies ("skills") of the next turns: up to `max` of GET /agent/skills, the default one preselected. A
// button opens the list of checkboxes in place (no popover to position on a phone); problems of the user's own
// strategy files are counted beside it, with the files and errors in the tooltip.
export function StrategyPicker({
  t,
  choices,
  selected,
  max,
  disabled,
  onChange,
}: {
  t: Texts;
  choices: SkillChoices;
  selected: readonly string[];
  max: number;
  disabled?: boolean;
  onChange: (ids: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const full = selected.length >= max;

  function toggle(id: string, checked: boolean) {
    if (checked) {
      if (!selected.includes(id) && !full) onChange([...selected, id]);
    } else onChange(selected.filter((s) => s !== id));
  }

  return (
    <div className="min-w-0">
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((v) => !v)}
          data-testid="chat-strategy-button"
          className="inline-flex h-7 max-w-full min-w-0 items-center gap-1 rounded-md border border-line bg-surface px-2.5 text-xs font-medium hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent"
        >
          <span className="truncate">{fmt(t.strategiesButton, { names: summary(t, choices.skills, selected) })}</span>
          <span aria-hidden="true" className={cx("text-muted transition-transform", open && "rotate-180")}>
            ▾
          </span>
        </button>
        {choices.problems.length > 0 ? (
          <span
            data-testid="chat-skill-problems"
            title={choices.problems.map((p) => `${p.file}: ${p.error}`).join("\n")}
            className="text-xs font-medium text-amber-700 dark:text-amber-400"
          >
            ⚠ {fmt(t.strategyProblems, { count: choices.problems.length })}
          </span>
        ) : null}
      </div>
      {open ? (
        <fieldset
          id={panelId}
          data-testid="chat-strategy-picker"
          disabled={disabled}
          className="mt-2 rounded-md border border-line bg-canvas px-3 py-2"
        >
          <legend className="px-1 text-xs font-medium text-muted">{fmt(t.strategiesLegend, { max })}</legend>
          <ul className="space-y-1.5">
            {choices.skills.map((skill) => {
              const checked = selected.includes(skill.id);
              const inputId = `${panelId}-${skill.id}`;
              return (
                <li key={skill.id} data-skill-id={skill.id} className="flex items-start gap-2">
                  <input
                    id={inputId}
                    type="checkbox"
                    checked={checked}
                    disabled={!checked && full}
                    onChange={(event) => toggle(skill.id, event.target.checked)}
                    aria-describedby={`${inputId}-about`}
                    className="mt-0.5 size-4 shrink-0 accent-[var(--color-accent)]"
                  />
                  <div className="min-w-0 text-xs leading-5">
                    <label htmlFor={inputId} className="font-medium">
                      {skill.name}
                    </label>
                    <span id={`${inputId}-about`} className="ml-1.5 text-muted">
                      {skill.id === choices.defaultId ? (
                        <span className="mr-1.5 rounded bg-subtle px-1">{t.strategiesDefault}</span>
                      ) : null}
                      {skill.source === "user" ? (
                        <span className="mr-1.5 rounded bg-subtle px-1">{t.strategySourceUser}</span>
                      ) : null}
                      {skill.description}
                    </span>
                  </div>
                </li>
              );
            })}
          </ul>
          {full ? <p className="mt-1.5 text-xs text-muted">{fmt(t.strategiesMax, { max })}</p> : null}
        </fieldset>
      ) : null}
    </div>
  );
}
