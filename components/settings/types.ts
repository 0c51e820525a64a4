import type { TConfigValidationIssue, TSystemConfigItem, TSystemConfigResponse } from "@/lib/config/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

export type SettingsTexts = Dictionary["settingsUi"];
export type AuthTexts = Dictionary["auth"];
export type ConfigItem = TSystemConfigItem;
export type ConfigData = TSystemConfigResponse;
export type ConfigIssue = TConfigValidationIssue;
export type CategoryId = keyof SettingsTexts["categories"];

/** Pending edits by key: the value to send. A key absent here is unchanged. */
export type Edits = Record<string, string>;

export const CATEGORY_IDS: readonly CategoryId[] = ["base", "ai_model", "data_source", "notification", "system", "uncategorized"];

export function categoryOf(item: ConfigItem): CategoryId {
  const c = item.schema?.category;
  return (CATEGORY_IDS as readonly string[]).includes(c ?? "") ? (c as CategoryId) : "uncategorized";
}

export function issuesByKey(issues: readonly ConfigIssue[]): Record<string, ConfigIssue[]> {
  const out: Record<string, ConfigIssue[]> = {};
  for (const issue of issues) (out[issue.key] ??= []).push(issue);
  return out;
}
