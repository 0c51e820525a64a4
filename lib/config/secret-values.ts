import { isSensitiveKey } from "./schema";
import { getRawSetting, rawSettingKeys } from "@/lib/settings/settings";

const LIST_SEPARATORS = /[,\uFF0C\s]+/;

/**
 * The value of every sensitive setting in effect (a list setting also item by item), for redacting texts that
 * come back from outside services: whatever a channel declares as its own secrets, no configured secret can
 * pass through an error message into the database, a log line or an answer.
 */
export function sensitiveSettingValues(): string[] {
  const values = new Set<string>();
  for (const key of rawSettingKeys()) {
    if (!isSensitiveKey(key)) continue;
    const raw = getRawSetting(key)?.trim() ?? "";
    if (raw === "") continue;
    values.add(raw);
    for (const item of raw.split(LIST_SEPARATORS)) if (item !== "") values.add(item);
  }
  return [...values];
}
