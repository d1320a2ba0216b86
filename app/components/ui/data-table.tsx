import type { ReactNode } from "react";

/**
 * A table of records (`.data-table`, cards below 640 px, each cell labelled by its column through
 * `data-label`): the caption hidden, since the section's heading names it, and the column headers.
 * An empty column name is the actions column, read out as `actionsLabel`.
 */
export function DataTable({
  caption,
  columns,
  actionsLabel,
  children,
}: {
  caption: string;
  columns: string[];
  actionsLabel?: string;
  children: ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table className="data-table cards-sm">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th key={i} scope="col">
                {c || <span className="visually-hidden">{actionsLabel}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
