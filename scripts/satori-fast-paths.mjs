// postinstall: writes satori's copy with the faster glyph-path writer and a larger shaped-text cache
// (lib/history/share/satori-paths.mjs). A satori whose writer or cache bound we do not know leaves the stock module in
// use: a warning here, not a failed install.
import { fastSatoriFile, writeFastSatori } from "../lib/history/share/satori-paths.mjs";

if (writeFastSatori()) console.log(`satori: glyph-path writer replaced and shaped-text cache enlarged in ${fastSatoriFile()}`);
else console.warn("satori: its glyph-path writer or shaped-text cache is not the one lib/history/share/satori-paths.mjs knows; share cards use stock satori");
