import type { Kysely } from "kysely";
import { DEFAULT_PASSWORD, createUser } from "./factories";
import type { Database } from "./schema";

export const demoAccounts = {
  password: DEFAULT_PASSWORD,
  users: [
    {
      email: "ana@freela.dev",
      full_name: "Ana Beatriz Souza",
      display_name: "Ana",
      account_type: "merchant" as const,
      bio: "Dona da Padaria Pão de Mel, em Belo Horizonte. Sempre buscando gente boa para marketing e design.",
      skills: ["Gestão", "Varejo"],
    },
    {
      email: "carlos@freela.dev",
      full_name: "Carlos Eduardo Lima",
      display_name: "Carlos",
      account_type: "merchant" as const,
      bio: "Fundador da Lima Tech, startup de logística em Recife.",
      skills: ["Produto", "Logística"],
    },
    {
      email: "julia@freela.dev",
      full_name: "Júlia Martins Rocha",
      display_name: "Júlia",
      account_type: "freelancer" as const,
      bio: "Desenvolvedora front-end há 7 anos. React, TypeScript e acessibilidade.",
      skills: ["React", "TypeScript", "Acessibilidade"],
    },
    {
      email: "pedro@freela.dev",
      full_name: "Pedro Henrique Alves",
      display_name: "Pedro",
      account_type: "freelancer" as const,
      bio: "Designer de marcas e interfaces. Portfólio com mais de 80 projetos.",
      skills: ["Figma", "Branding", "UI"],
    },
  ],
};

/** Seeds the demo accounts into an empty database; returns false when it already has users. */
export async function seedDemo(db: Kysely<Database>) {
  const existing = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  if (existing) return false;
  for (const account of demoAccounts.users) {
    await createUser(db, { ...account, password: demoAccounts.password });
  }
  return true;
}
