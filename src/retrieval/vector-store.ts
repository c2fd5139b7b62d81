import { type SQL, sql } from 'drizzle-orm';

/**
 * Where vectors are compared. Embeddings are stored as unit-length `real[]`; with pgvector an HNSW
 * index over `embedding::vector(n)` (one partial index per dimension) answers nearest-neighbour
 * queries, and without it (Debian's PostgreSQL) an exact dot product over the Context's rows does.
 */
export type VectorStore = {
  kind: 'pgvector' | 'exact';
  /** The statement creating the dimension's index (pgvector); undefined for the exact fallback. */
  indexStatement(dimensions: number): SQL | undefined;
  /** Cosine similarity of the `documents` row aliased `d` with the query vector, in [-1, 1]. */
  similarity(vector: Float32Array): SQL;
  /** An ORDER BY expression, nearest first, that the index can serve. */
  nearestFirst(vector: Float32Array): SQL;
};

/** A Float32Array as a `real[]` parameter (`{…}` text form). */
export function realArray(vector: Float32Array): string {
  return `{${Array.from(vector).join(',')}}`;
}

function assertDimensions(dimensions: number): number {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 16_000) {
    throw new Error(`Invalid embedding dimensions: ${dimensions}`);
  }
  return dimensions;
}

export function createVectorStore(hasVectorExtension: boolean): VectorStore {
  if (!hasVectorExtension) {
    return {
      kind: 'exact',
      indexStatement: () => undefined,
      similarity: (vector) => sql`lectern_dot_product(d.embedding, ${realArray(vector)}::real[])`,
      nearestFirst: (vector) => sql`lectern_dot_product(d.embedding, ${realArray(vector)}::real[]) DESC`,
    };
  }
  // The dimension is an integer we checked, so it is safe to inline (a type modifier cannot be a parameter).
  const asVector = (vector: Float32Array) => {
    const dimensions = assertDimensions(vector.length);
    return sql`${`[${Array.from(vector).join(',')}]`}::vector(${sql.raw(String(dimensions))})`;
  };
  const column = (dimensions: number) => sql.raw(`(d.embedding::vector(${assertDimensions(dimensions)}))`);
  return {
    kind: 'pgvector',
    indexStatement(dimensions) {
      assertDimensions(dimensions);
      return sql.raw(
        `CREATE INDEX IF NOT EXISTS documents_embedding_${dimensions}_hnsw ON documents ` +
          `USING hnsw ((embedding::vector(${dimensions})) vector_cosine_ops) ` +
          `WHERE embedding_dimensions = ${dimensions}`,
      );
    },
    similarity: (vector) => sql`1 - (${column(vector.length)} <=> ${asVector(vector)})`,
    nearestFirst: (vector) => sql`${column(vector.length)} <=> ${asVector(vector)}`,
  };
}
