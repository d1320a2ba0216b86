// The login endpoint's second address, used by clients as a retry (docs/product.md §1).
export { action, loader } from "./login";
