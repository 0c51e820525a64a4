// First focusable element: lets keyboard users jump past the navigation.
export function SkipLink({ label }: { label: string }) {
  return (
    <a
      href="#main"
      className="sr-only z-30 rounded bg-accent px-3 py-1.5 text-sm text-accent-fg focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
    >
      {label}
    </a>
  );
}
