// Messages from the core (why a sentence is flagged, why nothing was found, notes)
// arrive as codes with parameters; this says them in the window's language. The
// parameters are data (numbers, words quoted from a document) and are only ever put
// into text nodes.

import type { Message, Problem } from "./bindings";
import { lang } from "./i18n";
import { sayProblem } from "./problems";

const cites = (ns: number[]): string => ns.map((n) => `[${n}]`).join("");

/** A server's or a model's problem in the UI's language; the English detail for
 *  answers stored before problems were codes. */
const detail = (p: { detail: string; why?: Problem | null }): string => (p.why ? sayProblem(p.why) : p.detail);

/** `m` in the UI's language. */
export function say(m: Message): string {
  const zh = lang() === "zh-CN";
  switch (m.code) {
    case "not_retrieved":
      return zh ? `引用了 [${m.params.n}]，但它不在检索结果中` : `cites [${m.params.n}], which was not retrieved`;
    case "supported_by_other":
      return zh
        ? `[${m.params.support}] 支持这句话，但它引用的是 ${cites(m.params.cites)}`
        : `[${m.params.support}] supports this sentence, but it cites ${cites(m.params.cites)}`;
    case "uncited_but_supported":
      return zh ? `没有引用；[${m.params.n}] 支持这句话` : `no citation; [${m.params.n}] supports it`;
    case "uncited_unsupported":
      return zh ? "没有引用，检索到的段落也不支持这句话" : "no citation, and no retrieved passage supports it";
    case "clause_number_missing":
      return zh
        ? `[${m.params.n}] 中没有第 ${m.params.value} 条`
        : `the clause number ${m.params.value} does not appear in [${m.params.n}]`;
    case "number_misplaced":
      return zh
        ? `${m.params.value} 出现在 [${m.params.n}] 中，但不在这句话所述的条款里`
        : `${m.params.value} appears in [${m.params.n}], but not where the rest of the sentence is stated`;
    case "number_missing":
      return zh ? `[${m.params.n}] 中没有 ${m.params.value}` : `${m.params.value} does not appear in [${m.params.n}]`;
    case "negates_source":
      return zh ? `这句话否定了 [${m.params.n}] 的说法` : `the sentence negates what [${m.params.n}] states`;
    case "only_under_condition":
      return zh
        ? `[${m.params.n}] 只在特定条件下这样规定（${m.params.condition}）`
        : `[${m.params.n}] states this only under a condition (${m.params.condition})`;
    case "source_negative":
      return zh ? `[${m.params.n}] 的说法是否定的` : `[${m.params.n}] states this in the negative`;
    case "qualifier_mismatch":
      return zh
        ? `[${m.params.n}] 写的是“${m.params.source_word}”，不是“${m.params.claim_word}”`
        : `[${m.params.n}] says ${m.params.source_word}, not ${m.params.claim_word}`;
    case "tier_mismatch":
      return zh
        ? `[${m.params.n}] 中 ${m.params.value} 适用于“${m.params.applies_to}”；对“${m.params.condition}”，原文是 ${m.params.source_value}`
        : `${m.params.value} applies to ${m.params.applies_to} in [${m.params.n}]; for ${m.params.condition} the source says ${m.params.source_value}`;
    case "condition_differs":
      return zh
        ? `[${m.params.n}] 规定的是“${m.params.source}”的情形，不是“${m.params.claim}”`
        : `[${m.params.n}] states this for ${m.params.source}, not for ${m.params.claim}`;
    case "bound_differs":
      return zh
        ? `[${m.params.n}] 写的是“${m.params.source}”，不是“${m.params.claim}”`
        : `[${m.params.n}] says ${m.params.source}, not ${m.params.claim}`;
    case "modality_differs":
      return zh
        ? `[${m.params.n}] 说的是“${m.params.source}”，不是“${m.params.claim}”`
        : `[${m.params.n}] says "${m.params.source}", not "${m.params.claim}"`;
    case "role_differs":
      return zh
        ? `[${m.params.n}] 在此处写的是“${m.params.source}”，不是“${m.params.claim}”`
        : `[${m.params.n}] names ${m.params.source} here, not ${m.params.claim}`;
    case "condition_dropped":
      return zh
        ? `[${m.params.n}] 只对“${m.params.condition}”这样规定，这句话省略了这个条件`
        : `[${m.params.n}] says this only for ${m.params.condition}; the sentence leaves that out`;
    case "scope_differs":
      return zh
        ? `这句话说“${m.params.word}”，[${m.params.n}] 此处没有这样的范围，请核对适用范围`
        : `the sentence says "${m.params.word}"; [${m.params.n}] sets no such scope here, so check who and what it covers`;
    case "conflict":
      return zh
        ? `[${m.params.support}] 支持这句话，但同样相关的 [${m.params.contradicts}] 说法不同`
        : `[${m.params.support}] supports this, but [${m.params.contradicts}], as relevant, says otherwise`;
    case "few_key_words":
      return zh
        ? `这句话的 ${m.params.total} 个关键词中只有 ${m.params.found} 个出现在 [${m.params.n}] 中`
        : `only ${m.params.found} of its ${m.params.total} key words appear in [${m.params.n}]`;
    case "some_key_words":
      return zh
        ? `这句话的 ${m.params.total} 个关键词中有 ${m.params.found} 个出现在 [${m.params.n}] 中`
        : `${m.params.found} of its ${m.params.total} key words appear in [${m.params.n}]`;
    case "nothing_about_it":
      return zh ? "您的文件中没有与这句话相关的内容" : "your documents say nothing about this sentence";
    case "no_documents":
      return zh ? "还没有导入任何文件" : "no documents are imported yet";
    case "no_words":
      return zh ? "问题中没有可检索的词（只有疑问词或标点）" : "the question has no words to look for (only question words or punctuation)";
    case "no_key_word_in_documents":
      return zh ? "问题的关键词都没有出现在您的文件中" : "none of the question's key words occurs in your documents";
    case "no_passage_with_key_words":
      return zh ? "没有段落包含问题的关键词" : "no passage contains the question's key words";
    case "nothing_close":
      return zh ? "您的文件中没有与问题相近的内容" : "nothing in your documents is close to the question";
    case "no_sentence_speaks":
      return zh ? "检索到的段落中没有句子回答这个问题" : "no sentence of the passages speaks to the question";
    case "unmentioned":
      return zh ? `您的文件中没有提到“${m.params.names.join("、")}”` : `your documents never mention ${m.params.names.join(", ")}`;
    case "rankings_disagree":
      return zh ? "关键词检索与语义检索对哪些段落相关意见不一" : "keyword and meaning search disagree on which passages fit";
    case "few_question_words":
      return zh ? "最接近的段落只包含问题的部分关键词" : "the closest passages share only some of the question's key words";
    case "not_sure":
      return zh
        ? `最接近的句子可能回答了问题，但把握只有 ${m.params.sure}%，确定的回答需要 ${m.params.needed}%`
        : `Evident is only ${m.params.sure} % sure of the closest sentence; an answer needs ${m.params.needed} %`;
    case "kind_not_stated":
      return zh
        ? "最接近的句子没有说出问题所问的内容（金额、期限、审批人、时间或是否允许）"
        : "the closest sentence does not say what the question asks for (an amount, a time, who, when, or whether it is allowed)";
    case "question_cut":
      return zh ? `问题过长，只使用了前 ${m.params.chars} 个字符。` : `Only the first ${m.params.chars} characters of the question were used.`;
    case "over_budget":
      return zh
        ? `段落 ${cites(m.params.passages)} 超出了 ${m.params.budget} 个词元的上下文预算，未被使用。`
        : `Passages ${cites(m.params.passages)} did not fit in the context budget of ${m.params.budget} tokens and were not used.`;
    case "no_server":
      return zh ? "未设置嵌入服务器，仅使用关键词检索" : "no embeddings server is set up; keyword search only";
    case "not_embedded":
      return zh
        ? `您的文件尚未用 ${m.params.model} 生成向量；在此之前仅使用关键词检索`
        : `your documents are not embedded with ${m.params.model} yet; keyword search only until they are`;
    case "partly_embedded":
      return zh
        ? `${m.params.total} 个段落中已有 ${m.params.embedded} 个用 ${m.params.model} 生成向量；其余 ${m.params.total - m.params.embedded} 个在生成向量前仅按关键词检索`
        : `${m.params.embedded} of ${m.params.total} passages are embedded with ${m.params.model}; the other ${m.params.total - m.params.embedded} are found by keywords only until they are`;
    case "server_unusable":
      return zh ? `嵌入模型不可用（${detail(m.params)}），仅使用关键词检索` : `${m.params.detail}; keyword search only`;
    case "rerank_unusable":
      return zh ? `重排序模型不可用（${detail(m.params)}），段落按原排序` : `the reranker could not be used (${m.params.detail}); passages in their first order`;
    case "model_found_nothing":
      return zh ? "模型认为检索到的段落不能回答这个问题" : "the model found that the passages do not answer the question";
    case "model_unsupported":
      return zh
        ? "模型回答中没有一句得到段落的支持；以下是最接近的段落"
        : "none of the model's sentences is supported by the passages; these are the closest passages";
    case "model_cut_short":
      return zh
        ? `模型的回答达到 ${m.params.tokens} 个词元的上限，可能不完整。`
        : `The model's answer reached its limit of ${m.params.tokens} tokens and may be cut short.`;
    case "model_stopped":
      return zh ? "您停止了模型的回答；以下是摘录式回答" : "you stopped the model's answer; this is the extractive answer";
    case "model_failed":
      return zh
        ? `模型回答失败（${detail(m.params)}）；以下是摘录式回答`
        : `the model's answer failed (${m.params.detail}); this is the extractive answer`;
    case "model_said_nothing":
      return zh ? "模型没有给出任何文字；以下是摘录式回答" : "the model wrote nothing; this is the extractive answer";
    case "model_cited_nothing":
      return zh
        ? "模型的回答没有引用任何段落，无法核对；以下是摘录式回答"
        : "the model's answer cites no passage, so it cannot be checked; this is the extractive answer";
    case "sources_differ":
      return zh
        ? `注意：[${m.params.a}] 与 [${m.params.b}] 来自不同文件，对同一规定给出的数值不一致，请核对两处原文。`
        : `Note: [${m.params.a}] and [${m.params.b}] come from different documents and give different values for the same rule; check both.`;
  }
}

/** Messages in the UI's language; answers stored before codes existed keep their English words. */
export function sayAll(codes: Message[] | undefined, english: string[]): string[] {
  return codes && codes.length > 0 ? codes.map(say) : english;
}
