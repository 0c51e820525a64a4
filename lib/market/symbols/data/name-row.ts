/**
 * One bundled name: [code, Chinese name or null, English name or null, extra aliases].
 * Tuples keep the lists compact enough to read and review as data; name-index.ts turns them into entries.
 */
export type NameRow = readonly [
  code: string,
  nameZh: string | null,
  nameEn: string | null,
  aliases?: readonly string[],
];
