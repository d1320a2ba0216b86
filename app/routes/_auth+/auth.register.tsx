// Another address of the registration page (SPEC.md §2).
export { action, default, loader, meta } from "./register";
