/** nDCG@10 of one ranking (document ids, best first) against graded relevance judgments. */
export function ndcgAt10(ranked: string[], relevant: Map<string, number>): number {
  const gain = (grade: number, index: number) => (2 ** grade - 1) / Math.log2(index + 2);
  const dcg = ranked.slice(0, 10).reduce((total, id, index) => total + gain(relevant.get(id) ?? 0, index), 0);
  const ideal = [...relevant.values()].sort((left, right) => right - left).slice(0, 10);
  const idcg = ideal.reduce((total, grade, index) => total + gain(grade, index), 0);
  return idcg === 0 ? 0 : dcg / idcg;
}
