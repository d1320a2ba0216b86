import type { UserRow } from "../../../db/schema";
import { db } from "../../../db";
import { profilePath, publicPagesOn, servicePath, siteUrl } from "../discovery/public.server";
import { assertId, now, type PageMeta } from "../platform/records.server";
import { serviceReviews, type Rating, type ReviewJson } from "../reputation/reviews.server";
import type { ServiceImageJson } from "./service-images.server";
import { getService, listServices, type ServiceJson } from "./services.server";
import { recommendedServices } from "../discovery/matches.server";

// Ready-made services as their public pages show them (docs/product.md, "Serviços prontos"):
// /servicos (the catalogue) and /servicos/<slug>-<id> (a service). Reads go through the service
// layer (its rules of who sees what); here they gain their addresses and lose what a page does not
// show (the questions to the buyer, the moves, the moderation).

/** A service's card in the catalogue. */
export type PublicServiceItem = {
  id: string;
  path: string;
  title: string;
  category: string;
  price_from_cents: number;
  delivery_days_min: number;
  rating: Rating;
  freelancer: { name: string; identity_verified: boolean };
  /** Its first image, the card's picture. */
  cover_url: string | null;
};

/** A service's page: what anyone may read of it, where it lives and where its freelancer's profile is. */
export type PublicService = Omit<
  ServiceJson,
  "questions" | "allowed_actions" | "moderation" | "freelancer" | "images"
> & {
  /** Its images in their order (the gallery; the first is the card's and the shared link's picture). */
  images: ServiceImageJson[];
  path: string;
  url: string;
  freelancer: ServiceJson["freelancer"] & {
    /** Their public profile's address; null when visitors cannot see it (kept from them, or hidden). */
    path: string | null;
  };
  /** Not public now (a draft, paused, pending or hidden): only its owner reads it, to check it. */
  preview: boolean;
  /** The newest published reviews by those who bought it. */
  reviews: ReviewJson[];
};

/**
 * One page of the catalogue for the list's filters (the service layer's list, the one of GET
 * /api/services). A visitor's, as /vagas is: 404 while public pages are off, three statements (the
 * settings, the page and the count). Someone signed in reads it whatever the switch, as the API
 * answers them (two statements): the catalogue is their account's list of services too, as
 * /opportunities is of the opportunities that /vagas shows visitors.
 */
export async function listPublicServices(
  query: Record<string, unknown>,
  viewer: Pick<UserRow, "id"> | null = null,
): Promise<{ data: PublicServiceItem[]; meta: PageMeta & { total_capped?: boolean } }> {
  const { data, meta } = await listServices(query, viewer);
  return { meta, data: data.map(publicServiceItem) };
}

/** A service as the catalogue's card shows it. */
export function publicServiceItem(s: ServiceJson): PublicServiceItem {
  return {
    id: s.id,
    path: servicePath(s),
    title: s.title,
    category: s.category,
    price_from_cents: s.price_from_cents,
    delivery_days_min: s.delivery_days_min,
    rating: s.rating,
    freelancer: { name: s.freelancer.name, identity_verified: s.freelancer.identity_verified },
    cover_url: s.cover_url,
  };
}

/** How many services "Para você" shows above the catalogue. */
export const FOR_YOU_SERVICES = 4;

/**
 * "Para você" above the catalogue, for a signed-in merchant reading it without a filter: the first
 * services of recommendedServices (three statements; one without opportunities). Nobody else gets
 * any (and no statement).
 */
export async function servicesForMerchant(
  viewer: UserRow | null,
  filters: Record<string, string>,
): Promise<PublicServiceItem[] | null> {
  if (viewer?.account_type !== "merchant" || Object.keys(filters).length) return null;
  const { data } = await recommendedServices(viewer, { per_page: FOR_YOU_SERVICES });
  return data.map(publicServiceItem);
}

/**
 * A service's page: for anyone while it is public, for its owner in any state (404 otherwise).
 * While public pages are off it is 404 for visitors; someone signed in still reads it (the
 * catalogue's cards lead here, and no page of the account shows a service to its buyer, as
 * /opportunities/<id> shows an opportunity), without the link to its freelancer's public profile,
 * which is off too. Five statements for a visitor (the settings, the service and its images,
 * whether its freelancer's profile is public, the reviews of those who bought it), the last three
 * read together.
 */
export async function getPublicService(viewer: Pick<UserRow, "id"> | null, id: string): Promise<PublicService> {
  assertId(id);
  // A visitor's switch is read by getService, beside the service.
  const profilesShown = viewer === null || (await publicPagesOn());
  const [service, profile, reviews] = await Promise.all([
    getService(viewer, id),
    db
      .selectFrom("services as s")
      .innerJoin("users as u", "u.id", "s.freelancer_id")
      .select("u.id")
      .where("s.id", "=", id)
      .where("u.public_profile", "=", 1)
      .where("u.profile_hidden_at", "is", null)
      .where("u.banned_at", "is", null)
      .where((eb) => eb.or([eb("u.suspended_until", "is", null), eb("u.suspended_until", "<=", now())]))
      .executeTakeFirst(),
    serviceReviews(id),
  ]);
  const { questions: _questions, allowed_actions: _actions, moderation, freelancer, images, ...shown } = service;
  const path = servicePath(service);
  return {
    ...shown,
    images: images ?? [],
    path,
    url: siteUrl(path),
    freelancer: { ...freelancer, path: profile && profilesShown ? profilePath(freelancer) : null },
    preview: service.status !== "published" || moderation?.hidden === true,
    reviews,
  };
}
