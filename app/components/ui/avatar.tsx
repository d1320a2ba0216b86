import { displayNameOf } from "~/lib/users";

type Person = { full_name: string; display_name?: string | null; photo_url?: string | null };

function initials(name: string) {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join("");
}

export function Avatar({ user, size = "md" }: { user: Person; size?: "sm" | "md" | "lg" }) {
  const name = displayNameOf(user);
  return user.photo_url ? (
    <img className={`avatar avatar-${size}`} src={user.photo_url} alt="" />
  ) : (
    <span className={`avatar avatar-${size} avatar-initials`} aria-hidden="true">
      {initials(name)}
    </span>
  );
}
