import type { zhCN } from "./zh-CN";

// Same keys as zh-CN, every leaf a string: other languages must translate every key and add none.
type Widen<T> = { readonly [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

export type Dictionary = Widen<typeof zhCN>;
