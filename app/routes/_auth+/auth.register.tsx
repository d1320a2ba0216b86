// Another address of the registration page (docs/product.md §1).
export { action, default, loader, meta } from "./register";
