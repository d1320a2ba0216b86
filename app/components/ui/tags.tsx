import type { ReactNode } from "react";

/** A list of tags (skills, say); `empty` stands in its place when there are none. */
export function Tags({
  items,
  small = false,
  empty = null,
}: {
  items: readonly string[];
  small?: boolean;
  empty?: ReactNode;
}) {
  if (items.length === 0) return <>{empty}</>;
  return (
    <ul className={small ? "tags tags-sm" : "tags"}>
      {items.map((item) => (
        <li key={item} className="tag">
          {item}
        </li>
      ))}
    </ul>
  );
}
