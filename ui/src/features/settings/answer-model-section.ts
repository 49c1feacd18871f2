// Settings → answers written by a model: quote the documents (the default) or let a
// local chat model write the answer; the model server (address, model picked from the
// server's own list, optional key) and a connection test. One server may serve this
// and meaning search both.

import type { AnswerSettings, Mode } from "../../bindings";
import { h, replace } from "../../dom";
import { t } from "../../i18n";
import { ipc } from "../../ipc";
import { sayOr } from "../../words";

const OLLAMA_URL = "http://127.0.0.1:11434/v1";

/// The one line that says how answers are written now.
export function answerStatusText(s: AnswerSettings): string {
  if (s.mode === "generated" && s.base_url && s.model) {
    return t("answerModelUsing", { model: s.model, url: s.base_url });
  }
  return s.base_url ? t("answerModelQuoting") : `${t("answerModelQuoting")} ${t("answerModelNone")}`;
}

export class AnswerModelSection {
  readonly element: HTMLElement;
  private readonly extractive: HTMLInputElement;
  private readonly generated: HTMLInputElement;
  private readonly url: HTMLInputElement;
  private readonly model: HTMLSelectElement;
  private readonly key: HTMLInputElement;
  private readonly statusLine: HTMLElement;
  private readonly result: HTMLElement;

  constructor(private readonly onError: (e: unknown) => void) {
    const radio = (value: Mode, testid: string) =>
      h("input", {
        testid,
        attrs: { type: "radio", name: "answer-mode", value },
        on: { change: () => void this.saveMode() },
      });
    this.extractive = radio("extractive", "answer-mode-extractive");
    this.generated = radio("generated", "answer-mode-generated");
    this.url = h("input", { testid: "llm-url", attrs: { type: "url", placeholder: OLLAMA_URL, spellcheck: false } });
    // Picked from what the server lists (a name it does not list is never used).
    this.model = h("select", { testid: "llm-model", attrs: { "aria-label": t("chatModelName") } });
    this.key = h("input", { attrs: { type: "password", autocomplete: "off" } });
    this.statusLine = h("p", { class: "status-line", testid: "llm-status", attrs: { role: "status", "aria-live": "polite" } });
    this.result = h("p", { class: "hint", testid: "llm-result", attrs: { role: "status" } });
    const button = (label: string, testid: string, run: () => Promise<void>) =>
      h("button", { testid, attrs: { type: "button" }, on: { click: () => void run() } }, label);
    this.element = h(
      "section",
      { class: "answer-model", attrs: { "aria-label": t("answerModel") } },
      h("h2", {}, t("answerModel")),
      h("p", { class: "hint" }, t("answerModelHint")),
      this.statusLine,
      h(
        "fieldset",
        { class: "answer-mode" },
        h("legend", {}, t("answerModeLegend")),
        h("label", { class: "inline" }, this.extractive, t("answerModeExtractive")),
        h("label", { class: "inline" }, this.generated, t("answerModeGenerated")),
      ),
      h("label", {}, t("serverUrl"), this.url),
      h("label", {}, t("chatModelName"), this.model),
      h("label", {}, t("apiKey"), this.key),
      h(
        "div",
        { class: "actions" },
        button(t("testConnection"), "llm-test", () => this.test()),
        button(t("useServer"), "llm-save", () => this.save()),
      ),
      this.result,
    );
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      const s = await ipc.answerSettings();
      this.show(s);
      this.url.value = s.base_url ?? "";
      this.fillModels(s.model ? [s.model] : [], s.model);
      // Offer the models of a server already answering where the settings point.
      if (s.base_url || !s.model) void this.listModels(true);
    } catch (e) {
      this.onError(e);
    }
  }

  private show(s: AnswerSettings): void {
    this.statusLine.textContent = answerStatusText(s);
    this.extractive.checked = s.mode !== "generated";
    this.generated.checked = s.mode === "generated";
    this.key.placeholder = s.has_key ? t("apiKeySaved") : "";
  }

  private fillModels(models: string[], selected: string | null = this.model.value || null): void {
    const names = selected && !models.includes(selected) ? [selected, ...models] : models;
    replace(this.model, ...names.map((m) => h("option", { attrs: { value: m, selected: m === selected } }, m)));
  }

  private fields(): [string, string, string | null] {
    return [this.url.value.trim() || OLLAMA_URL, this.model.value, this.key.value || null];
  }

  /// Fills the model list from the server; quietly when `quiet` (on opening the page).
  private async listModels(quiet: boolean): Promise<void> {
    const [url, , key] = this.fields();
    const check = await ipc.testAnswerModel(url, "", key).catch(() => null);
    if (check?.models.length) this.fillModels(check.models);
    else if (!quiet && check) this.result.textContent = sayOr(check.why, check.message);
  }

  private async test(): Promise<void> {
    try {
      if (!this.model.value) {
        await this.listModels(false);
        if (!this.model.value) return;
      }
      const check = await ipc.testAnswerModel(...this.fields());
      if (check.models.length) this.fillModels(check.models);
      this.result.textContent = check.ok ? t("answerModelOk", { model: this.model.value }) : sayOr(check.why, check.message);
    } catch (e) {
      this.onError(e);
    }
  }

  /// Saves the server (tested first) and switches to model answers.
  private async save(): Promise<void> {
    try {
      if (!this.model.value) await this.listModels(false);
      if (!this.model.value) return;
      const check = await ipc.setAnswerSettings("generated", ...this.fields());
      if (check.models.length) this.fillModels(check.models);
      this.result.textContent = check.ok ? t("answerSettingsSaved") : sayOr(check.why, check.message);
      if (check.ok) this.key.value = "";
      this.show(await ipc.answerSettings());
    } catch (e) {
      this.onError(e);
    }
  }

  private async saveMode(): Promise<void> {
    const mode: Mode = this.generated.checked ? "generated" : "extractive";
    try {
      await ipc.setAnswerSettings(mode, null, null, null);
      this.result.textContent = t("answerSettingsSaved");
    } catch (e) {
      this.onError(e);
    }
    try {
      this.show(await ipc.answerSettings());
    } catch (e) {
      this.onError(e);
    }
  }
}
