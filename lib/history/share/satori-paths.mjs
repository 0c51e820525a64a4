// Satori with faster glyph outlines. satori writes every glyph of the card as an SVG path, one
// coordinate at a time through a template literal (`${round(x)}`): V8 turns each non-integer into text with its
// general shortest-decimal routine, and the many small strings are garbage; on a share card that was a third of
// satori's time. The values are already rounded to tenths, so their text is an integer, a point and one digit: written
// as bytes into one kept buffer, the path is the same text, byte for byte (satori-paths.test.ts checks satori's SVG
// against the stock module's), and satori takes ~30 % less time per card.
//
// The copy also keeps more shaped text (see SHAPED_RUNS_KEPT) and the font engines it made (STOCK_ENGINE_HEAD), and leaves
// out the content masks nothing points to (STOCK_CONTENT_MASK), and builds four keyword maps once (STOCK_ALIGNMENT_MAPS).
//
// The stock module is a single minified file, so a diff-based patch of it would be a megabyte of one line: instead
// `npm install` (postinstall, scripts/satori-fast-paths.mjs) writes a copy of it beside it with its path writer
// replaced. The renderer threads load that copy and fall back to stock satori when it is missing (an
// install that skipped scripts, or a satori release whose path writer no longer matches: the test then fails).
// Plain ES module: the renderer threads and the install script run it with plain Node.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

/** satori's path writer as released in 0.63.2 (package.json pins that version). */
export const STOCK_PATH_WRITER =
  'function fd(A,g,I,C,B=0){let E=(o,e)=>nr(g+(o+B*e)*C),Q=o=>nr(I-o*C),i="";for(let o of A)switch(o.type){case"M":case"L":i+=`${o.type}${E(o.x,o.y)} ${Q(o.y)}`;break;case"Q":i+=`Q${E(o.x1,o.y1)} ${Q(o.y1)} ${E(o.x,o.y)} ${Q(o.y)}`;break;case"C":i+=`C${E(o.x1,o.y1)} ${Q(o.y1)} ${E(o.x2,o.y2)} ${Q(o.y2)} ${E(o.x,o.y)} ${Q(o.y)}`;break;case"Z":i+="Z";break}return i}';

/** satori's rounding of a path coordinate (`nr` in its module), whose text the writer below reproduces. */
export const STOCK_ROUNDING = "var nr=A=>(A<0?-Math.round(-A*10):Math.round(A*10))/10;";

/**
 * Writes the text satori writes for a path coordinate, `${nr(value)}` (the value rounded half away from zero to
 * tenths), as ASCII into `bytes` at `at`; returns the position after it. Within ±10^8 that is the integer part, a
 * point and the tenths digit (a double that close to a number of tenths prints as exactly those digits), written
 * digit by digit; beyond it, and for NaN and the infinities, the general conversion, as satori does.
 */
export function writeTenths(bytes, at, value) {
  let tenths = value < 0 ? -Math.round(-value * 10) : Math.round(value * 10);
  if (!(tenths > -1e9 && tenths < 1e9)) {
    const text = "" + tenths / 10;
    for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
    return at;
  }
  if (tenths < 0) {
    bytes[at++] = 45; // "-"
    tenths = -tenths;
  }
  const digit = tenths % 10;
  let whole = (tenths - digit) / 10;
  let end = at + 1;
  for (let rest = whole; rest >= 10; rest = (rest - (rest % 10)) / 10) end++;
  for (let i = end; i > at; ) {
    const last = whole % 10;
    bytes[--i] = 48 + last;
    whole = (whole - last) / 10;
  }
  if (digit === 0) return end;
  bytes[end] = 46; // "."
  bytes[end + 1] = 48 + digit;
  return end + 2;
}

/** The longest text of one path command: a letter and six coordinates of up to 24 characters, each after a space. */
const COMMAND_BYTES = 160;

/**
 * satori's bound on the shaped text runs it keeps (a least-recently-used map: text → harfbuzz's glyphs). A card's
 * strips shape some 400 distinct runs (each Chinese character is measured on its own for line breaking, then words,
 * then each line drawn), so at 256 nearly every run was shaped again on every card. The copy keeps 4,096 (the
 * characters and words of the last several cards, a few megabytes per thread; shaping does not depend on the font
 * size, which is not in the key): satori's time per card fell ~12 % (probe, the same card repeated: 64-66 → 53-57 ms).
 */
export const STOCK_SHAPED_RUNS = "var ld=256;";
const SHAPED_RUNS_KEPT = "var ld=4096;";

/**
 * The head of satori's font loader method that makes a text's font engine (its fonts in fallback order, metrics and
 * shaping, as closures). satori asks for one five or six times per text node, and each time builds it anew: resolving
 * every loaded font for the family, weight and style, and copying the whole style object to read its font-synthesis
 * keys. The copy keeps the engines it made, by everything an engine depends on (font size, line height, family,
 * weight, style, font-synthesis keys, locale, and the fonts loaded so far); a renderer thread paints ~6 % faster
 * (probe, five alternated runs each: median 50.3 → 47.4 ms a card). An engine holds no state but a map of
 * which font draws a character, which the same fonts always answer alike. At most 64 kept; the set is emptied when
 * full (a card uses a dozen).
 */
export const STOCK_ENGINE_HEAD = 'getEngine(g=16,I="normal",{fontFamily:C="sans-serif",fontWeight:B=400,fontStyle:E="normal",...Q},i){';
const KEPT_ENGINES = [
  "getEngine(g,I,s,i){",
  'let n=0;for(const l of this.fonts.values())n+=l.length;const t=v=>v===undefined?"u":typeof v=="string"?"s"+v:typeof v=="number"?"n"+v:"j"+JSON.stringify(v);',
  'const k=[g,I,s.fontFamily,s.fontWeight,s.fontStyle,s.fontSynthesis,s.fontSynthesisWeight,s.fontSynthesisStyle,i,n].map(t).join("\\0");',
  "const m=this.__dsaEngines??=new Map();let e=m.get(k);",
  "if(e===undefined){if(m.size>=64)m.clear();e=this.__dsaNewEngine(g,I,s,i);m.set(k,e)}return e}",
  STOCK_ENGINE_HEAD.replace("getEngine(", "__dsaNewEngine("),
].join("");

/**
 * The start of an engine's lookup of shaped text in satori's shared cache, whose key is built from the engine's font
 * key and the text on every call, and whose hit is moved to the back of the cache (a delete and a set). A kept engine
 * (above) answers its own repeats from a map of its own, by text alone, before that (at most 512 per engine, emptied
 * when full): ~3 % less per card (probe, eleven alternated runs each: median 44.1 → 42.7 ms). The values are the shared
 * cache's own (shaping is deterministic), so the SVG is the same.
 */
export const STOCK_SHAPED_RUN_LOOKUP = "x=(y,Y,u)=>{let K=";
const ENGINE_SHAPED_RUNS =
  '__dsaRuns=new Map(),x=(y,Y,u)=>{const p=`${Y||""}\\0${u||""}\\0${y}`;let q=__dsaRuns.get(p);' +
  "if(q===void 0){if(__dsaRuns.size>=512)__dsaRuns.clear();q=__dsaShape(y,Y,u);__dsaRuns.set(p,q)}return q},__dsaShape=(y,Y,u)=>{let K=";

/**
 * The end of satori's overflow handling of an element: it writes a mask for the element's content (`satori_om-<id>`)
 * for every element, but only the descendants of an element that hides its overflow or has a clip path ever point
 * to it; the share card has neither, so each of its ~60 masks per strip was built (the content's border paths, the
 * attributes escaped) and written for nothing, and the SVG scanned past them. The copy writes the mask only for those
 * elements: ~8 % less per card (probe, five alternated runs each: median 46.1 → 42.4 ms). The SVG is stock satori's
 * without the masks nothing points to (satori-paths.test.ts), so resvg draws the same picture.
 */
export const STOCK_CONTENT_MASK = "let c=LB({id:`satori_om-${Q}`,left:A,top:g,width:I,height:C,matrix:E,borderOnly:!o},e);return s+n+c}";
const POINTED_CONTENT_MASK =
  'let c=e.overflow==="hidden"||e.clipPath&&e.clipPath!=="none"?LB({id:`satori_om-${Q}`,left:A,top:g,width:I,height:C,matrix:E,borderOnly:!o},e):"";return s+n+c}';

/**
 * The keyword maps satori checks four alignment properties against, built anew for every element by spreading its
 * shared map of alignment keywords (`sE`) into a new object: a fifth of the time satori spends on an element's style.
 * The copy builds each map once, on first use, from the same shared map (which nothing changes; the maps are only
 * read, to look a keyword up or to list them in an error): ~11 % less per card (probe, five alternated runs each:
 * median 41.9 → 37.4 ms).
 */
export const STOCK_ALIGNMENT_MAPS = [
  "{...sE,normal:null}",
  "{...sE,normal:null,auto:null}",
  '{...sE,left:"start",right:"end",normal:null,legacy:null}',
  '{...sE,left:"start",right:"end",normal:null,auto:null}',
];

/** The global a renderer thread sets while satori lays out a strip whose glyphs it draws itself (glyph-layer.mjs). */
export const GLYPH_SINK = "__dsaGlyphSink";

// The replacement path writer: the glyph's commands written as bytes into one kept buffer, read back as one string
// per glyph, instead of a template literal per command and V8's number-to-string per coordinate. While a renderer
// thread has set the glyph sink, satori's writer hands each glyph (its commands, origin, scale and slant) and the
// writer itself to the sink, and writes what the sink answers (a marker the thread later replaces) instead.
const FAST_PATH_WRITER = [
  `function fd(A,g,I,C,B=0){const s=globalThis.${GLYPH_SINK};return s===undefined?__dsaPathData(A,g,I,C,B):s(A,g,I,C,B,__dsaPathData)}`,
  "function __dsaPathData(A,g,I,C,B){",
  `const need=A.length*${COMMAND_BYTES}+8;if(__dsaPathBytes===undefined||__dsaPathBytes.length<need)__dsaPathBytes=Buffer.allocUnsafe(2*need);`,
  "const b=__dsaPathBytes,w=__dsaWriteTenths;let p=0;",
  "for(let o of A)switch(o.type){",
  'case"M":case"L":b[p++]=o.type.charCodeAt(0);p=w(b,p,g+(o.x+B*o.y)*C);b[p++]=32;p=w(b,p,I-o.y*C);break;',
  'case"Q":b[p++]=81;p=w(b,p,g+(o.x1+B*o.y1)*C);b[p++]=32;p=w(b,p,I-o.y1*C);b[p++]=32;p=w(b,p,g+(o.x+B*o.y)*C);b[p++]=32;p=w(b,p,I-o.y*C);break;',
  'case"C":b[p++]=67;p=w(b,p,g+(o.x1+B*o.y1)*C);b[p++]=32;p=w(b,p,I-o.y1*C);b[p++]=32;p=w(b,p,g+(o.x2+B*o.y2)*C);b[p++]=32;p=w(b,p,I-o.y2*C);b[p++]=32;p=w(b,p,g+(o.x+B*o.y)*C);b[p++]=32;p=w(b,p,I-o.y*C);break;',
  'case"Z":b[p++]=90;break}',
  'return b.toString("latin1",0,p)}',
  "var __dsaPathBytes;",
].join("");

/**
 * The stock module's text with its path writer replaced, more shaped runs and the font engines kept, and content masks
 * written only where something points to them; or null when any of the stock text replaced is not the one we know.
 */
export function fastPathSource(stock) {
  const once = (text) => stock.split(text).length === 2;
  const known = [STOCK_PATH_WRITER, STOCK_SHAPED_RUNS, STOCK_ENGINE_HEAD, STOCK_SHAPED_RUN_LOOKUP, STOCK_CONTENT_MASK, ...STOCK_ALIGNMENT_MAPS];
  if (!stock.includes(STOCK_ROUNDING) || !known.every(once)) return null;
  const helper = writeTenths.toString().replace(/^function writeTenths\(/, "function __dsaWriteTenths(");
  const alignment = STOCK_ALIGNMENT_MAPS.reduce((text, map, i) => text.replace(map, () => `(__dsaAlignment${i}??=${map})`), stock);
  const kept = `\nvar ${STOCK_ALIGNMENT_MAPS.map((_, i) => `__dsaAlignment${i}`).join(",")};\n`;
  return (alignment + kept)
    .replace(STOCK_PATH_WRITER, () => FAST_PATH_WRITER + helper)
    .replace(STOCK_SHAPED_RUNS, SHAPED_RUNS_KEPT)
    .replace(STOCK_ENGINE_HEAD, () => KEPT_ENGINES)
    .replace(STOCK_SHAPED_RUN_LOOKUP, () => ENGINE_SHAPED_RUNS)
    .replace(STOCK_CONTENT_MASK, () => POINTED_CONTENT_MASK);
}

/** The stock module (its ES build), found the way the renderer threads' own import of "satori" finds it. */
export function stockSatoriFile() {
  return path.join(path.dirname(createRequire(import.meta.url).resolve("satori")), "index.js");
}

/** Where the install writes the fast copy: beside the stock module, so its imports resolve to the same packages. */
export function fastSatoriFile(stockFile = stockSatoriFile()) {
  return path.join(path.dirname(stockFile), "index.dsa-fast-paths.mjs");
}

/**
 * Writes the fast copy; false when the stock module's path writer is not the one we know: then nothing is written and
 * a copy left from an earlier satori is removed, so the threads use the installed satori, not an old one.
 */
export function writeFastSatori(stockFile = stockSatoriFile(), target = fastSatoriFile(stockFile)) {
  const source = fastPathSource(fs.readFileSync(stockFile, "utf8"));
  if (source === null) {
    fs.rmSync(target, { force: true });
    return false;
  }
  const partial = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(partial, `// Written by scripts/satori-fast-paths.mjs from satori's index.js; see lib/history/share/satori-paths.mjs in DSA.\n${source}`);
  fs.renameSync(partial, target); // a thread loading it meanwhile reads the old copy or the new one, never half of one
  return true;
}

/**
 * satori for a renderer thread: the fast copy when the install wrote it, else the stock module. A copy that is
 * there but does not load (cut short by a full disk, edited by hand) also falls back, with the reason: a renderer
 * thread that failed to start would leave every share image unanswered.
 */
export async function loadSatori(file = fastSatoriFile()) {
  let failure;
  if (fs.existsSync(file)) {
    try {
      const copy = (await import(pathToFileURL(file).href)).default;
      if (typeof copy === "function") return { satori: copy, fastPaths: true };
      failure = `${file} has no satori function as its default export`;
    } catch (error) {
      failure = `${file} does not load: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return { satori: (await import("satori")).default, fastPaths: false, ...(failure ? { failure } : {}) };
}
