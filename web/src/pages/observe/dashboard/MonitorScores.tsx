import { Link } from 'react-router';
import type { Statistics } from '../../../api';
import { DailyChart } from '../../../components/DailyChart';

const palette = ['#2457c5', '#1b7a4f', '#b3261e', '#8a5a00', '#6b3fa0', '#00768a'];
const share = (value: number) => value.toFixed(2);

/**
 * Monitors' daily mean score per evaluator (docs/evaluations.md#monitors): one line each, and a link
 * to the generations a monitor scored low.
 */
export function MonitorScores({ days, scores }: { days: string[]; scores: Statistics['scores'] }) {
  if (scores.length === 0)
    return (
      <p className="muted">
        No monitor scores in this span. A monitor scores a share of an Action’s production generations in the
        background (<code>POST /v1/monitors</code>).
      </p>
    );
  const evaluators = new Map<string, string>();
  for (const score of scores) evaluators.set(score.evaluator, score.name ?? score.evaluator);
  const series = [...evaluators].map(([guid, name], index) => {
    const byDay = new Map(
      scores.filter((score) => score.evaluator === guid).map((score) => [score.day, score.mean]),
    );
    return {
      label: name,
      values: days.map((day) => byDay.get(day) ?? null),
      color: palette[index % palette.length]!,
    };
  });
  return (
    <>
      <div className="chart-grid">
        <DailyChart
          title="Monitor scores (daily mean)"
          days={days}
          series={series}
          format={share}
          range={[0, 1]}
        />
      </div>
      <ul className="inline-links" aria-label="Low-scored generations">
        {[...evaluators].map(([guid, name]) => (
          <li key={guid}>
            <Link to={`/generations?evaluator=${guid}&score_below=0.5`}>
              {name}: generations scored below 0.5
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
