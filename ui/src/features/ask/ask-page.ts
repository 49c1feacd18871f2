// Ask: a question box focused on start (Enter asks), the answer with checked
// citations, export and feedback.

import type { Answer, Retrieval } from "../../bindings";
import { h, replace } from "../../dom";
import { lang, t } from "../../i18n";
import { ipc } from "../../ipc";
import type { SourceViewer } from "../source/source-viewer";
import { renderAnswer } from "./answer-view";

export class AskPage {
  readonly element: HTMLElement;
  readonly input: HTMLTextAreaElement;
  private readonly result: HTMLElement;
  private readonly toolbar: HTMLElement;
  private answer: Answer | null = null;
  private historyId: number | null = null;

  constructor(
    private readonly viewer: SourceViewer,
    private readonly retrieval: () => Retrieval,
    private readonly onError: (e: unknown) => void,
    private readonly onStatus: (msg: string) => void,
  ) {
    this.input = h("textarea", {
      class: "question",
      testid: "question",
      attrs: { rows: 2, placeholder: t("questionPlaceholder"), "aria-label": t("questionLabel") },
      on: {
        keydown: (e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            void this.ask();
          }
        },
      },
    });
    this.result = h("div", { class: "result" });
    this.toolbar = h("div", { class: "answer-toolbar", attrs: { hidden: true } });
    this.element = h(
      "section",
      { class: "page ask-page", attrs: { "aria-label": t("tabAsk") } },
      h(
        "form",
        { class: "ask-form", on: { submit: (e) => { e.preventDefault(); void this.ask(); } } },
        this.input,
        h("button", { class: "primary", testid: "ask", attrs: { type: "submit" } }, t("ask")),
      ),
      this.result,
      this.toolbar,
    );
  }

  // A question is being answered: a second Enter or click does not ask it again.
  private asking = false;

  async ask(): Promise<void> {
    if (this.asking) return;
    this.asking = true;
    try {
      await this.askNow();
    } finally {
      this.asking = false;
    }
  }

  private async askNow(): Promise<void> {
    const question = this.input.value.trim();
    if (!question) return;
    // A source never stands beside an answer it does not belong to.
    this.viewer.close();
    const busy = h("p", { class: "busy", attrs: { role: "status" } }, t("asking"));
    replace(this.result, busy);
    this.toolbar.hidden = true;
    // A model's text appears as it is written, plainly (as text, never markup), with a
    // stop button from the moment the model is asked (an empty first piece says so);
    // the checked answer replaces it when the model is done.
    let draft: HTMLElement | null = null;
    const onText = (piece: string) => {
      if (!draft) {
        draft = h("p", { class: "draft", testid: "draft", attrs: { "aria-live": "off" } });
        busy.textContent = t("modelReading");
        replace(
          this.result,
          h(
            "div",
            { class: "writing" },
            busy,
            h(
              "button",
              { testid: "stop", attrs: { type: "button" }, on: { click: () => void ipc.stopAnswer().catch(this.onError) } },
              t("stop"),
            ),
          ),
          draft,
        );
      }
      if (piece) {
        busy.textContent = t("writing");
        draft.append(piece);
      }
    };
    try {
      const started = performance.now();
      const { answer, history_id } = await ipc.ask(question, this.retrieval(), onText);
      this.show(answer, history_id);
      this.element.dataset.askMs = String(Math.round(performance.now() - started));
    } catch (e) {
      replace(this.result);
      this.onError(e);
    }
  }

  show(answer: Answer, historyId: number | null): void {
    this.viewer.close();
    this.answer = answer;
    this.historyId = historyId;
    this.input.value = answer.question;
    replace(
      this.result,
      renderAnswer(answer, {
        onCite: (s) => void this.viewer.open(s),
      }),
    );
    this.renderToolbar();
  }

  private renderToolbar(): void {
    const feedback = (value: number) =>
      h(
        "button",
        {
          class: "feedback",
          testid: value > 0 ? "feedback-helpful" : "feedback-not-helpful",
          attrs: { type: "button", "aria-label": value > 0 ? t("helpful") : t("notHelpful"), "aria-pressed": "false" },
          on: {
            click: (e) => {
              if (this.historyId === null) return;
              const button = e.currentTarget as HTMLButtonElement;
              void ipc.setFeedback(this.historyId, value).then(() => {
                this.toolbar.querySelectorAll(".feedback").forEach((b) => b.setAttribute("aria-pressed", "false"));
                button.setAttribute("aria-pressed", "true");
              }, this.onError);
            },
          },
        },
        value > 0 ? `＋ ${t("helpful")}` : `－ ${t("notHelpful")}`,
      );
    replace(
      this.toolbar,
      h("button", { testid: "export-markdown", attrs: { type: "button" }, on: { click: () => void this.export("markdown") } }, t("exportMarkdown")),
      h("button", { testid: "export-html", attrs: { type: "button" }, on: { click: () => void this.export("html") } }, t("exportHtml")),
      h("button", { attrs: { type: "button" }, on: { click: () => void this.copy() } }, t("copyMarkdown")),
      this.historyId !== null ? feedback(1) : null,
      this.historyId !== null ? feedback(-1) : null,
    );
    this.toolbar.hidden = false;
  }

  private async export(format: "markdown" | "html"): Promise<void> {
    if (!this.answer) return;
    try {
      const title = format === "markdown" ? t("exportMarkdown") : t("exportHtml");
      const path = await ipc.saveExport(this.answer, format, lang(), title);
      if (!path) return;
      this.onStatus(`${t("saved")} ${path}`);
    } catch (e) {
      this.onError(e);
    }
  }

  private async copy(): Promise<void> {
    if (!this.answer) return;
    try {
      await navigator.clipboard.writeText(await ipc.exportAnswer(this.answer, "markdown", lang()));
      this.onStatus(t("copied"));
    } catch (e) {
      this.onError(e);
    }
  }
}
