import { warningText, type DataTexts } from "./format";

// What the data setup gets wrong, from the overview's warning codes: each in words, its code beside it in small print
// (as the API and the logs name it; a code this UI does not know shows alone). Nothing is rendered without warnings.
export function DataWarnings({ t, codes }: { t: DataTexts; codes: readonly string[] }) {
  if (codes.length === 0) return null;
  return (
    <section
      aria-labelledby="data-warnings-title"
      data-testid="data-warnings"
      className="rounded-md border border-amber-500/40 bg-amber-50 px-3 py-2.5 text-sm text-amber-900 dark:border-amber-400/30 dark:bg-amber-950/50 dark:text-amber-100"
    >
      <h2 id="data-warnings-title" className="font-semibold">
        {t.warningsTitle}
      </h2>
      <ul className="mt-1 list-disc space-y-1 pl-5">
        {codes.map((code) => {
          const text = warningText(t, code);
          return (
            <li key={code} data-testid="data-warning" data-code={code} className="leading-6 wrap-anywhere">
              {text}
              {text === code ? null : (
                <>
                  {" "}
                  <code className="font-mono text-xs text-amber-800 dark:text-amber-200">{code}</code>
                </>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
