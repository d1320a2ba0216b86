import type { IconName } from "~/components/ui/icons";

export type AdminNavItem = { to: string; label: string; icon: IconName };

/**
 * The operator's menu (the shell's sidebar for an operator account), in the `admin` namespace.
 * A new console page adds its line here.
 */
export const ADMIN_NAV: AdminNavItem[] = [
  { to: "/admin", label: "nav.overview", icon: "dashboard" },
  { to: "/admin/reports", label: "nav.reports", icon: "flag" },
  { to: "/admin/disputes", label: "nav.disputes", icon: "scale" },
  { to: "/admin/payments", label: "nav.payments", icon: "money" },
  { to: "/admin/notas", label: "nav.notas", icon: "list" },
  { to: "/admin/jobs", label: "nav.jobs", icon: "list" },
  { to: "/admin/emails", label: "nav.emails", icon: "list" },
  { to: "/admin/identity", label: "nav.identity", icon: "shield" },
  { to: "/admin/premoderation", label: "nav.premoderation", icon: "shield" },
  { to: "/admin/users", label: "nav.users", icon: "people" },
  { to: "/admin/audit", label: "nav.audit", icon: "list" },
  { to: "/admin/settings", label: "nav.settings", icon: "settings" },
];

/** The top bar's title for a console path: the longest menu entry it falls under. */
export function adminTitleKey(pathname: string): string {
  const match = ADMIN_NAV.filter((item) => pathname === item.to || pathname.startsWith(`${item.to}/`)).sort(
    (a, b) => b.to.length - a.to.length,
  )[0];
  return match?.label ?? "nav.overview";
}
