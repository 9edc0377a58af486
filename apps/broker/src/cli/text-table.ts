// Plain-text tables for `nereus admin`: a header row, a rule, then the rows, columns padded to their widest cell
// (numbers right-aligned). No colours or box drawing, so the output pipes and greps well.

/** A column: its heading and whether its cells are right-aligned. */
export interface Column {
  readonly heading: string;
  readonly numeric?: boolean;
}

/** The table as lines joined by "\n" (no trailing newline); `null`/`undefined` cells print as "-". */
export function textTable(columns: readonly Column[], rows: readonly (readonly unknown[])[]): string {
  const cells = rows.map((row) => columns.map((_, index) => cellText(row[index])));
  const widths = columns.map((column, index) =>
    Math.max(column.heading.length, ...cells.map((row) => row[index]!.length)),
  );
  const line = (values: readonly string[]): string =>
    values
      .map((value, index) =>
        columns[index]!.numeric === true ? value.padStart(widths[index]!) : value.padEnd(widths[index]!),
      )
      .join("  ")
      .trimEnd();
  return [
    line(columns.map((column) => column.heading)),
    line(widths.map((width) => "-".repeat(width))),
    ...cells.map(line),
  ].join("\n");
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "-";
  return String(value);
}
