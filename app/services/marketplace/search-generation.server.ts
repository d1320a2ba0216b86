/**
 * The generation of this process's opportunities, as far as searches see them: a move that can add
 * an opportunity to a search (published, edited, reopened, approved or shown again by an operator)
 * counts one more, and search windows kept from an earlier generation are read again (see
 * searchByRelevance in opportunities.server.ts).
 */
let generation = 0;

export function opportunitiesChanged() {
  generation += 1;
}

export function opportunitiesGeneration() {
  return generation;
}
