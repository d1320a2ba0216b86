// Another address of the login page (docs/product.md §1).
export { action, default, loader, meta } from "./login";
