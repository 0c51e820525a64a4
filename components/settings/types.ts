import type { TConfigValidationIssue, TSystemConfigItem, TSystemConfigResponse } from "@/lib/config/schemas";
import type { ConfigFieldText, ConfigFieldTexts } from "@/lib/i18n/config-fields";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

export type SettingsTexts = Dictionary["settingsUi"];
export type AuthTexts = Dictionary["auth"];
export type ConfigItem = TSystemConfigItem;
export type ConfigData = TSystemConfigResponse;
export type ConfigIssue = TConfigValidationIssue;
export type CategoryId = keyof SettingsTexts["categories"];
export type { ConfigFieldText };

/** The settings' titles and help texts in the UI language, when it is not the schema's English. */
export type FieldTexts = {
  /** By schema key or key pattern (LLM_<CHANNEL>_…). */
  fields: ConfigFieldTexts;
  /** Help text of a key the schema does not know. */
  unknownDescription: string;
};

/** Pending edits by key: the value to send. A key absent here is unchanged. */
export type Edits = Record<string, string>;

export const CATEGORY_IDS: readonly CategoryId[] = [
  "base",
  "ai_model",
  "data_source",
  "notification",
  "system",
  "uncategorized",
];

export function categoryOf(item: ConfigItem): CategoryId {
  const c = item.schema?.category;
  return (CATEGORY_IDS as readonly string[]).includes(c ?? "") ? (c as CategoryId) : "uncategorized";
}

export function issuesByKey(issues: readonly ConfigIssue[]): Record<string, ConfigIssue[]> {
  const out: Record<string, ConfigIssue[]> = {};
  for (const issue of issues) (out[issue.key] ??= []).push(issue);
  return out;
}
