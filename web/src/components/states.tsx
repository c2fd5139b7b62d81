import type { ReactNode } from 'react';

/** What a page shows while its data loads. */
export function Loading({ what }: { what: string }) {
  return (
    <p className="page-state" aria-busy="true">
      Loading {what}…
    </p>
  );
}

/** A request that failed: its message, said so a screen reader announces it. */
export function Failure({ what, error }: { what: string; error: Error }) {
  return (
    <p className="page-state" role="alert">
      Could not load {what}: {error.message}
    </p>
  );
}

/** A list with nothing in it yet: what it would hold and how to add the first one. */
export function Empty({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="page-state empty">
      <h2>{title}</h2>
      {children}
    </div>
  );
}
