// Settings: language, retrieval options, meaning search, the reranker, the answer model,
// the isolation of the processes that read files, the alias table.

import type { Retrieval } from "../../bindings";
import { h } from "../../dom";
import { lang, setLang, t, type Lang } from "../../i18n";
import { ipc } from "../../ipc";
import { saveRetrieval } from "../../settings";
import { AnswerModelSection } from "./answer-model-section";
import { EmbeddingsSection } from "./embeddings-section";
import { IsolationSection } from "./isolation-section";
import { RerankSection } from "./rerank-section";

export class SettingsPage {
  readonly element: HTMLElement;
  private readonly aliases: HTMLTextAreaElement;
  private readonly aliasStatus: HTMLElement;

  constructor(
    retrieval: Retrieval,
    dbPath: string,
    onLanguage: () => void,
    private readonly onError: (e: unknown) => void,
  ) {
    const langSelect = h(
      "select",
      { attrs: { "aria-label": t("language") }, on: { change: (e) => { setLang((e.target as HTMLSelectElement).value as Lang); onLanguage(); } } },
      h("option", { attrs: { value: "zh-CN", selected: lang() === "zh-CN" } }, "简体中文"),
      h("option", { attrs: { value: "en", selected: lang() === "en" } }, "English"),
    );
    const k = h("input", { attrs: { type: "number", min: 1, max: 50, value: retrieval.k } });
    const line = h("input", {
      attrs: { type: "number", min: 0, max: 1, step: 0.05, value: retrieval.answer_line ?? "", placeholder: t("answerLineCalibrated") },
    });
    const store = () => {
      retrieval.k = Math.max(1, Math.min(50, Number(k.value) || 5));
      retrieval.answer_line = line.value.trim() === "" ? null : Math.max(0, Math.min(1, Number(line.value)));
      saveRetrieval(retrieval);
    };
    k.addEventListener("change", store);
    line.addEventListener("change", store);
    this.aliases = h("textarea", { class: "aliases", attrs: { rows: 8, "aria-label": t("aliases") } });
    this.aliasStatus = h("p", { attrs: { role: "status" } });
    this.element = h(
      "section",
      { class: "page settings-page", attrs: { "aria-label": t("tabSettings") } },
      h("label", {}, t("language"), langSelect),
      h("h2", {}, t("retrieval")),
      h("label", {}, t("topK"), k),
      h("label", {}, t("answerLine"), line),
      new EmbeddingsSection(onError).element,
      new RerankSection(onError).element,
      new AnswerModelSection(onError).element,
      new IsolationSection(onError).element,
      h("label", { class: "aliases-label" }, t("aliases"), this.aliases),
      h("button", { attrs: { type: "button" }, on: { click: () => void this.saveAliases() } }, t("save")),
      this.aliasStatus,
      h("p", { class: "path" }, `${t("database")}: ${dbPath}`),
    );
    void ipc.getAliases().then((text) => (this.aliases.value = text), onError);
  }

  private async saveAliases(): Promise<void> {
    try {
      const warnings = await ipc.setAliases(this.aliases.value);
      this.aliasStatus.textContent = warnings.length
        ? warnings.map((w) => t("aliasLineNeedsTwo", { line: w.line })).join(t("listSeparator"))
        : "✓";
    } catch (e) {
      this.onError(e);
    }
  }
}
