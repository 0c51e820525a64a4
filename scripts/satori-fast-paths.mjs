// postinstall: writes satori's copy with the faster glyph-path writer, a larger shaped-text cache and kept font engines
// (lib/history/share/satori-paths.mjs). A satori whose writer, cache bound or engine method we do not know leaves the
// stock module in use: a warning here, not a failed install.
import { fastSatoriFile, writeFastSatori } from "../lib/history/share/satori-paths.mjs";

if (writeFastSatori()) console.log(`satori: glyph-path writer replaced, shaped-text cache enlarged and font engines kept in ${fastSatoriFile()}`);
else console.warn("satori: its glyph-path writer, shaped-text cache or font-engine method is not the one lib/history/share/satori-paths.mjs knows; share cards use stock satori");
