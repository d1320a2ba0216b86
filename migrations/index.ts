import type { Migration, MigrationProvider } from "kysely";
import type { Engine } from "../db/dialect";
import * as m001 from "./001_initial";
import * as m002 from "./002_opportunities_fts";
import * as m003 from "./003_marketplace_indexes";
import * as m004 from "./004_sort_and_dashboard_indexes";
import * as m005 from "./005_newest_first_indexes";
import * as m006 from "./006_fts_prefix_indexes";
import * as m007 from "./007_offer_sequence";
import * as m008 from "./008_rate_limits";
import * as m009 from "./009_photos";
import * as m010 from "./010_contracts";
import * as m011 from "./011_messages";
import * as m012 from "./012_profile_city_directory";
import * as m013 from "./013_portfolio";
import * as m014 from "./014_invitations";
import * as m015 from "./015_reviews";
import * as m016 from "./016_email";
import * as m017 from "./017_conversation_parties";
import * as m018 from "./018_storage_quota";
import * as m019 from "./019_operator_console";
import * as m020 from "./020_payments";
import * as m021 from "./021_moderation";
import * as m022 from "./022_disputes";
import * as m023 from "./023_metrics_indexes";
import * as m024 from "./024_first_application";
import * as m025 from "./025_data_exports";
import * as m026 from "./026_account_deletion";
import * as m028 from "./028_verified_email";
import * as m029 from "./029_session_devices";
import * as m030 from "./030_two_factor";
import * as m031 from "./031_passkeys";
import * as m033 from "./033_public_pages";
import * as m034 from "./034_saved_searches";
import * as m035 from "./035_events";
import * as m036 from "./036_opportunity_slugs";
import * as m038 from "./038_terms";
import * as m039 from "./039_money_bigint_disputes";
import * as m040 from "./040_service_reports";
import * as m041 from "./041_append_only_replace";
import * as m042 from "./042_pix_claims";
import * as m043 from "./043_session_place_company";
import * as m044 from "./044_identities";
import * as m045 from "./045_identity_provider";
import * as m046 from "./046_contact_flags";
import * as m047 from "./047_risk_signal_indexes";
import * as m048 from "./048_pending_files";
import * as m049 from "./049_fiscal";
import * as m051 from "./051_email_suppressions";
import * as m052 from "./052_push";
import * as m053 from "./053_whatsapp";
import * as m054 from "./054_services";
import * as m055 from "./055_hourly";
import * as m056 from "./056_whatsapp_one_account";
import * as m057 from "./057_service_orders";
import * as m058 from "./058_service_images";
import * as m059 from "./059_hourly_questions";
import * as m060 from "./060_monthly";
import * as m061 from "./061_hourly_pause";
import * as m062 from "./062_pix_recurrences";
import * as m063 from "./063_monthly_amount_change";
import * as m064 from "./064_services_list_covering";
import * as m065 from "./065_services_order_indexes";
import * as m066 from "./066_entry_files";
import * as m067 from "./067_hourly_keep_unused";

/** A migration, with its PostgreSQL version where the SQL differs. */
type Step = Migration & { postgres?: Migration };

// Listed in code, not read from disk, so the production build carries every migration. Both
// engines run the same list, by the same names.
const steps: Record<string, Step> = {
  "001_initial": m001,
  "002_opportunities_fts": m002,
  "003_marketplace_indexes": m003,
  "004_sort_and_dashboard_indexes": m004,
  "005_newest_first_indexes": m005,
  "006_fts_prefix_indexes": m006,
  "007_offer_sequence": m007,
  "008_rate_limits": m008,
  "009_photos": m009,
  "010_contracts": m010,
  "011_messages": m011,
  "012_profile_city_directory": m012,
  "013_portfolio": m013,
  "014_invitations": m014,
  "015_reviews": m015,
  "016_email": m016,
  "017_conversation_parties": m017,
  "018_storage_quota": m018,
  "019_operator_console": m019,
  "020_payments": m020,
  "021_moderation": m021,
  "022_disputes": m022,
  "023_metrics_indexes": m023,
  "024_first_application": m024,
  "025_data_exports": m025,
  "026_account_deletion": m026,
  "028_verified_email": m028,
  "029_session_devices": m029,
  "030_two_factor": m030,
  "031_passkeys": m031,
  "033_public_pages": m033,
  "034_saved_searches": m034,
  "035_events": m035,
  "036_opportunity_slugs": m036,
  "038_terms": m038,
  "039_money_bigint_disputes": m039,
  "040_service_reports": m040,
  "041_append_only_replace": m041,
  "042_pix_claims": m042,
  "043_session_place_company": m043,
  "044_identities": m044,
  "045_identity_provider": m045,
  "046_contact_flags": m046,
  "047_risk_signal_indexes": m047,
  "048_pending_files": m048,
  "049_fiscal": m049,
  "051_email_suppressions": m051,
  "052_push": m052,
  "053_whatsapp": m053,
  "054_services": m054,
  "055_hourly": m055,
  "056_whatsapp_one_account": m056,
  "057_service_orders": m057,
  "058_service_images": m058,
  "059_hourly_questions": m059,
  "060_monthly": m060,
  "061_hourly_pause": m061,
  "062_pix_recurrences": m062,
  "063_monthly_amount_change": m063,
  "064_services_list_covering": m064,
  "065_services_order_indexes": m065,
  "066_entry_files": m066,
  "067_hourly_keep_unused": m067,
};

export function migrationProvider(engine: Engine): MigrationProvider {
  const list = Object.fromEntries(
    Object.entries(steps).map(([name, step]) => [name, engine === "postgres" && step.postgres ? step.postgres : step]),
  );
  return { getMigrations: async () => list };
}
