import type { Trace } from '../../../api';

/** A duration as a person reads it: milliseconds under a second, else seconds. */
export function durationLabel(milliseconds: number): string {
  if (milliseconds < 1) return `${milliseconds.toFixed(2)} ms`;
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  return `${(milliseconds / 1000).toFixed(2)} s`;
}

/** A trace's or a span's status: OK and ERROR stand out, UNSET stays quiet. */
export function StatusBadge({ status }: { status: Trace['status'] }) {
  const look = status === 'ERROR' ? 'status-failed' : status === 'OK' ? 'status-succeeded' : '';
  return <span className={`status ${look}`}>{status}</span>;
}
