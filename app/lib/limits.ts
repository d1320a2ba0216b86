// How long each typed field may be, in one table: the schemas (app/lib/schemas.ts,
// app/lib/market-schemas.ts, the services' own) check it and the forms' maxLength/minLength
// attributes show it. No zod here, so the browser bundle takes it as it is. Lengths count
// characters as the schemas do (a password counts bytes, bcrypt's limit).
export const LIMITS = {
  // Accounts and profiles
  full_name: { min: 3, max: 120 },
  display_name: { min: 2, max: 60 },
  bio: { min: 0, max: 1000 },
  city: { min: 2, max: 80 },
  company_name: { min: 2, max: 120 },
  skill: { min: 2, max: 30 },
  password: { min: 8, max: 72 },
  portfolio_title: { min: 3, max: 120 },
  portfolio_description: { min: 10, max: 1000 },
  portfolio_link: { min: 0, max: 500 },
  // Opportunities and applications
  title: { min: 5, max: 120 },
  description: { min: 20, max: 5000 },
  cover_letter: { min: 20, max: 5000 },
  offer_message: { min: 1, max: 2000 },
  month_includes: { min: 10, max: 1000 },
  reject_message: { min: 1, max: 2000 },
  search: { min: 0, max: 200 },
  saved_search_name: { min: 1, max: 80 },
  // After the hire
  delivery_message: { min: 1, max: 4000 },
  change_request_message: { min: 1, max: 4000 },
  cancel_reason: { min: 5, max: 2000 },
  message_body: { min: 1, max: 4000 },
  // Reputation
  review_comment: { min: 0, max: 1000 },
  review_reply: { min: 1, max: 1000 },
  invite_message: { min: 1, max: 500 },
  // Payments
  milestone_title: { min: 3, max: 120 },
  holder_name: { min: 3, max: 120 },
  e2e_id: { min: 32, max: 32 },
  failure_reason: { min: 5, max: 500 },
  // Moderation and disputes
  report_details: { min: 0, max: 1000 },
  moderation_reason: { min: 5, max: 2000 },
  dispute_statement: { min: 5, max: 4000 },
  dispute_decision_reason: { min: 5, max: 2000 },
  // Hourly contracts
  time_entry_description: { min: 10, max: 2000 },
  time_entry_question: { min: 10, max: 1000 },
  time_entry_answer: { min: 2, max: 2000 },
} as const satisfies Record<string, { min: number; max: number }>;

export type LimitName = keyof typeof LIMITS;
