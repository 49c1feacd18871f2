// Retrieval settings the user chose, kept in local storage.

import type { Retrieval } from "./bindings";

const KEY = "evident.retrieval";

export function loadRetrieval(defaults: Retrieval): Retrieval {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "null") as Partial<Retrieval> | null;
    return {
      k: typeof saved?.k === "number" && saved.k >= 1 ? saved.k : defaults.k,
      // A line the user set; the keyword-coverage floor of earlier versions means
      // something else and is not carried over.
      answer_line:
        typeof saved?.answer_line === "number" && saved.answer_line >= 0 && saved.answer_line <= 1
          ? saved.answer_line
          : defaults.answer_line,
    };
  } catch {
    return defaults;
  }
}

export function saveRetrieval(r: Retrieval): void {
  localStorage.setItem(KEY, JSON.stringify(r));
}
