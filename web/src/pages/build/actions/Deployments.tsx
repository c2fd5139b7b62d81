/** Which version each environment runs, as chips. */
export function Deployments({ deployments }: { deployments: Record<string, number> }) {
  const entries = Object.entries(deployments);
  if (entries.length === 0) return <span className="muted">not deployed</span>;
  return (
    <ul className="chips inline" aria-label="Deployments">
      {entries.map(([environment, version]) => (
        <li key={environment}>
          {environment} v{version}
        </li>
      ))}
    </ul>
  );
}
