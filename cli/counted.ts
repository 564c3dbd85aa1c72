/** `1 scenario`, `2 scenarios`, `0 checks`: a count with its noun in the right number, for every line a report prints. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
