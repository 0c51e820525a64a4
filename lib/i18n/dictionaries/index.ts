import type { Locale } from "../config";
import { en } from "./en";
import type { Dictionary } from "./types";
import { zhCN } from "./zh-CN";

export const DICTIONARIES: Record<Locale, Dictionary> = { "zh-CN": zhCN, en };

/** The dictionary of a report or answer language (zh, en), for server code that words text outside a request's UI. */
export function dictionaryOf(language: "zh" | "en"): Dictionary {
  return DICTIONARIES[language === "en" ? "en" : "zh-CN"];
}
