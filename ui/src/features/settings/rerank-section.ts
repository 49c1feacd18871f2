// Settings → reranker: an optional cross-encoder behind the rerank API of llama.cpp's
// server, vLLM, Infinity or TEI (address, model, optional key), a connection test, and
// turning it off. It only reorders the best passages and answer sentences.

import type { RerankStatus } from "../../bindings";
import { h, replace } from "../../dom";
import { t } from "../../i18n";
import { ipc } from "../../ipc";
import { sayOr } from "../../words";

/// The one line that says whether a reranker orders the passages.
export function rerankStatusText(s: RerankStatus): string {
  switch (s.state) {
    case "on":
      return t("rerankOn", { model: s.model ?? "", url: s.base_url ?? "" });
    case "error":
      return t("rerankError", { message: sayOr(s.why, s.message) });
    default:
      return t("rerankOff");
  }
}

export class RerankSection {
  readonly element: HTMLElement;
  private readonly url: HTMLInputElement;
  private readonly model: HTMLInputElement;
  private readonly models: HTMLDataListElement;
  private readonly key: HTMLInputElement;
  private readonly statusLine: HTMLElement;
  private readonly result: HTMLElement;

  constructor(private readonly onError: (e: unknown) => void) {
    this.url = h("input", {
      testid: "rerank-url",
      attrs: { type: "url", placeholder: "http://127.0.0.1:8012/v1", spellcheck: false },
    });
    this.models = h("datalist", { attrs: { id: "rerank-models" } });
    this.model = h("input", {
      testid: "rerank-model",
      attrs: { type: "text", list: "rerank-models", placeholder: "bge-reranker-v2-m3", spellcheck: false },
    });
    this.key = h("input", { attrs: { type: "password", autocomplete: "off" } });
    this.statusLine = h("p", { class: "status-line", testid: "rerank-status", attrs: { role: "status", "aria-live": "polite" } });
    this.result = h("p", { class: "hint", testid: "rerank-result", attrs: { role: "status" } });
    const button = (label: string, testid: string, run: () => Promise<void>) =>
      h("button", { testid, attrs: { type: "button" }, on: { click: () => void run() } }, label);
    this.element = h(
      "section",
      { class: "rerank", attrs: { "aria-label": t("rerank") } },
      h("h2", {}, t("rerank")),
      h("p", { class: "hint" }, t("rerankHint")),
      this.statusLine,
      h("label", {}, t("serverUrl"), this.url),
      h("label", {}, t("rerankModel"), this.model, this.models),
      h("label", {}, t("apiKey"), this.key),
      h(
        "div",
        { class: "actions" },
        button(t("testConnection"), "rerank-test", () => this.test()),
        button(t("useServer"), "rerank-save", () => this.save()),
        button(t("turnOff"), "rerank-off", () => this.turnOff()),
      ),
      this.result,
    );
    void ipc.rerankStatus().then((s) => {
      this.show(s);
      this.url.value = s.base_url ?? "";
      this.model.value = s.model ?? "";
    }, onError);
  }

  private show(s: RerankStatus): void {
    this.statusLine.textContent = rerankStatusText(s);
    this.statusLine.dataset.state = s.state;
    this.statusLine.classList.toggle("error", s.state === "error");
    this.key.placeholder = s.has_key ? t("apiKeySaved") : "";
  }

  private fields(): [string, string, string | null] {
    return [this.url.value.trim(), this.model.value.trim(), this.key.value || null];
  }

  private async test(): Promise<void> {
    try {
      const check = await ipc.testRerankServer(...this.fields());
      replace(this.models, ...check.models.map((m) => h("option", { attrs: { value: m } })));
      this.result.textContent = check.ok ? t("rerankOk", { model: this.model.value.trim() }) : sayOr(check.why, check.message);
    } catch (e) {
      this.onError(e);
    }
  }

  private async save(): Promise<void> {
    try {
      const check = await ipc.setRerankSettings(...this.fields());
      replace(this.models, ...check.models.map((m) => h("option", { attrs: { value: m } })));
      this.result.textContent = check.ok ? t("rerankOk", { model: this.model.value.trim() }) : sayOr(check.why, check.message);
      if (check.ok) this.key.value = "";
      this.show(await ipc.rerankStatus());
    } catch (e) {
      this.onError(e);
    }
  }

  private async turnOff(): Promise<void> {
    try {
      await ipc.clearRerankSettings();
      this.result.textContent = "";
      this.show(await ipc.rerankStatus());
    } catch (e) {
      this.onError(e);
    }
  }
}
