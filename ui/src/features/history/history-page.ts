// History: past questions, reopenable; the thumbs given to each answer.

import { h, replace } from "../../dom";
import { t } from "../../i18n";
import { ipc } from "../../ipc";

export class HistoryPage {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;

  constructor(
    private readonly onOpen: (id: number) => void,
    private readonly onError: (e: unknown) => void,
  ) {
    this.list = h("ol", { class: "history" });
    this.element = h("section", { class: "page history-page", attrs: { "aria-label": t("tabHistory") } }, this.list);
  }

  async refresh(): Promise<void> {
    try {
      const entries = await ipc.history(200);
      if (entries.length === 0) {
        replace(this.list, h("li", { class: "empty" }, t("noHistory")));
        return;
      }
      replace(
        this.list,
        ...entries.map((e) =>
          h(
            "li",
            { testid: "history-entry" },
            h("button", { attrs: { type: "button" }, on: { click: () => this.onOpen(e.id) } }, e.question),
            e.status === "answered"
              ? h("span", { class: "status status-answered", attrs: { role: "img", "aria-label": t("statusAnswered"), title: t("statusAnswered") } }, "✓")
              : h("span", { class: `status status-${e.status}` }, e.status === "uncertain" ? t("uncertainShort") : t("notFound")),
            e.feedback ? h("span", { class: "fb" }, e.feedback > 0 ? `＋ ${t("helpful")}` : `－ ${t("notHelpful")}`) : null,
            h("time", {}, new Date(e.asked_at * 1000).toLocaleString()),
          ),
        ),
      );
    } catch (err) {
      this.onError(err);
    }
  }
}
