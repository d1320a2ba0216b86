import { Form, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFocusTrap } from "~/lib/focus-trap";
import { useHydrated } from "~/lib/hydrated";
import { APP_VERSION } from "~/lib/layout";
import { displayNameOf } from "~/lib/users";
import type { UserJson } from "~/services/accounts/users.server";
import { ADMIN_NAV, adminTitleKey } from "~/components/admin/nav";
import { clearAuthStorage } from "~/components/accounts/auth-mirror";
import { Avatar } from "~/components/ui/avatar";
import { Icon, type IconName } from "~/components/ui/icons";
import { LanguageSwitch } from "./language-switch";
import { LegalLinks } from "~/components/ui/legal-links";

type NavItem = { to: string; label: string; icon: IconName };

/** The sidebar's links, in order; `only` marks those of one account type. */
const NAV: (NavItem & { only?: UserJson["account_type"] })[] = [
  { to: "/dashboard", label: "nav.dashboard", icon: "dashboard" },
  { to: "/opportunities", label: "nav.my_opportunities", icon: "briefcase", only: "merchant" },
  { to: "/opportunities", label: "nav.opportunities", icon: "briefcase", only: "freelancer" },
  { to: "/applications/awaiting-confirmation", label: "nav.pending_applications", icon: "inbox", only: "merchant" },
  { to: "/my-applications", label: "nav.my_applications", icon: "send", only: "freelancer" },
  { to: "/meus-servicos", label: "services:mine.nav", icon: "briefcase", only: "freelancer" },
  { to: "/contracts", label: "nav.contracts", icon: "contract" },
  { to: "/mensagens", label: "nav.messages", icon: "chat" },
  { to: "/financeiro", label: "nav.finance", icon: "dashboard" },
  { to: "/invitations", label: "nav.invitations", icon: "inbox", only: "freelancer" },
  { to: "/freelancers", label: "nav.freelancers", icon: "people" },
  { to: "/profile", label: "nav.profile", icon: "user" },
];

function navItems(role: UserJson["account_type"]): NavItem[] {
  // An operator's menu is the console's, whose labels are in the `admin` namespace.
  if (role === "operator") return ADMIN_NAV.map((item) => ({ ...item, label: `admin:${item.label}` }));
  return NAV.filter((item) => item.only === undefined || item.only === role);
}

/** The top bar's title for the current page (its page's title). */
export function topbarTitleKey(pathname: string, role: UserJson["account_type"]) {
  // An operator's account pages (their security settings) are not the console's.
  if (role === "operator" && /^\/admin(\/|$)/.test(pathname)) return `admin:${adminTitleKey(pathname)}`;
  if (pathname.startsWith("/dashboard")) return "nav.dashboard";
  if (pathname === "/opportunities" || pathname === "/") {
    return role === "merchant" ? "nav.my_opportunities" : "nav.available_opportunities";
  }
  if (pathname.startsWith("/my-applications")) return "nav.my_applications";
  if (pathname.startsWith("/applications/awaiting-confirmation")) return "nav.pending_applications";
  if (pathname.startsWith("/contracts")) return "nav.contracts";
  if (pathname.startsWith("/financeiro")) return "nav.finance";
  if (pathname.startsWith("/identidade")) return "titles.identity";
  if (/^\/applications\/[^/]+\/messages/.test(pathname) || pathname.startsWith("/mensagens")) return "nav.messages";
  if (pathname.startsWith("/para-voce")) return "nav.for_you";
  if (pathname.startsWith("/meus-servicos")) return "services:mine.nav";
  if (pathname.startsWith("/buscas-salvas")) return "nav.saved_searches";
  if (pathname.startsWith("/profile")) return "nav.profile";
  if (pathname.startsWith("/freelancers")) return "nav.freelancers";
  if (pathname.startsWith("/invitations")) return "nav.invitations";
  if (pathname.startsWith("/primeiros-passos")) return "welcome.title";
  if (pathname.startsWith("/account/security")) return "nav.account_security";
  if (pathname.startsWith("/pages/profile-setting")) return "titles.profile_settings";
  if (pathname.startsWith("/notifications")) return "titles.notifications";
  return "brand";
}

function LogoutButton({ className, children }: { className: string; children: ReactNode }) {
  return (
    <Form method="post" action="/logout" onSubmit={() => clearAuthStorage()}>
      <button type="submit" className={className}>
        {children}
      </button>
    </Form>
  );
}

/** The width below which the sidebar folds away behind the menu button (app.css). */
const PHONE_QUERY = "(max-width: 900px)";

/**
 * The phone menu. Without JavaScript a checkbox and its labels open and close it; with it, a real
 * button does, and the open menu holds the keyboard (Tab stays inside, Escape closes) with the
 * page behind it inert, then gives focus back to the button, or to the content after a link.
 */
function useMobileMenu() {
  const location = useLocation();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const sidebar = useRef<HTMLElement>(null);
  const page = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const followedLink = useRef(false);

  // Any navigation (a link of the menu, even to the page already shown) closes it.
  useEffect(() => {
    followedLink.current = true;
    setOpen(false);
  }, [location.key]);
  useEffect(() => {
    // Widened past the phone layout, the sidebar is no longer a menu over the page.
    const query = window.matchMedia(PHONE_QUERY);
    const onChange = () => {
      if (!query.matches) setOpen(false);
    };
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  useEffect(() => {
    if (page.current) page.current.inert = open;
  }, [open]);
  useFocusTrap(sidebar, open, {
    onEscape: () => setOpen(false),
    returnTo: () => (followedLink.current ? document.getElementById("content") : button.current),
  });

  const openMenu = () => {
    followedLink.current = false;
    setOpen(true);
  };
  return { hydrated, open, setOpen, openMenu, sidebar, page, button };
}

export function Shell({
  user,
  children,
  bell,
  banner,
}: {
  user: UserJson;
  children: ReactNode;
  bell?: ReactNode;
  /** Shown above the page's content (the request to confirm the e-mail). */
  banner?: ReactNode;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const menu = useMobileMenu();
  return (
    <div className="shell">
      <a href="#content" className="skip-link">
        {t("nav.skip_to_content")}
      </a>
      {/* A checkbox opens the sidebar on phones, with or without JavaScript. */}
      <input
        type="checkbox"
        id="nav-toggle"
        className="nav-toggle"
        aria-hidden="true"
        tabIndex={-1}
        checked={menu.open}
        onChange={(event) => (event.currentTarget.checked ? menu.openMenu() : menu.setOpen(false))}
      />
      <aside className="sidebar" id="sidebar" aria-label={t("nav.label")} ref={menu.sidebar}>
        <div className="sidebar-head">
          <a href="/" className="sidebar-brand">
            <span className="logo-mark" aria-hidden="true">
              F
            </span>
            <span>Freela</span>
          </a>
          {menu.hydrated ? (
            <button
              type="button"
              className="icon-button sidebar-close"
              onClick={() => menu.setOpen(false)}
              title={t("nav.close_menu")}
            >
              <Icon name="close" />
              <span className="sr-only">{t("nav.close_menu")}</span>
            </button>
          ) : null}
        </div>
        <nav aria-label={t("nav.label")}>
          <ul>
            {navItems(user.account_type).map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.to === "/admin"} className="sidebar-link" prefetch="intent">
                  <Icon name={item.icon} />
                  <span>{t(item.label)}</span>
                </NavLink>
              </li>
            ))}
            <li>
              <LogoutButton className="sidebar-link sidebar-logout">
                <Icon name="logout" />
                <span>{t("nav.logout")}</span>
              </LogoutButton>
            </li>
          </ul>
        </nav>
      </aside>
      {/* Without JavaScript, a click beside the open menu closes it; hidden from assistive technology. */}
      {/* eslint-disable-next-line jsx-a11y/label-has-associated-control */}
      <label htmlFor="nav-toggle" className="sidebar-backdrop" aria-hidden="true" />
      <div className="main" ref={menu.page}>
        <header className="topbar">
          {menu.hydrated ? (
            <button
              type="button"
              ref={menu.button}
              className="icon-button menu-button"
              aria-expanded={menu.open}
              aria-controls="sidebar"
              onClick={menu.openMenu}
              title={t("nav.open_menu")}
            >
              <Icon name="menu" />
              <span className="sr-only">{t("nav.open_menu")}</span>
            </button>
          ) : (
            <label htmlFor="nav-toggle" className="icon-button menu-button" title={t("nav.open_menu")}>
              <Icon name="menu" />
              <span className="sr-only">{t("nav.open_menu")}</span>
            </label>
          )}
          <h1 className="topbar-title">{t(topbarTitleKey(pathname, user.account_type))}</h1>
          <div className="topbar-actions">
            <LanguageSwitch />
            {bell}
            <details className="user-menu">
              <summary>
                <Avatar user={user} size="sm" />
                <span className="greeting">
                  {t("topbar.greeting", { name: displayNameOf(user) ?? t("topbar.default_name") })}
                </span>
              </summary>
              <div className="menu">
                {user.account_type === "operator" ? null : (
                  <>
                    <a href="/profile" className="menu-item">
                      <Icon name="user" /> {t("nav.profile")}
                    </a>
                    <a href="/account/security" className="menu-item">
                      <Icon name="lock" /> {t("nav.account_security")}
                    </a>
                  </>
                )}
                <LogoutButton className="menu-item">
                  <Icon name="logout" /> {t("nav.logout")}
                </LogoutButton>
              </div>
            </details>
          </div>
        </header>
        {/* The skip link's target: focusable by script only, so it takes no place in the tab order. */}
        <main className="content" id="content" tabIndex={-1}>
          {banner}
          {children}
        </main>
        <footer className="footer">
          <span>© {new Date().getFullYear()} Freela</span>
          <span>{t("footer.version", { version: APP_VERSION })}</span>
          <span>
            <LegalLinks />
          </span>
        </footer>
      </div>
    </div>
  );
}
