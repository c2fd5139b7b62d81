import { diffWords } from 'diff';

/** Longer outputs are shown whole, not diffed: a word diff of them costs more than it tells. */
const longestDiffed = 20_000;

/**
 * Two outputs side by side with the words that differ marked: removed words in the base, added ones
 * in the candidate (each also said in words for a screen reader).
 */
export function WordDiff({ base, candidate }: { base: string | null; candidate: string | null }) {
  const before = base ?? '';
  const after = candidate ?? '';
  if (before.length + after.length > longestDiffed)
    return (
      <>
        <td className="output">{before}</td>
        <td className="output">{after}</td>
      </>
    );
  const parts = diffWords(before, after);
  return (
    <>
      <td className="output">
        {parts
          .filter((part) => !part.added)
          .map((part, index) =>
            part.removed ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts of a computed diff have only their place
              <del key={index} className="removed-text">
                <span className="visually-hidden">removed: </span>
                {part.value}
              </del>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts of a computed diff have only their place
              <span key={index}>{part.value}</span>
            ),
          )}
      </td>
      <td className="output">
        {parts
          .filter((part) => !part.removed)
          .map((part, index) =>
            part.added ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts of a computed diff have only their place
              <ins key={index} className="added-text">
                <span className="visually-hidden">added: </span>
                {part.value}
              </ins>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts of a computed diff have only their place
              <span key={index}>{part.value}</span>
            ),
          )}
      </td>
    </>
  );
}
