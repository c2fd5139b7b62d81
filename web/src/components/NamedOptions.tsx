/** A select's options for named records (Apps, Actions), valued by GUID. */
export function NamedOptions({ records }: { records: { guid: string; name: string }[] | undefined }) {
  return (records ?? []).map((record) => (
    <option key={record.guid} value={record.guid}>
      {record.name}
    </option>
  ));
}
