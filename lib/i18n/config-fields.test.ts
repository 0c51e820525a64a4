import { describe, expect, it } from "vitest";
import { configFields, configPatternFields, lookupField } from "@/lib/config/schema";
import { CONFIG_FIELD_TEXTS_ZH, configFieldText } from "./config-fields";

// The zh texts of the Settings page must follow the config schema: one entry per key and key pattern,
// none for keys the schema does not have.

const fieldKeys = configFields().map((f) => f.key);
const patternKeys = configPatternFields().map((f) => f.key);
const schemaKeys = [...fieldKeys, ...patternKeys];

describe("CONFIG_FIELD_TEXTS_ZH", () => {
  it.each(schemaKeys)("has a zh title and description for %s", (key) => {
    const text = CONFIG_FIELD_TEXTS_ZH[key];
    expect(text, `no zh texts for ${key}`).toBeDefined();
    expect(text!.title.trim()).not.toBe("");
    expect(text!.description.trim()).not.toBe("");
  });

  it("has no entry for a key the schema does not have", () => {
    const extra = Object.keys(CONFIG_FIELD_TEXTS_ZH).filter((key) => !schemaKeys.includes(key));
    expect(extra).toEqual([]);
  });

  it("translates only option values the field offers, with non-empty labels", () => {
    const all = [...configFields(), ...configPatternFields()];
    for (const [key, text] of Object.entries(CONFIG_FIELD_TEXTS_ZH)) {
      if (!text.options) continue;
      const field = all.find((f) => f.key === key)!;
      const values = (field.options ?? []).map((o) => (typeof o === "string" ? o : o.value));
      for (const [value, label] of Object.entries(text.options)) {
        expect(values, `${key} has no option ${value}`).toContain(value);
        expect(label.trim(), `${key} option ${value}`).not.toBe("");
      }
    }
  });

  it("gives distinct titles within a category, so every control has its own accessible name", () => {
    const all = [...configFields(), ...configPatternFields()];
    for (const category of new Set(all.map((f) => f.category))) {
      const titles = all.filter((f) => f.category === category).map((f) => CONFIG_FIELD_TEXTS_ZH[f.key]?.title);
      expect(new Set(titles).size, category).toBe(titles.length);
    }
  });
});

describe("configFieldText", () => {
  it("finds a key's own entry", () => {
    expect(configFieldText(CONFIG_FIELD_TEXTS_ZH, "SCHEDULE_TIME")).toBe(CONFIG_FIELD_TEXTS_ZH.SCHEDULE_TIME);
    expect(configFieldText(CONFIG_FIELD_TEXTS_ZH, "LLM_CHANNELS")).toBe(CONFIG_FIELD_TEXTS_ZH.LLM_CHANNELS);
  });

  it("finds the entry of a key family for the same keys the schema matches", () => {
    for (const pattern of configPatternFields()) {
      for (const channel of ["DEEPSEEK", "MY_PROXY", "A"]) {
        const key = pattern.key.replace("<CHANNEL>", channel);
        expect(lookupField(key)?.title, key).toBe(pattern.title);
        expect(configFieldText(CONFIG_FIELD_TEXTS_ZH, key), key).toBe(CONFIG_FIELD_TEXTS_ZH[pattern.key]);
      }
    }
  });

  it("has nothing for keys the schema does not know", () => {
    for (const key of ["MY_OWN_KEY", "LLM_", "LLM_X_UNKNOWN", "llm_deepseek_models"]) {
      expect(lookupField(key), key).toBeUndefined();
      expect(configFieldText(CONFIG_FIELD_TEXTS_ZH, key), key).toBeUndefined();
    }
  });
});
