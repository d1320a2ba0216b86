/** The "what next" page a new account lands on after confirming its e-mail (docs/product.md, "Cadastro"). */
export const WELCOME_PATH = "/primeiros-passos";
