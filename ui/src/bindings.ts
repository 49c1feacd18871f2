// Generated from the Rust types by src-tauri/src/bindings.rs. Do not edit;
// regenerate with: UPDATE_BINDINGS=1 cargo test -p evident-app bindings

export type CommandError = { 
/**
 * What kind of failure, for the window to act on.
 */
code: ErrorCode, 
/**
 * What happened, in English words for the user.
 */
message: string, 
/**
 * The same as a code, for the window's language: a problem with a file or a model
 * (`None` for the rest, which the message says).
 */
why: Problem | null, };
export type ErrorCode = "io" | "bad_input" | "bad_pdf" | "invalid_config" | "not_found" | "database_corrupt" | "database_too_new" | "rebuild_impossible" | "model_server" | "model_file" | "internal";
export type AppInfo = { 
/**
 * The database file.
 */
db_path: string, 
/**
 * Imported documents.
 */
documents: number, 
/**
 * Default retrieval settings.
 */
defaults: Retrieval, 
/**
 * What happened on start that the user should know (a damaged history recovered,
 * an index re-built for a new tokenizer).
 */
notices: Array<string>, };
export type Isolation = { 
/**
 * The PDF reader (and page drawer).
 */
pdf: string | null, 
/**
 * The OCR step (Tesseract); `None` too when there is no Tesseract to confine.
 */
ocr: string | null, };
export type Retrieval = { 
/**
 * Passages to retrieve.
 */
k: number, 
/**
 * The probability (0..1) an answer must have of being right to be given as an
 * answer; `None`: the calibrated line.
 */
answer_line: number | null, };
export type AskResult = { 
/**
 * History entry id (for feedback).
 */
history_id: number, 
/**
 * The answer.
 */
answer: Answer, };
export type Answer = { 
/**
 * Answered, uncertain (the closest passages, which may not answer it) or not found.
 */
status: Status, 
/**
 * The question.
 */
question: string, 
/**
 * The answer text with citation marks (empty when not found).
 */
text: string, 
/**
 * Each sentence with its citations and verdict. When the outcome is not
 * *answered*, these are what the composer would have said (kept for measuring it),
 * or what a model wrote that the passages do not support: never shown as an answer.
 */
sentences: Array<SentenceVerdict>, 
/**
 * Notes that are not claims (sources that differ, a shortened question), in
 * English words.
 */
notes: Array<string>, 
/**
 * The same notes as message codes, for the user's language.
 */
note_codes: Array<Message>, 
/**
 * Why the answer is uncertain or not found, in English words.
 */
not_found_reason: string | null, 
/**
 * The same as a message code, for the user's language.
 */
reason: Message | null, 
/**
 * The retrieved passages, numbered as cited.
 */
sources: Array<Source>, 
/**
 * Whether vectors were used, and why not (answers stored before this have none).
 */
retrieval: RetrievalInfo, 
/**
 * The signals the outcome was decided from.
 */
evidence: Evidence, 
/**
 * What fit in the context budget.
 */
context: Context, 
/**
 * Time spent.
 */
timings_ms: Timings, 
/**
 * Who wrote the text: the extractive composer or a model.
 */
mode: Mode, 
/**
 * Why a model's answer was asked for and the extractive one is shown instead, as a
 * message code (`None` when nothing fell back).
 */
fallback: Message | null, 
/**
 * The same in English words.
 */
fallback_reason: string | null, 
/**
 * The model's run, when a model was asked.
 */
generation: Generation | null, };
export type Status = "answered" | "uncertain" | "not_found";
export type Mode = "extractive" | "generated";
export type Generation = { 
/**
 * The server and model.
 */
model: string, 
/**
 * Milliseconds to the first piece of text, if any arrived.
 */
first_text_ms: number | null, 
/**
 * Milliseconds the model took in all.
 */
total_ms: number, 
/**
 * Why the model stopped (`stop`, `length`), when the server said.
 */
finish_reason: string | null, 
/**
 * The passages in the prompt (`[n]`), in order.
 */
passages: Array<number>, 
/**
 * The model's text exactly as it arrived (also when the answer fell back).
 */
raw_text: string, 
/**
 * When a complete text was not shown as the answer because it cites nothing: its
 * sentences checked all the same (each against every passage the model was given),
 * so the user can see what the model wrote and how it fares.
 */
draft: Array<SentenceVerdict>, };
export type SentenceVerdict = { 
/**
 * The sentence without its citation markers.
 */
text: string, 
/**
 * Byte range of the sentence (markers included) in the answer.
 */
start: number, 
/**
 * Byte offset just past the sentence in the answer.
 */
end: number, 
/**
 * Passage numbers the sentence cites.
 */
citations: Array<number>, 
/**
 * The verdict.
 */
verdict: Verdict, 
/**
 * Why, in English words (empty when plainly supported); `reason_codes` says the
 * same as codes for the user's language.
 */
reasons: Array<string>, 
/**
 * Why, as message codes (the window and the CLI say them in the user's language).
 */
reason_codes: Array<Message>, 
/**
 * The best supporting span, if any passage supports the sentence at least partly.
 */
support: Support | null, 
/**
 * Where the quoted sentence stands in its document (its clause label, 第十九条),
 * for extractive answers; shown beside the quote, not in it.
 */
location: string | null, };
export type Message = { "code": "not_retrieved", "params": { 
/**
 * The cited number.
 */
n: number, } } | { "code": "supported_by_other", "params": { 
/**
 * The passage that supports it.
 */
support: number, 
/**
 * The passages it cites.
 */
cites: Array<number>, } } | { "code": "uncited_but_supported", "params": { 
/**
 * The supporting passage.
 */
n: number, } } | { "code": "uncited_unsupported" } | { "code": "clause_number_missing", "params": { 
/**
 * The number.
 */
value: string, 
/**
 * The passage.
 */
n: number, } } | { "code": "number_misplaced", "params": { 
/**
 * The number.
 */
value: string, 
/**
 * The passage.
 */
n: number, } } | { "code": "number_missing", "params": { 
/**
 * The number.
 */
value: string, 
/**
 * The passage.
 */
n: number, } } | { "code": "negates_source", "params": { 
/**
 * The passage.
 */
n: number, } } | { "code": "only_under_condition", "params": { 
/**
 * The passage.
 */
n: number, 
/**
 * The condition, quoted from the passage.
 */
condition: string, } } | { "code": "source_negative", "params": { 
/**
 * The passage.
 */
n: number, } } | { "code": "qualifier_mismatch", "params": { 
/**
 * The passage.
 */
n: number, 
/**
 * What the passage says.
 */
source_word: string, 
/**
 * What the sentence says.
 */
claim_word: string, } } | { "code": "tier_mismatch", "params": { 
/**
 * The passage.
 */
n: number, 
/**
 * The number as the sentence writes it.
 */
value: string, 
/**
 * The condition (or clause) the number belongs to in the passage.
 */
applies_to: string, 
/**
 * The condition the sentence is about.
 */
condition: string, 
/**
 * What the passage says for that condition.
 */
source_value: string, } } | { "code": "condition_differs", "params": { 
/**
 * The passage.
 */
n: number, 
/**
 * The sentence's condition.
 */
claim: string, 
/**
 * The passage's condition.
 */
source: string, } } | { "code": "bound_differs", "params": { 
/**
 * The passage.
 */
n: number, 
/**
 * The bound as the sentence writes it.
 */
claim: string, 
/**
 * The bound as the passage writes it.
 */
source: string, } } | { "code": "modality_differs", "params": { 
/**
 * The passage.
 */
n: number, 
/**
 * The passage's modality, as a word.
 */
source: string, 
/**
 * The sentence's modality, as a word.
 */
claim: string, } } | { "code": "role_differs", "params": { 
/**
 * The passage.
 */
n: number, 
/**
 * The role the sentence names.
 */
claim: string, 
/**
 * The roles the passage names there.
 */
source: string, } } | { "code": "condition_dropped", "params": { 
/**
 * The passage.
 */
n: number, 
/**
 * The condition, as the passage writes it.
 */
condition: string, } } | { "code": "scope_differs", "params": { 
/**
 * The passage.
 */
n: number, 
/**
 * The sentence's word.
 */
word: string, } } | { "code": "conflict", "params": { 
/**
 * The supporting passage.
 */
support: number, 
/**
 * The contradicting passage.
 */
contradicts: number, } } | { "code": "few_key_words", "params": { 
/**
 * Key words found.
 */
found: number, 
/**
 * Key words of the sentence.
 */
total: number, 
/**
 * The passage.
 */
n: number, } } | { "code": "some_key_words", "params": { 
/**
 * Key words found.
 */
found: number, 
/**
 * Key words of the sentence.
 */
total: number, 
/**
 * The passage.
 */
n: number, } } | { "code": "nothing_about_it" } | { "code": "no_documents" } | { "code": "no_words" } | { "code": "no_key_word_in_documents" } | { "code": "no_passage_with_key_words" } | { "code": "nothing_close" } | { "code": "no_sentence_speaks" } | { "code": "unmentioned", "params": { 
/**
 * The names, as typed.
 */
names: Array<string>, } } | { "code": "rankings_disagree" } | { "code": "few_question_words" } | { "code": "kind_not_stated" } | { "code": "not_sure", "params": { 
/**
 * How sure it is that the sentence answers the question, in percent.
 */
sure: number, 
/**
 * How sure an answer must be, in percent.
 */
needed: number, } } | { "code": "question_cut", "params": { 
/**
 * Characters used.
 */
chars: number, } } | { "code": "over_budget", "params": { 
/**
 * The passages left out.
 */
passages: Array<number>, 
/**
 * The budget in tokens.
 */
budget: number, } } | { "code": "no_server" } | { "code": "not_embedded", "params": { 
/**
 * The model.
 */
model: string, } } | { "code": "partly_embedded", "params": { 
/**
 * Passages embedded.
 */
embedded: number, 
/**
 * All passages.
 */
total: number, 
/**
 * The model.
 */
model: string, } } | { "code": "server_unusable", "params": { 
/**
 * What went wrong.
 */
detail: string, 
/**
 * The same as a code, for the user's language (absent in answers stored before).
 */
why: Problem | null, } } | { "code": "rerank_unusable", "params": { 
/**
 * What went wrong.
 */
detail: string, 
/**
 * The same as a code, for the user's language.
 */
why: Problem | null, } } | { "code": "model_found_nothing" } | { "code": "model_unsupported" } | { "code": "model_cut_short", "params": { 
/**
 * The limit.
 */
tokens: number, } } | { "code": "model_stopped" } | { "code": "model_failed", "params": { 
/**
 * What went wrong.
 */
detail: string, 
/**
 * The same as a code, for the user's language.
 */
why: Problem | null, } } | { "code": "model_said_nothing" } | { "code": "model_cited_nothing" } | { "code": "sources_differ", "params": { 
/**
 * The lead sentence's passage.
 */
a: number, 
/**
 * The other passage.
 */
b: number, } };
export type Lang = "en" | "zh-CN";
export type ExportFormat = "markdown" | "html";
export type Problem = { "code": "unreadable", "params": { 
/**
 * `not_found`, `permission_denied` or `other`.
 */
cause: string, 
/**
 * The system's words.
 */
detail: string, } } | { "code": "empty" } | { "code": "binary" } | { "code": "undecodable", "params": { 
/**
 * The encoding it was read as, if one was recognised.
 */
encoding: string | null, } } | { "code": "no_text" } | { "code": "too_large", "params": { 
/**
 * Its size in MB.
 */
mb: number, 
/**
 * The limit in MB.
 */
limit_mb: number, 
/**
 * What kind of file the limit is for.
 */
kind: Limited, } } | { "code": "changed" } | { "code": "link_outside", "params": { 
/**
 * Where the link points.
 */
target: string, } } | { "code": "unsupported", "params": { 
/**
 * The extension (`.xlsx`), or empty when there is none.
 */
ext: string, } } | { "code": "old_word" } | { "code": "word_locked" } | { "code": "not_word", "params": { 
/**
 * What the archive reader said, if anything.
 */
detail: string, } } | { "code": "word_damaged", "params": { 
/**
 * The part (`word/document.xml`).
 */
part: string, 
/**
 * What the reader said.
 */
detail: string, } } | { "code": "word_too_many_parts", "params": { 
/**
 * Entries in the archive.
 */
entries: number, } } | { "code": "word_part_too_large", "params": { 
/**
 * The part.
 */
part: string, 
/**
 * The limit in MB.
 */
limit_mb: number, } } | { "code": "not_pdf" } | { "code": "pdf_locked" } | { "code": "pdf_damaged", "params": { 
/**
 * What the reader said.
 */
detail: string, } } | { "code": "pdf_no_pages" } | { "code": "pdf_no_unicode" } | { "code": "pdf_scanned", "params": { 
/**
 * Pages.
 */
pages: number, } } | { "code": "pages_textless", "params": { 
/**
 * The pages, as ranges (`2–4, 7`).
 */
pages: string, 
/**
 * How many.
 */
count: number, } } | { "code": "pages_unreadable", "params": { 
/**
 * The pages, as ranges (`2–4, 7`).
 */
pages: string, 
/**
 * How many.
 */
count: number, } } | { "code": "page_unread", "params": { 
/**
 * The page.
 */
page: number, 
/**
 * What the decoder said.
 */
detail: string, } } | { "code": "pages_read", "params": { 
/**
 * The pages, as ranges.
 */
pages: string, 
/**
 * How many.
 */
count: number, } } | { "code": "pages_no_text", "params": { 
/**
 * The pages, as ranges.
 */
pages: string, 
/**
 * How many.
 */
count: number, } } | { "code": "ocr_unavailable", "params": { 
/**
 * The Debian packages that read scans.
 */
packages: string, 
/**
 * What is missing.
 */
detail: string, } } | { "code": "ocr_failed", "params": { 
/**
 * What happened, in English.
 */
detail: string, } } | { "code": "cancelled" } | { "code": "form_loop", "params": { 
/**
 * The page.
 */
page: number, } } | { "code": "pdf_no_text", "params": { 
/**
 * The page warnings, in English.
 */
detail: string, } } | { "code": "pdf_reader", "params": { 
/**
 * What happened to it, in English.
 */
detail: string, } } | { "code": "not_saved", "params": { 
/**
 * What SQLite said.
 */
detail: string, } } | { "code": "database_busy" } | { "code": "watch_limit" } | { "code": "watch_failed", "params": { 
/**
 * What the system said.
 */
detail: string, } } | { "code": "aliases_not_utf8" } | { "code": "settings_invalid", "params": { 
/**
 * What the parser said.
 */
detail: string, } } | { "code": "no_model_chosen" } | { "code": "server", "params": ServerError } | { "code": "model", "params": { 
/**
 * The model file.
 */
path: string, 
/**
 * Why, in English.
 */
detail: string, } } | { "code": "not_embedding_model", "params": { 
/**
 * The model file.
 */
path: string, 
/**
 * llama.cpp's architecture name for it.
 */
architecture: string, } } | { "code": "other", "params": { 
/**
 * What happened.
 */
detail: string, } };
export type Limited = "pdf" | "docx" | "text" | "user_file";
export type ServerError = { 
/**
 * What went wrong.
 */
kind: ServerErrorKind, 
/**
 * The HTTP status, when the server answered.
 */
status: number | null, 
/**
 * The server's or the client's own words (never the API key).
 */
detail: string, 
/**
 * The server's base URL.
 */
url: string, 
/**
 * Set when the server was not asked at all: seconds since it last failed like
 * this (it is checked again in the background; see `model::breaker`).
 */
remembered: number | null, };
export type ServerErrorKind = "unreachable" | "timed_out" | "not_embedding" | "key_rejected" | "model_missing" | "rejected" | "server_failed" | "bad_reply" | "bad_settings" | "stream_cut" | "cancelled";
export type Verdict = "supported" | "partially_supported" | "unsupported";
export type Support = { 
/**
 * Which passage (`[n]`).
 */
n: number, 
/**
 * Its chunk id.
 */
chunk_id: number, 
/**
 * Char offset in the document text.
 */
char_start: number, 
/**
 * Char offset just past the span in the document text.
 */
char_end: number, 
/**
 * Char offset in the passage text.
 */
passage_char_start: number, 
/**
 * Char offset just past the span in the passage text.
 */
passage_char_end: number, 
/**
 * The highlighted text.
 */
text: string, };
export type Source = { 
/**
 * Number used in citations.
 */
n: number, 
/**
 * Chunk id.
 */
chunk_id: number, 
/**
 * Document id.
 */
doc_id: number, 
/**
 * Source file (shown lossily where its name is not UTF-8).
 */
doc_path: string, 
/**
 * Document title.
 */
title: string, 
/**
 * Document format.
 */
kind: DocumentKind, 
/**
 * Heading path joined with " > ".
 */
heading: string, 
/**
 * First page.
 */
page_start: number, 
/**
 * Last page.
 */
page_end: number, 
/**
 * Char offset of the passage in the document text.
 */
char_start: number, 
/**
 * Char offset just past the passage.
 */
char_end: number, 
/**
 * The passage text.
 */
text: string, 
/**
 * Best-matching sentence, for highlighting.
 */
highlight: Highlight, 
/**
 * Ranking score.
 */
score: number, 
/**
 * Whether the passage was within the context budget (else listed as truncated).
 */
in_context: boolean, 
/**
 * The question's key words found in the passage, as the question spells them
 * (for marking them in the snippet; answers stored before this field have none).
 */
matched_terms: Array<string>, 
/**
 * Why it ranked here: its places in the keyword and vector rankings.
 */
why: Ranks, };
export type Highlight = { 
/**
 * Char offset in the document text.
 */
char_start: number, 
/**
 * Char offset just past the span in the document text.
 */
char_end: number, 
/**
 * Char offset in the passage text.
 */
passage_char_start: number, 
/**
 * Char offset just past the span in the passage text.
 */
passage_char_end: number, 
/**
 * The highlighted text.
 */
text: string, };
export type Context = { 
/**
 * Budget in index tokens.
 */
budget_tokens: number, 
/**
 * Tokens used by the included passages and neighbours.
 */
used_tokens: number, 
/**
 * Numbers (`n`) of the passages included, in rank order.
 */
included: Array<number>, 
/**
 * Neighbouring chunks added to complete clauses.
 */
neighbours: Array<Neighbour>, 
/**
 * Numbers of the passages that did not fit in the budget.
 */
truncated: Array<number>, };
export type Neighbour = { 
/**
 * The hit it belongs to (`[n]`).
 */
of: number, 
/**
 * Chunk id.
 */
chunk_id: number, 
/**
 * Whether it comes before the hit (else after).
 */
before: boolean, 
/**
 * Its text.
 */
text: string, 
/**
 * Its size in index tokens.
 */
token_count: number, };
export type Timings = { 
/**
 * Retrieval.
 */
search: number, 
/**
 * Context assembly and composing.
 */
compose: number, 
/**
 * Grounding check.
 */
ground: number, 
/**
 * Everything.
 */
total: number, };
export type Checked = { 
/**
 * The question the answer was written for.
 */
question: string, 
/**
 * Each sentence's verdict.
 */
sentences: Array<SentenceVerdict>, 
/**
 * The passages `[n]` refers to.
 */
sources: Array<Source>, 
/**
 * Whether retrieval found the question unanswered.
 */
not_found: boolean, 
/**
 * Sentences past the limit of one check, left unchecked (0 when all were checked).
 */
unchecked: number, };
export type SearchResult = { 
/**
 * The analysed question.
 */
query: Query, 
/**
 * Whether the passages answer the question, may not, or nothing is relevant.
 */
status: Status, 
/**
 * True when nothing relevant was found (`status` is `not_found`).
 */
not_found: boolean, 
/**
 * Why the outcome is not `answered`, in English words.
 */
not_found_reason: string | null, 
/**
 * The same as a message code, for the user's language.
 */
reason: Message | null, 
/**
 * Passages, best first (the closest ones when not answered).
 */
passages: Array<Passage>, 
/**
 * Best passage's coverage of the question's key terms.
 */
top_coverage: number, 
/**
 * IDF weight of each key term (same order as `query.terms`).
 */
term_weights: Array<number>, 
/**
 * The signals the outcome was decided from.
 */
evidence: Evidence, 
/**
 * Whether vectors were used, and why not.
 */
retrieval: RetrievalInfo, 
/**
 * Milliseconds spent.
 */
elapsed_ms: number, };
export type Passage = { 
/**
 * 1-based rank; what `[n]` citations refer to.
 */
n: number, 
/**
 * The sentence that best matches the question, for highlighting.
 */
highlight: Highlight, 
/**
 * Blended ranking score.
 */
score: number, 
/**
 * BM25 score.
 */
bm25: number, 
/**
 * IDF-weighted share of the question's key terms in the passage.
 */
coverage: number, 
/**
 * The same share for its best sentence.
 */
sentence_coverage: number, 
/**
 * Key terms of the question found in the passage.
 */
matched_terms: Array<string>, 
/**
 * Its places in the keyword and vector rankings, and the fused score.
 */
why: Ranks, 
/**
 * Chunk id.
 */
chunk_id: number, 
/**
 * Document id.
 */
doc_id: number, 
/**
 * Source file (exact; shown lossily where it is not UTF-8).
 */
doc_path: string, 
/**
 * Document title.
 */
title: string, 
/**
 * Document format.
 */
kind: DocumentKind, 
/**
 * Position of the chunk in its document.
 */
ordinal: number, 
/**
 * Headings above the chunk.
 */
heading_path: Array<string>, 
/**
 * First page.
 */
page_start: number, 
/**
 * Last page.
 */
page_end: number, 
/**
 * Char offset of the chunk in the document text.
 */
char_start: number, 
/**
 * Char offset just past the chunk.
 */
char_end: number, 
/**
 * Index tokens in the chunk.
 */
token_count: number, 
/**
 * The chunk's text.
 */
text: string, };
export type StoredPassage = { 
/**
 * Chunk id.
 */
chunk_id: number, 
/**
 * Document id.
 */
doc_id: number, 
/**
 * Source file (exact; shown lossily where it is not UTF-8).
 */
doc_path: string, 
/**
 * Document title.
 */
title: string, 
/**
 * Document format.
 */
kind: DocumentKind, 
/**
 * Position of the chunk in its document.
 */
ordinal: number, 
/**
 * Headings above the chunk.
 */
heading_path: Array<string>, 
/**
 * First page.
 */
page_start: number, 
/**
 * Last page.
 */
page_end: number, 
/**
 * Char offset of the chunk in the document text.
 */
char_start: number, 
/**
 * Char offset just past the chunk.
 */
char_end: number, 
/**
 * Index tokens in the chunk.
 */
token_count: number, 
/**
 * The chunk's text.
 */
text: string, };
export type Query = { 
/**
 * The question as typed (cut to [`MAX_QUESTION_CHARS`]).
 */
text: string, 
/**
 * Whether the question was longer than [`MAX_QUESTION_CHARS`] and was cut.
 */
truncated: boolean, 
/**
 * Key terms, in question order, without duplicates.
 */
terms: Array<Term>, 
/**
 * Values of the numbers the question mentions.
 */
numbers: Array<string>, 
/**
 * Whether the question asks for a number (多少, how many ...).
 */
asks_number: boolean, 
/**
 * Whether the question asks who approves (谁批, 找谁签, who approves ...).
 */
asks_approver: boolean, };
export type Term = { 
/**
 * How the term reads in the question.
 */
text: string, 
/**
 * Token sequences that count as this term; the first is the question's own.
 */
alternatives: Array<Array<string>>, };
export type DocumentKind = "markdown" | "text" | "pdf" | "docx";
export type DocumentRecord = { 
/**
 * Row id; stable until the document is removed or replaced.
 */
id: number, 
/**
 * Canonical path of the source file (exact; shown lossily where it is not UTF-8).
 */
path: string, 
/**
 * Format.
 */
kind: DocumentKind, 
/**
 * Title.
 */
title: string, 
/**
 * SHA-256 of the file's bytes, hex.
 */
sha256: string, 
/**
 * File size in bytes at import.
 */
size_bytes: number, 
/**
 * File modification time at import (Unix seconds).
 */
mtime: number | null, 
/**
 * Pages (1 for Markdown and plain text without form feeds).
 */
page_count: number, 
/**
 * Import time (Unix seconds).
 */
imported_at: number, 
/**
 * How it was indexed.
 */
status: DocumentStatus, 
/**
 * What the user should know about this document (pages without text, repairs),
 * in English words.
 */
warnings: Array<string>, 
/**
 * The same as codes, for the window's language (empty for a document imported
 * before warnings were stored as codes: its `warnings` are all there is).
 */
warned: Array<Problem>, 
/**
 * Chunker version that made its chunks.
 */
chunker_version: number, 
/**
 * Number of chunks.
 */
chunks: number, 
/**
 * Its source file is not on disk. The store never looks (listing stays a database
 * read): [`DocumentRecord::with_presence`] does.
 */
missing: boolean, };
export type DocumentStatus = "indexed" | "indexed_with_warnings";
export type DocumentView = { 
/**
 * The document.
 */
document: DocumentRecord, 
/**
 * Its extracted text (char offsets of passages point into it).
 */
text: string, 
/**
 * Where each page lies in the text.
 */
pages: Array<PageSpan>, 
/**
 * For Markdown, how the document looks (headings, lists, tables, bold), so it is
 * shown rendered; `None` for other kinds or when `layout_note` says why not.
 */
layout: DocumentLayout | null, 
/**
 * Why a Markdown document is shown as plain text.
 */
layout_note: LayoutNote | null, };
export type PageSpan = { 
/**
 * 1-based page number.
 */
page_no: number, 
/**
 * Char offset of the page in the document text.
 */
char_start: number, 
/**
 * Char offset just past the page.
 */
char_end: number, };
export type Located = { 
/**
 * The document's id now.
 */
doc_id: number, 
/**
 * `same` (where it was), `moved` (the same text elsewhere in the file: an edit
 * before it, or a rebuild) or `changed` (its text is no longer in the file; the
 * offsets are then where it was, kept within the document).
 */
status: LocatedStatus, 
/**
 * Char offset of the passage in the document's current text.
 */
char_start: number, 
/**
 * Char offset just past it.
 */
char_end: number, 
/**
 * The highlighted sentence's offsets, moved with the passage.
 */
highlight_start: number, 
/**
 * See `highlight_start`.
 */
highlight_end: number, };
export type LocatedStatus = "same" | "moved" | "changed";
export type PageImage = { 
/**
 * The page drawn (1-based; the one asked for, kept within the document).
 */
page: number, 
/**
 * Pages in the document.
 */
page_count: number, 
/**
 * Image width in pixels.
 */
width: number, 
/**
 * Image height in pixels.
 */
height: number, 
/**
 * The page's text in reading order, each piece with its box.
 */
boxes: Array<PageBox>, 
/**
 * Why the text boxes are missing or partial, if they are (the image is still right).
 */
text_note: string | null, };
export type PageBox = { 
/**
 * The text, as the import read it.
 */
text: string, 
/**
 * Left edge.
 */
x: number, 
/**
 * Top edge.
 */
y: number, 
/**
 * Width.
 */
w: number, 
/**
 * Height.
 */
h: number, };
export type LayoutNote = { "code": "changed" } | { "code": "unreadable", 
/**
 * What went wrong, naming the file.
 */
message: string, };
export type DocumentLayout = { 
/**
 * Blocks in document order; they never overlap.
 */
blocks: Array<LayoutBlock>, };
export type LayoutBlock = { 
/**
 * What the block is.
 */
kind: LayoutKind, 
/**
 * First char of the block in the stored text.
 */
char_start: number, 
/**
 * Char just past the block.
 */
char_end: number, 
/**
 * Inline styles (bold, links …) inside the block, in order; they may nest.
 */
marks: Array<InlineMark>, 
/**
 * For a table row: where each cell's value lies. Empty for other blocks.
 */
cells: Array<TableCell>, };
export type LayoutKind = { "type": "heading", 
/**
 * 1 for the top level.
 */
level: number, } | { "type": "paragraph" } | { "type": "list_item", 
/**
 * 1 for a top-level list.
 */
depth: number, 
/**
 * Numbered (`1.`) rather than bulleted.
 */
ordered: boolean, } | { "type": "table_row", 
/**
 * The table's header cells; empty when the row is itself the header or the
 * table has none. Rows of one table share the same header.
 */
header: Array<string>, } | { "type": "code" };
export type InlineMark = { 
/**
 * The style.
 */
style: InlineStyle, 
/**
 * First char in the stored text.
 */
char_start: number, 
/**
 * Char just past the stretch.
 */
char_end: number, 
/**
 * For a link, where it points (shown, never followed).
 */
target: string | null, };
export type InlineStyle = "strong" | "emphasis" | "code" | "link" | "strikethrough";
export type TableCell = { 
/**
 * 0-based column (a row may leave columns empty).
 */
column: number, 
/**
 * First char of the value.
 */
char_start: number, 
/**
 * Char just past the value.
 */
char_end: number, };
export type ImportProgress = { "kind": "planned", 
/**
 * Files to look at.
 */
files: number, } | { "kind": "file", 
/**
 * Its report.
 */
report: FileReport, } | { "kind": "ocr", 
/**
 * The file.
 */
path: string, 
/**
 * Which of its scanned pages, from 1.
 */
page: number, 
/**
 * How many it has.
 */
pages: number, };
export type ImportSummary = { 
/**
 * One report per file, in processing order.
 */
files: Array<FileReport>, 
/**
 * Wall-clock time.
 */
elapsed_ms: number, 
/**
 * Embedding of the new chunks, when an embeddings server is set up.
 */
embedding: EmbedOutcome | null, };
export type RebuildReport = { 
/**
 * Source paths found in the old database.
 */
sources: number, 
/**
 * False when the old database was too damaged to list its documents.
 */
sources_recovered: boolean, 
/**
 * Where a damaged database was moved to.
 */
broken_copy: string | null, 
/**
 * The import of the sources into the fresh database.
 */
summary: ImportSummary, };
export type FileReport = { 
/**
 * The file (canonical when it could be resolved).
 */
path: string, 
/**
 * Bytes read.
 */
bytes: number, } & ({ "status": "imported", 
/**
 * The document's id.
 */
doc_id: number, 
/**
 * Pages.
 */
pages: number, 
/**
 * Chunks.
 */
chunks: number, 
/**
 * True when an older version of the same file was replaced.
 */
replaced: boolean, 
/**
 * Non-fatal problems (pages without text, repairs), in English words.
 */
warnings: Array<string>, 
/**
 * The same as codes, for the user's language.
 */
warned: Array<Problem>, } | { "status": "unchanged", 
/**
 * The document's id.
 */
doc_id: number, } | { "status": "duplicate", 
/**
 * The document it duplicates.
 */
of: string, } | { "status": "skipped", 
/**
 * Why, in English words.
 */
reason: string, 
/**
 * The same as a code, for the user's language.
 */
why: Problem, } | { "status": "failed", 
/**
 * Why, in English words a user understands.
 */
reason: string, 
/**
 * The same as a code, for the user's language.
 */
why: Problem, });
export type Outcome = { "status": "imported", 
/**
 * The document's id.
 */
doc_id: number, 
/**
 * Pages.
 */
pages: number, 
/**
 * Chunks.
 */
chunks: number, 
/**
 * True when an older version of the same file was replaced.
 */
replaced: boolean, 
/**
 * Non-fatal problems (pages without text, repairs), in English words.
 */
warnings: Array<string>, 
/**
 * The same as codes, for the user's language.
 */
warned: Array<Problem>, } | { "status": "unchanged", 
/**
 * The document's id.
 */
doc_id: number, } | { "status": "duplicate", 
/**
 * The document it duplicates.
 */
of: string, } | { "status": "skipped", 
/**
 * Why, in English words.
 */
reason: string, 
/**
 * The same as a code, for the user's language.
 */
why: Problem, } | { "status": "failed", 
/**
 * Why, in English words a user understands.
 */
reason: string, 
/**
 * The same as a code, for the user's language.
 */
why: Problem, };
export type HistoryEntry = { 
/**
 * Row id.
 */
id: number, 
/**
 * When it was asked (Unix seconds).
 */
asked_at: number, 
/**
 * The question.
 */
question: string, 
/**
 * What the answer was (a row of unknown status reads as uncertain).
 */
status: Status, 
/**
 * +1 helpful, -1 not helpful, none yet.
 */
feedback: number | null, };
export type AliasWarning = { 
/**
 * 1-based line number.
 */
line: number, 
/**
 * What is wrong.
 */
reason: string, };
export type Ranks = { 
/**
 * Place in the keyword (BM25 + coverage) ranking, 1-based.
 */
keyword: number | null, 
/**
 * Place in the whole-passage vector ranking.
 */
passage_vector: number | null, 
/**
 * Place in the best-sentence vector ranking.
 */
sentence_vector: number | null, 
/**
 * Cosine of the passage's vector with the question's.
 */
cosine: number | null, 
/**
 * Cosine of its best sentence with the question.
 */
sentence_cosine: number | null, 
/**
 * Place in the reranker's order, when a reranker ordered the passages.
 */
rerank: number | null, 
/**
 * The fused score the passages are ordered by.
 */
fused: number, };
export type Evidence = { 
/**
 * Best keyword coverage of the question among the returned passages (0..1).
 */
coverage: number, 
/**
 * Best coverage by a single sentence among them (0..1).
 */
sentence_coverage: number, 
/**
 * Share of the keyword side's top 5 that the vector side also has in its top 5.
 */
agreement: number | null, 
/**
 * Best passage similarity above the library's mean, in standard deviations.
 */
standout: number | null, 
/**
 * Best cosine among the returned passages.
 */
top_cosine: number | null, 
/**
 * Names in the question (places, organisations) that no document mentions.
 */
unmentioned: Array<string>, 
/**
 * The probability that the chosen answer is right, as the outcome model judged
 * it (answers stored before it have none).
 */
fit: number | null, 
/**
 * IDF-weighted share of the question's key terms that some returned passage holds:
 * a question whose own words (年会, 抽奖, 一等奖) occur in none of them asks about
 * something the documents do not treat.
 */
terms_found: number, };
export type RetrievalInfo = { 
/**
 * What ranked the passages.
 */
used: RankedBy, 
/**
 * The embedding model, when vectors were used.
 */
model: string | null, 
/**
 * Why search was keyword-only, in English words.
 */
note: string | null, 
/**
 * The same as a message code, for the user's language.
 */
note_code: Message | null, 
/**
 * Milliseconds the server took to embed the question.
 */
embed_ms: number, 
/**
 * The reranker that ordered the passages, when one did.
 */
reranker: string | null, 
/**
 * Why a configured reranker did not order them.
 */
rerank_note: Message | null, 
/**
 * Milliseconds the reranker took.
 */
rerank_ms: number, 
/**
 * Whether the answer's sentences were weighed by meaning: vectors were used and
 * every passage read has its sentence vectors (an embedding pass stores them after
 * every passage's vector); otherwise by words.
 */
sentences_by_meaning: boolean, };
export type RankedBy = "keyword" | "hybrid" | "vector";
export type RetrievalMode = "hybrid" | "keyword" | "dense";
export type EmbedOutcome = { 
/**
 * What the pass did, when it ran to the end.
 */
report: EmbedReport | null, 
/**
 * Why it stopped, in words for the user.
 */
error: string | null, };
export type EmbedReport = { 
/**
 * The model's name.
 */
model: string, 
/**
 * Vector width.
 */
dim: number, 
/**
 * Chunk texts given a passage vector in this pass.
 */
embedded_now: number, 
/**
 * Chunk texts given their sentence vectors in this pass.
 */
sentences_now: number, 
/**
 * Where the index stands afterwards.
 */
coverage: VectorCoverage, 
/**
 * Whether the pass stopped early because it was asked to.
 */
cancelled: boolean, 
/**
 * Vectors of chunk texts no longer in the index that were deleted.
 */
pruned: number, 
/**
 * Seconds spent.
 */
seconds: number, };
export type VectorCoverage = { 
/**
 * Chunks with a passage vector of the model (what meaning search finds).
 */
embedded: number, 
/**
 * Chunks whose sentences have vectors of the model too (what answers choose their
 * sentences by).
 */
sentences: number, 
/**
 * Chunks in the index.
 */
total: number, };
export type EmbeddingStatus = { 
/**
 * Where embedding stands.
 */
state: EmbeddingPhase, 
/**
 * The server's base URL.
 */
base_url: string | null, 
/**
 * The model name.
 */
model: string | null, 
/**
 * Whether an API key is saved for this URL (the key itself never leaves Rust).
 */
has_key: boolean, 
/**
 * The prompt family the user chose (`None`: recognised from the model's name).
 */
prompt: PromptFamily | null, 
/**
 * The prompt family in use (chosen, or recognised).
 */
prompt_in_use: PromptFamily | null, 
/**
 * Passages with a vector of the model (what meaning search finds).
 */
embedded: number, 
/**
 * Passages whose sentences have vectors too (embedded after every passage: what
 * answers choose their sentences by).
 */
sentences: number, 
/**
 * Passages in the index.
 */
total: number, 
/**
 * While embedding: how long the rest will take at the pass's rate so far, in
 * seconds (`None` until the first passages are done).
 */
seconds_left: number | null, 
/**
 * What went wrong, or what search does meanwhile, in words for the user.
 */
message: string | null, 
/**
 * What went wrong as a code, for the window's language.
 */
why: Problem | null, 
/**
 * The built-in model, when it is the one in use (no server is set up).
 */
builtin: BuiltinStatus | null, 
/**
 * The built-in model's settings.
 */
builtin_settings: BuiltinSettings | null, 
/**
 * Evident's own models folder (where a user can put a built-in model).
 */
models_dir: string | null, };
export type EmbeddingPhase = "off" | "embedding" | "ready" | "error";
export type BuiltinStatus = { 
/**
 * The GGUF file.
 */
file: string, 
/**
 * Where it was found.
 */
found: ModelFound, 
/**
 * Ollama's `name:tag` for a model found there.
 */
ollama_name: string | null, 
/**
 * The model's name in its header (or its architecture).
 */
name: string, 
/**
 * llama.cpp's architecture name (`gemma-embedding`, `bert` ...).
 */
architecture: string, 
/**
 * The file's size in bytes.
 */
size: number, 
/**
 * Its parameter count as the header labels it (`300M`).
 */
size_label: string | null, 
/**
 * The licence the header names.
 */
license: string | null, 
/**
 * A licence text that travels with it.
 */
licence_file: string | null, 
/**
 * What this system could not enforce on the model's worker (Landlock's status,
 * seccomp), when it could not confine it fully; `None` when it could, or before
 * the worker first ran.
 */
unconfined: string | null, };
export type ModelFound = "chosen" | "folder" | "ollama";
export type BuiltinSettings = { 
/**
 * Whether to look for and run one (on by default; off means keyword search only
 * unless a server is set up).
 */
enabled: boolean, 
/**
 * The GGUF file the user chose; `None` takes the most preferred embedding model
 * found in Evident's models folder or among Ollama's
 * ([`crate::model::builtin::choose`]).
 */
file?: string | null, 
/**
 * The model found that way and used: kept while it is there, until the user
 * chooses (a later pull never switches the library's vectors on its own).
 */
kept?: string | null, };
export type LibrarySync = { 
/**
 * The changes, counted.
 */
counts: ChangeCounts, 
/**
 * The changes (at most [`MAX_LISTED`]).
 */
changes: Array<Change>, 
/**
 * Watched folders that are not there; their documents are kept, marked missing.
 */
unreachable: Array<string>, 
/**
 * The folders and files being kept in sync.
 */
watching: Array<string>, 
/**
 * Folders whose changes cannot be watched (the system's limit of watches, no
 * permission), with why: their changes are only found by the pass every few
 * minutes.
 */
unwatched: Array<Unwatched>, 
/**
 * When the pass ended (Unix seconds).
 */
at: number, 
/**
 * Why passes cannot run (the watcher or the database failed), if they cannot.
 */
error: string | null, };
export type Unwatched = { 
/**
 * The folder.
 */
path: string, 
/**
 * Why.
 */
why: Problem, };
export type Change = { "change": "added", 
/**
 * The file.
 */
path: string, 
/**
 * Its document.
 */
doc_id: number, } | { "change": "updated", 
/**
 * The file.
 */
path: string, 
/**
 * Its new document id.
 */
doc_id: number, } | { "change": "renamed", 
/**
 * Where it was.
 */
from: string, 
/**
 * Where it is.
 */
to: string, 
/**
 * Its document.
 */
doc_id: number, } | { "change": "removed", 
/**
 * The file it came from.
 */
path: string, } | { "change": "duplicate", 
/**
 * The file.
 */
path: string, 
/**
 * The file it duplicates.
 */
of: string, } | { "change": "failed", 
/**
 * The file.
 */
path: string, 
/**
 * Why, in English words a user understands.
 */
reason: string, 
/**
 * The same as a code, for the user's language.
 */
why: Problem, };
export type ChangeCounts = { 
/**
 * New files imported.
 */
added: number, 
/**
 * Changed files imported again.
 */
updated: number, 
/**
 * Files renamed or moved.
 */
renamed: number, 
/**
 * Deleted files removed from the index.
 */
removed: number, 
/**
 * New files that duplicate an indexed one.
 */
duplicates: number, 
/**
 * Files that could not be read.
 */
failed: number, };
export type ServerCheck = { 
/**
 * Whether the model answered: with usable vectors, or with a reply.
 */
ok: boolean, 
/**
 * The models the server lists (for picking one).
 */
models: Array<string>, 
/**
 * The model's vector width, when an embeddings model answered.
 */
dim: number | null, 
/**
 * What went wrong, in words for the user.
 */
message: string | null, 
/**
 * The same as a code, for the window's language.
 */
why: Problem | null, };
export type RerankStatus = { 
/**
 * Whether a reranker is in use.
 */
state: RerankPhase, 
/**
 * The server's base URL.
 */
base_url: string | null, 
/**
 * The model name.
 */
model: string | null, 
/**
 * Whether an API key is saved for this URL.
 */
has_key: boolean, 
/**
 * What went wrong, in words for the user.
 */
message: string | null, 
/**
 * The same as a code, for the window's language.
 */
why: Problem | null, };
export type RerankPhase = "off" | "on" | "error";
export type PromptFamily = "none" | "e5" | "e5-instruct" | "embedding-gemma" | "qwen3" | "nomic" | "represent-query" | "bge-zh";
export type AnswerSettings = { 
/**
 * `extractive` (quoted sentences) or `generated` (a model writes them).
 */
mode: Mode, 
/**
 * The model server's base URL, if one is set up.
 */
base_url: string | null, 
/**
 * The model's name on it.
 */
model: string | null, 
/**
 * Whether an API key is saved for this URL.
 */
has_key: boolean, };
