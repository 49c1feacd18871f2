// An answer as the user sees it: sentences with verdicts and citation chips, notes,
// then the source list; or the honest "uncertain" and "not found" states, with the
// closest passages folded away and no sentence that reads as an answer.

import type { Answer, Ranks, Source } from "../../bindings";
import { renderSentence } from "../../components/sentences";
import { h } from "../../dom";
import { pageLabel, t } from "../../i18n";
import { say, sayAll } from "../../words";
import { markTerms } from "./terms";

export interface AnswerHandlers {
  onCite: (source: Source) => void;
}

function snippet(s: Source): HTMLElement {
  // The passage with its best-matching sentence marked (offsets are in code points).
  const chars = Array.from(s.text);
  const start = Math.max(0, Math.min(chars.length, s.highlight.passage_char_start));
  const end = Math.max(start, Math.min(chars.length, s.highlight.passage_char_end));
  const before = chars.slice(Math.max(0, start - 60), start).join("");
  const after = chars.slice(end, end + 60).join("");
  const terms = s.matched_terms;
  return h(
    "span",
    { class: "snippet" },
    start > 60 ? "…" : "",
    markTerms(before, terms),
    h("mark", {}, markTerms(chars.slice(start, end).join(""), terms)),
    markTerms(after, terms),
    end + 60 < chars.length ? "…" : "",
  );
}

/// Why a passage ranked where it did: its place in the keyword and meaning rankings.
/// Only shown when meaning search took part (keyword-only ranks say nothing new).
export function renderWhy(why: Ranks | undefined): HTMLElement | null {
  const reranked = why?.rerank !== null && why?.rerank !== undefined;
  if (!why || (why.passage_vector === null && why.sentence_vector === null && !reranked)) return null;
  const place = (n: number | null) => (n === null ? t("notRanked") : `#${n}`);
  return h(
    "details",
    { class: "why", testid: "why" },
    h("summary", {}, t("whyPassage")),
    h(
      "dl",
      {},
      h("dt", {}, t("rankKeyword")),
      h("dd", {}, place(why.keyword)),
      h("dt", {}, t("rankPassageVector")),
      h("dd", {}, place(why.passage_vector)),
      h("dt", {}, t("rankSentenceVector")),
      h("dd", {}, place(why.sentence_vector)),
      h("dt", {}, t("fusedScore")),
      h("dd", {}, why.fused.toFixed(4)),
      ...(reranked ? [h("dt", {}, t("rankRerank")), h("dd", {}, place(why.rerank ?? null))] : []),
    ),
  );
}

export function renderSources(sources: Source[], handlers: AnswerHandlers): HTMLElement {
  return h(
    "ol",
    { class: "sources", attrs: { "aria-label": t("sources") } },
    ...sources.map((s) =>
      h(
        "li",
        {},
        h(
          "button",
          {
            class: `source${s.in_context ? "" : " over-budget"}`,
            testid: "source",
            attrs: { type: "button", "data-n": s.n },
            on: { click: () => handlers.onCite(s) },
          },
          h("span", { class: "source-n" }, `[${s.n}]`),
          h("span", { class: "source-title" }, s.title),
          s.heading ? h("span", { class: "source-heading" }, s.heading) : null,
          h("span", { class: "source-page" }, pageLabel(s.page_start, s.page_end)),
          s.in_context ? null : h("span", { class: "source-note" }, t("truncated")),
          snippet(s),
        ),
        renderWhy(s.why),
      ),
    ),
  );
}

export function renderAnswer(answer: Answer, handlers: AnswerHandlers): HTMLElement {
  const byN = new Map(answer.sources.map((s) => [s.n, s]));
  const cite = (n: number) => {
    const s = byN.get(n);
    if (s) handlers.onCite(s);
  };
  // Why search was keyword-only (no server, embedding not done, server down).
  const retrieval = answer.retrieval;
  const note = retrieval?.note_code
    ? h("p", { class: "retrieval-note", testid: "retrieval-note" }, say(retrieval.note_code))
    : retrieval?.note
      ? h("p", { class: "retrieval-note", testid: "retrieval-note" }, `${t("keywordOnly")}: ${retrieval.note}`)
      : null;
  // Why a reranker that is set up did not order the passages.
  const rerankNote = retrieval?.rerank_note
    ? h("p", { class: "retrieval-note", testid: "rerank-note" }, say(retrieval.rerank_note))
    : null;
  const origin = renderOrigin(answer, cite);
  if (answer.status === "not_found") {
    return h(
      "section",
      { class: "answer not-found-state", testid: "answer", attrs: { "aria-live": "polite" } },
      note,
      rerankNote,
      origin,
      h(
        "div",
        { class: "not-found", testid: "not-found", attrs: { role: "status" } },
        h("span", { class: "verdict-icon", attrs: { "aria-hidden": "true" } }, "ⓘ"),
        h("strong", {}, t("notFound")),
        answer.reason
          ? h("span", { class: "reason" }, say(answer.reason))
          : answer.not_found_reason
            ? h("span", { class: "reason" }, answer.not_found_reason)
            : null,
      ),
      renderClosest(answer.sources, handlers),
    );
  }
  if (answer.status === "uncertain") {
    // Nothing here reads as an answer: no sentence in the open, no citation chip. The
    // closest passages are one click away; a model's unsupported text is too, in red.
    const modelText = answer.mode === "generated" && answer.sentences.length > 0;
    return h(
      "section",
      { class: "answer uncertain-state", testid: "answer", attrs: { "aria-live": "polite" } },
      note,
      rerankNote,
      origin,
      h(
        "div",
        { class: "uncertain", testid: "uncertain", attrs: { role: "status" } },
        h("span", { class: "verdict-icon", attrs: { "aria-hidden": "true" } }, "?"),
        h("strong", {}, t("uncertain")),
        // The core's reason is in English; the same reason, from the evidence, in the UI's language.
        h("span", { class: "reason" }, uncertainReason(answer)),
      ),
      modelText
        ? h(
            "details",
            { class: "model-unsupported", testid: "model-unsupported" },
            h("summary", {}, t("modelUnsupported")),
            h("p", { class: "model-text" }, ...answer.sentences.map((s) => renderSentence(s, cite))),
          )
        : null,
      ...renderNotes(answer),
      renderClosest(answer.sources, handlers),
    );
  }
  return h(
    "section",
    { class: "answer", testid: "answer", attrs: { "aria-live": "polite" } },
    note,
    rerankNote,
    origin,
    h("p", { class: "answer-text" }, ...answer.sentences.map((s) => renderSentence(s, cite))),
    ...renderNotes(answer),
    renderColourHelp(),
    h("h3", {}, t("sources")),
    ...renderCitedSources(answer, handlers),
  );
}

/** The answer's notes in the UI's language. When nothing was answered, none about the
 *  context budget: a passage left out of an answer that was not given is no news. */
function renderNotes(answer: Answer): HTMLElement[] {
  // Answers stored before notes were codes have none.
  let codes: Answer["note_codes"] = answer.note_codes ?? [];
  let english = answer.notes;
  if (answer.status !== "answered") {
    if (codes.length > 0) {
      // The English notes go with the codes, one for one.
      const keep = codes.map((c) => c.code !== "over_budget");
      codes = codes.filter((_, i) => keep[i]);
      english = english.filter((_, i) => keep[i] ?? true);
    } else {
      // Only the English words say which note is about the budget.
      english = english.filter((n) => !n.includes("context budget"));
    }
  }
  return sayAll(codes, english).map((n) => h("p", { class: "note", attrs: { role: "note" } }, n));
}

/** The closest passages of a question not answered, folded away: they are not an answer. */
function renderClosest(sources: Source[], handlers: AnswerHandlers): HTMLElement | null {
  if (sources.length === 0) return null;
  return h(
    "details",
    { class: "closest", testid: "closest" },
    h("summary", {}, t("closest", { n: sources.length })),
    renderSources(sources, handlers),
  );
}

/** Who wrote the answer: a model (named), or the extractive composer because the
 *  model's answer could not be used (and why, with what the model wrote, checked, one
 *  click away). Nothing for plain extractive answers. */
function renderOrigin(answer: Answer, cite: (n: number) => void): HTMLElement | null {
  const why = answer.fallback ? say(answer.fallback) : answer.fallback_reason;
  if (why) {
    const draft = answer.generation?.draft ?? [];
    return h(
      "div",
      { class: "model-note fallback", testid: "fallback", attrs: { role: "status" } },
      t("modelFellBack"),
      why,
      draft.length
        ? h(
            "details",
            { class: "draft-checked", testid: "draft-checked" },
            h("summary", {}, t("modelDraft")),
            h("p", { class: "answer-text" }, ...draft.map((s) => renderSentence(s, cite))),
          )
        : null,
    );
  }
  if (answer.mode === "generated" && answer.generation) {
    return h("p", { class: "model-note", testid: "written-by" }, t("writtenBy", { model: answer.generation.model }));
  }
  return null;
}

/** The cited passages first; the rest retrieved, folded away under "also retrieved". */
function renderCitedSources(answer: Answer, handlers: AnswerHandlers): HTMLElement[] {
  const cited = new Set(answer.sentences.flatMap((s) => s.citations));
  const first = answer.sources.filter((s) => cited.has(s.n));
  const others = answer.sources.filter((s) => !cited.has(s.n));
  if (first.length === 0) return [renderSources(others, handlers)];
  if (others.length === 0) return [renderSources(first, handlers)];
  return [
    renderSources(first, handlers),
    h(
      "details",
      { class: "also-retrieved", testid: "also-retrieved" },
      h("summary", {}, t("alsoRetrieved", { n: others.length })),
      renderSources(others, handlers),
    ),
  ];
}

/** Why an answer is only uncertain, from its evidence, in the UI's language (mirrors `outcome::decide`). */
function uncertainReason(answer: Answer): string {
  if (answer.reason) return say(answer.reason);
  // Answers stored before reasons were codes: the same reason, from the evidence.
  const names = answer.evidence?.unmentioned ?? [];
  if (names.length > 0) return say({ code: "unmentioned", params: { names } });
  return say({ code: answer.evidence?.agreement === 0 ? "rankings_disagree" : "few_question_words" });
}

/** What the colours know, and how often each was wrong on claims nobody tuned on. */
export function renderColourHelp(): HTMLElement {
  return h(
    "details",
    { class: "colour-help", testid: "colour-help" },
    h("summary", {}, t("colourHelpTitle")),
    h("p", {}, t("colourHelp")),
  );
}
