/**
 * A name a server takes as an identifier, made from what a person typed ("Everything Server" ->
 * "everything-server", "Café notes" -> "cafe-notes"): lowercase ASCII, other runs as -, no - or _ at
 * either end, at most `max` characters. `underscores` keeps _ where the name allows it. Pure.
 */
export function slugify(text: string, max: number, underscores = false): string {
  const other = underscores ? /[^a-z0-9_-]+/g : /[^a-z0-9-]+/g;
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(other, '-')
    .replace(/^[-_]+/, '')
    .slice(0, max)
    .replace(/[-_]+$/, '');
}
