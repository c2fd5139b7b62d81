/** Bytes by key. Embedded: files under the data dir; scale-out: PostgreSQL or an S3-compatible bucket. */
export type BlobStore = {
  put(key: string, data: Buffer): Promise<void>;
  /** `undefined` when no blob has that key. */
  get(key: string): Promise<Buffer | undefined>;
  delete(key: string): Promise<void>;
};

const keyPattern = /^[A-Za-z0-9][A-Za-z0-9_-]*(\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/;

/** Keys are built by services from GUIDs; anything else (`..`, absolute paths) is a programming error. */
export function assertBlobKey(key: string): void {
  if (!keyPattern.test(key) || key.length > 512) throw new Error(`Invalid blob key: ${key}`);
}
