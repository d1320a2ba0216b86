import { expect, test } from "./fixtures";
import { apiToken, toast } from "./support";

// Reputation as people live it (with JavaScript; the forms as posted without it are
// tests/reputation/reviews-page.test.ts's): after a completed contract both
// sides review each other (the first review hidden until the second), the freelancer replies,
// the merchant finds the rating on the profile and invites the freelancer to a new opportunity,
// and the freelancer declines it from the invitations page.

function story() {
  test("review both ways, reply, rating on the profile, invite and decline", async ({ request, hired }) => {
    const { id } = hired;
    const merchant = hired.merchant.account;
    const freelancer = hired.freelancer.account;
    const asMerchant = await apiToken(request, merchant.email, merchant.password);
    const asFreelancer = await apiToken(request, freelancer.email, freelancer.password);
    const delivered = await request.post(`/api/contracts/${id}/deliveries`, {
      headers: asFreelancer,
      multipart: { message: "Logotipo e paleta de cores finais." },
    });
    expect(delivered.status()).toBe(201);
    expect((await request.post(`/api/contracts/${id}/approve`, { headers: asMerchant })).status()).toBe(200);

    const marina = hired.merchant.page;
    const julia = hired.freelancer.page;

    // The merchant reviews first: without stars the form says so and keeps the comment.
    await marina.goto(`/contracts/${id}`);
    const reviews = marina.getByRole("region", { name: "Avaliações" });
    await reviews.getByLabel("Comentário (opcional)").fill("Entregou antes do prazo e ouviu cada pedido.");
    await reviews.getByRole("button", { name: "Enviar avaliação" }).click();
    await expect(marina.locator("#rating-error")).toHaveText("Escolha de 1 a 5 estrelas.");
    await expect(reviews.getByLabel("Comentário (opcional)")).toHaveValue(
      "Entregou antes do prazo e ouviu cada pedido.",
    );
    await reviews.getByLabel("5 estrelas").check();
    await reviews.getByRole("button", { name: "Enviar avaliação" }).click();
    await expect(toast(marina, "Avaliação enviada.")).toBeVisible();
    await expect(marina.getByText(/Sua avaliação fica oculta até Julinha avaliar você/)).toBeVisible();

    // The freelancer is told, cannot read it yet, and writes theirs: both are published.
    await julia.goto(`/contracts/${id}`);
    await expect(julia.getByText("Julinha já avaliou", { exact: false })).toHaveCount(0);
    await expect(julia.getByText(/Marina já avaliou você/).first()).toBeVisible();
    await expect(julia.getByText("Entregou antes do prazo e ouviu cada pedido.")).toHaveCount(0);
    await julia.getByLabel("4 estrelas").check();
    await julia.getByLabel("Comentário (opcional)").fill("Briefing claro e pagamento em dia.");
    await julia.getByRole("button", { name: "Enviar avaliação" }).click();
    await expect(toast(julia, "Avaliação enviada.")).toBeVisible();
    await expect(julia.getByText("Entregou antes do prazo e ouviu cada pedido.")).toBeVisible();

    // The freelancer replies once, in public.
    await julia.getByRole("button", { name: "Publicar resposta" }).click();
    await expect(julia.locator("#reply-error")).toHaveText("Escreva a resposta: este campo é obrigatório.");
    await julia.getByLabel("Sua resposta pública").fill("Obrigada, Marina! Foi um prazer.");
    await julia.getByRole("button", { name: "Publicar resposta" }).click();
    await expect(toast(julia, "Resposta publicada.")).toBeVisible();
    await expect(julia.getByRole("button", { name: "Publicar resposta" })).toHaveCount(0);

    // The merchant finds the freelancer's rating, review and reply on the public profile.
    const freelancerId = (await (await request.get("/api/profile", { headers: asFreelancer })).json()).user
      .id as string;
    await marina.goto(`/freelancers/${freelancerId}`);
    await expect(marina.locator(".profile-card")).toContainText("5,0");
    await expect(marina.locator(".profile-card")).toContainText("(1 avaliação)");
    const received = marina.getByRole("region", { name: "Avaliações recebidas" });
    await expect(received).toContainText("Entregou antes do prazo e ouviu cada pedido.");
    await expect(received).toContainText("Obrigada, Marina! Foi um prazer.");

    // …and invites her to a new opportunity: the form asks for one and keeps the message.
    const title = `Cardápio ilustrado ${Date.now().toString(36)}`;
    const created = await request.post("/api/opportunities", {
      headers: asMerchant,
      data: {
        title,
        description: "Ilustrações para o novo cardápio da cafeteria, doze itens ao todo.",
        category: "design",
        skills: ["Ilustração"],
        budget_type: "fixed",
        budget_min_cents: 80_000,
        budget_max_cents: 120_000,
        location_type: "remote",
      },
    });
    expect(created.status()).toBe(201);
    await marina.reload();
    const invite = marina.getByRole("region", { name: "Convidar para uma oportunidade" });
    await invite.getByLabel("Mensagem").fill("Adorei o logotipo, topa ilustrar o cardápio?");
    await invite.getByRole("button", { name: "Enviar convite" }).click();
    await expect(marina.locator("#opportunity-error")).toHaveText("Escolha uma das suas oportunidades abertas.");
    await expect(invite.getByLabel("Mensagem")).toHaveValue("Adorei o logotipo, topa ilustrar o cardápio?");
    await invite.getByLabel("Oportunidade").selectOption({ label: title });
    await invite.getByRole("button", { name: "Enviar convite" }).click();
    await expect(toast(marina, "Convite enviado.")).toBeVisible();

    // The freelancer finds the invitation (from the notification) and declines it.
    await julia.goto("/notifications");
    await julia.getByRole("button", { name: new RegExp(`Marina convidou você para “${title}”`) }).click();
    await expect(julia).toHaveURL(/\/invitations$/);
    const card = julia.locator(".invitation").filter({ hasText: title });
    await expect(card).toContainText("Adorei o logotipo, topa ilustrar o cardápio?");
    await expect(card).toContainText("Aguardando resposta");
    await card.getByRole("button", { name: "Recusar convite" }).click();
    await expect(toast(julia, "Convite recusado.")).toBeVisible();
    await expect(julia.locator(".invitation").filter({ hasText: title })).toContainText("Recusado");
  });
}

test.describe("reputation, with JavaScript", () => {
  story();
});
