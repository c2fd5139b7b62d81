import type { ReactNode } from 'react';

/**
 * A secret or a single-use link shown once (a new API key, a webhook's signing secret, an
 * invitation): what to do with it, the value, a way to copy it, and Done to put it away.
 */
export function ShownOnce({
  value,
  children,
  copy = false,
  onDone,
}: {
  value: string;
  children: ReactNode;
  copy?: boolean;
  onDone: () => void;
}) {
  return (
    <div className="callout" role="status">
      <p>{children}</p>
      <code className="secret">{value}</code>{' '}
      {copy && (
        <>
          <button
            type="button"
            className="secondary"
            onClick={() => void navigator.clipboard?.writeText(value)}
          >
            Copy
          </button>{' '}
        </>
      )}
      <button type="button" className="secondary" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
