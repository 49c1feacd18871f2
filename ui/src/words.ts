// The window's words for what the core reports (why a sentence is flagged, why nothing
// was found, notes, why a file or a server failed, a sentence's colour): said from the
// same Fluent catalogue the core reads (crates/evident-words/catalogue/*.ftl), by the
// same rules for parameters (crates/evident-words/src/catalogue.rs), so the window and
// the CLI cannot word a code differently. Parameters are data (numbers, words quoted
// from a document, a server's own words) and are only ever put into text nodes.

import { FluentBundle, FluentNumber, FluentResource, type FluentVariable } from "@fluent/bundle";
import en from "../../crates/evident-words/catalogue/en.ftl?raw";
import zh from "../../crates/evident-words/catalogue/zh-CN.ftl?raw";
import type { Message, Problem, Verdict } from "./bindings";
import { lang, type Lang } from "./i18n";

type Kind = "message" | "problem" | "verdict";

/** A code with its parameters, as the core serialises messages and problems. */
interface Coded {
  code: string;
  params?: unknown;
}

const NONE = "none";

function bundle(locale: Lang, source: string): FluentBundle {
  const b = new FluentBundle(locale, { useIsolating: false });
  const errors = b.addResource(new FluentResource(source));
  if (errors.length > 0) console.error(`the ${locale} catalogue does not read`, errors);
  return b;
}

const bundles: Record<Lang, FluentBundle> = { en: bundle("en", en), "zh-CN": bundle("zh-CN", zh) };

/** The catalogue's id for `code` of `kind`: `number_missing` → `message-number-missing`. */
const idOf = (kind: Kind, code: string): string => `${kind}-${code.replaceAll("_", "-")}`;

function sayId(b: FluentBundle, id: string, params: unknown, errors: Error[]): string | null {
  const pattern = b.getMessage(id)?.value;
  if (!pattern) return null;
  return b.formatPattern(pattern, argumentsOf(b, params), errors);
}

function isCoded(v: unknown): v is Coded {
  return typeof v === "object" && v !== null && typeof (v as Coded).code === "string";
}

/** One parameter as a Fluent argument, by the catalogue's rules (see en.ftl's header). */
function argument(b: FluentBundle, v: unknown): FluentVariable {
  if (v === null || v === undefined || v === "") return NONE;
  if (typeof v === "number") return new FluentNumber(v, { useGrouping: false, maximumFractionDigits: 20 });
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return String(v);
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === "number")) return v.map((n) => `[${n}]`).join("");
    const separator = sayId(b, "list-separator", null, []) ?? ", ";
    return v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(separator);
  }
  if (isCoded(v)) return sayIn(b, "problem", v);
  return NONE;
}

function argumentsOf(b: FluentBundle, params: unknown): Record<string, FluentVariable> {
  const args: Record<string, FluentVariable> = {};
  if (typeof params === "object" && params !== null && !Array.isArray(params)) {
    for (const [name, v] of Object.entries(params)) args[name] = argument(b, v);
  }
  return args;
}

function sayIn(b: FluentBundle, kind: Kind, c: Coded): string {
  const id = idOf(kind, c.code);
  return sayId(b, id, c.params, []) ?? id;
}

/** `c` of `kind` in `locale`, or what kept it from being said in full (for tests). */
export function trySay(locale: Lang, kind: Kind, c: Coded): { text: string; errors: string[] } {
  const errors: Error[] = [];
  const id = idOf(kind, c.code);
  const text = sayId(bundles[locale], id, c.params, errors);
  if (text === null) return { text: id, errors: [`no wording for ${id} in ${locale}.ftl`] };
  return { text, errors: errors.map((e) => e.message) };
}

/** `m` in the window's language. */
export const say = (m: Message): string => sayIn(bundles[lang()], "message", m);

/** `p` in the window's language. */
export const sayProblem = (p: Problem): string => sayIn(bundles[lang()], "problem", p);

/** Messages in the window's language; answers stored before codes existed keep their English words. */
export function sayAll(codes: Message[] | undefined, english: string[]): string[] {
  return codes && codes.length > 0 ? codes.map(say) : english;
}

/** A problem when there is one, else the English words that came with it. */
export function sayOr(why: Problem | null | undefined, english: string | null | undefined): string {
  return why ? sayProblem(why) : (english ?? "");
}

/** The passage a reason says the sentence contradicts (mirrors `Message::contradicted_by`). */
function contradictedBy(m: Message): number | null {
  switch (m.code) {
    case "conflict":
      return m.params.contradicts;
    case "number_misplaced":
    case "negates_source":
    case "source_negative":
    case "qualifier_mismatch":
    case "tier_mismatch":
    case "condition_differs":
    case "bound_differs":
    case "modality_differs":
    case "role_differs":
      return m.params.n;
    default:
      return null;
  }
}

/** What a sentence's colour says (as `message::verdict_label`): the check compares
 *  words, numbers, conditions and roles with the cited passage, no more. */
export function verdictLabel(v: Verdict, reasons: Message[]): string {
  const b = bundles[lang()];
  if (v !== "unsupported") return sayIn(b, "verdict", { code: v });
  const n = reasons.map(contradictedBy).find((x) => x !== null);
  return n === undefined || n === null
    ? sayIn(b, "verdict", { code: "not_found" })
    : sayIn(b, "verdict", { code: "contradicted", params: { n } });
}
