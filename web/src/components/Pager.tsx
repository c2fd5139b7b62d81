/** Previous/next over a server-paged list, with where the page stands in the whole. */
export function Pager({
  skip,
  pageSize,
  total,
  hasNext,
  onSkip,
}: {
  skip: number;
  pageSize: number;
  total: number;
  hasNext: boolean;
  onSkip: (skip: number) => void;
}) {
  return (
    <nav className="pager" aria-label="Pages">
      <span>
        {total === 0 ? 0 : skip + 1}–{Math.min(skip + pageSize, total)} of {total.toLocaleString()}
      </span>
      <button type="button" disabled={skip === 0} onClick={() => onSkip(Math.max(0, skip - pageSize))}>
        Previous
      </button>
      <button type="button" disabled={!hasNext} onClick={() => onSkip(skip + pageSize)}>
        Next
      </button>
    </nav>
  );
}
