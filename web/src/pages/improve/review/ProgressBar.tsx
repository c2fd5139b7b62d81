/** A queue's completed items out of all, as a bar a screen reader reads as a percentage. */
export function ProgressBar({
  counts,
  label,
}: {
  counts: { pending: number; in_review: number; completed: number };
  label: string;
}) {
  const total = counts.pending + counts.in_review + counts.completed;
  return (
    <span className="progress">
      <progress aria-label={label} max={Math.max(total, 1)} value={counts.completed} />
      <span className="muted">
        {counts.completed} of {total}
      </span>
    </span>
  );
}
