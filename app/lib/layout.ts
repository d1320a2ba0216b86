/** The layout defaults (vertical, fluid, dark sidebar, light top bar), carried as data attributes on <html> for styling hooks. */
export const layoutAttributes = {
  "data-layout": "vertical",
  "data-layout-width": "fluid",
  "data-sidebar-size": "sm-hover",
  "data-topbar": "light",
  "data-bs-theme": "light",
  "data-layout-position": "fixed",
  "data-layout-style": "default",
  "data-sidebar": "dark",
  "data-sidebar-image": "none",
  "data-preloader": "disable",
  "data-sidebar-visibility": "show",
} as const;

export const APP_VERSION = "1.0.0";

/** Toast lifetimes by type, in milliseconds (success 5 s, error 8 s, warning 6 s, info 5 s). */
export const toastDurations = { success: 5000, error: 8000, warning: 6000, info: 5000 } as const;
export const DEFAULT_TOAST_DURATION = 5000;
