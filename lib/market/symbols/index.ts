// Public surface of lib/market/symbols: token resolution for the analyze request, the index registry
// for providers, name sources for the future database-backed list, and search for the autocomplete.
export { classifyAShareCode, type AShareExchange } from "./a-share-exchange";
export { createNameIndex, type NameMatch, type NameSource } from "./name-index";
export { BUNDLED_NAMES, bundledNameEntries } from "./bundled-names";
export { displayName, nameLanguage, type NameLanguage, type NamedTarget } from "./display-name";
export { activeNameSources, nameSourcesGeneration, setPreferredNameSource } from "./name-sources";
export {
  DEFAULT_CROSS_LISTING_PREFERENCE,
  lookupName,
  type NameLookupOptions,
  type NameLookupResult,
} from "./name-lookup";
export { getIndexEntry, listIndexEntries } from "./index-registry";
export { MAX_TOKEN_LENGTH, resolveToken, type ResolveOptions } from "./resolve-token";
export {
  collectTokens,
  dedupKey,
  MAX_RAW_TOKENS,
  resolveTokens,
  type ResolvedTokens,
  type TokenDuplicate,
} from "./resolve-tokens";
export { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, searchSymbols } from "./search-symbols";
export * from "./schemas";
