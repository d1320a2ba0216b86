// The login endpoint's second address, used by clients as a retry (SPEC.md §7).
export { action, loader } from "./login";
