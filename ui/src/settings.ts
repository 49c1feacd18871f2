// Retrieval settings the user chose, kept in local storage.

import type { Retrieval } from "./bindings";

const KEY = "evident.retrieval";

export function loadRetrieval(defaults: Retrieval): Retrieval {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "null") as Partial<Retrieval> | null;
    return {
      k: typeof saved?.k === "number" && saved.k >= 1 ? saved.k : defaults.k,
      floor: typeof saved?.floor === "number" && saved.floor >= 0 && saved.floor <= 1 ? saved.floor : defaults.floor,
    };
  } catch {
    return defaults;
  }
}

export function saveRetrieval(r: Retrieval): void {
  localStorage.setItem(KEY, JSON.stringify(r));
}
