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

/**
 * The states of one request in one place: loading, failed, empty (when `isEmpty` says so), or its
 * data handed to `children`.
 */
export function QueryView<Data>({
  query,
  what,
  isEmpty,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: Error | null; data: Data | undefined };
  what: string;
  isEmpty?: (data: Data) => boolean;
  empty?: ReactNode;
  children: (data: Data) => ReactNode;
}) {
  if (query.isPending) return <Loading what={what} />;
  if (query.isError || query.data === undefined)
    return <Failure what={what} error={query.error ?? new Error('no answer')} />;
  if (isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
