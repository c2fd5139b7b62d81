/** The answer to a DELETE of a resource addressed by GUID. */
export function removed(guid: string) {
  return { guid, deleted: true };
}
