// Another address of the login page (SPEC.md §2).
export { action, default, loader, meta } from "./login";
