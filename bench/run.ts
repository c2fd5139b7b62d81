// `npm run bench`: every benchmark in turn; each prints its figures against a same-run baseline.
await import('./run-overhead.js');
await import('./workflow-latency.js');
await import('./gateway.js');
await import('./sdk-streams.js');
await import('./scale.js');
await import('./search-latency.js');
await import('./retrieval-quality.js');
