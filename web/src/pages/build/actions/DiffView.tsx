import { useMemo } from 'react';
import { sideBySide, type VersionContent, versionText } from './version-diff';

/** Two versions side by side, line by line: a saved one, or the editor's draft as it would be saved. */
export function DiffView({
  before,
  after,
  labels,
}: {
  before: VersionContent;
  after: VersionContent;
  labels: [before: string, after: string];
}) {
  const rows = useMemo(() => sideBySide(versionText(before), versionText(after)), [before, after]);
  const changes = rows.filter((row) => row.kind !== 'same').length;
  return (
    <div className="diff-frame">
      <p className="muted" aria-live="polite">
        {changes === 0 ? 'The two are the same.' : `${changes} changed line${changes === 1 ? '' : 's'}`}
      </p>
      <table className="diff" aria-label={`Differences between ${labels[0]} and ${labels[1]}`}>
        <thead>
          <tr>
            <th scope="col" colSpan={2}>
              {labels[0]}
            </th>
            <th scope="col" colSpan={2}>
              {labels[1]}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows of a computed diff have only their place
            <tr key={index} className={row.kind}>
              <td className="line-number">{row.left?.number}</td>
              <td className={row.left && row.kind !== 'same' ? 'removed-text' : undefined}>
                {row.left && row.kind !== 'same' && <span className="visually-hidden">removed: </span>}
                {row.left?.text}
              </td>
              <td className="line-number">{row.right?.number}</td>
              <td className={row.right && row.kind !== 'same' ? 'added-text' : undefined}>
                {row.right && row.kind !== 'same' && <span className="visually-hidden">added: </span>}
                {row.right?.text}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
