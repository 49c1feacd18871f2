// Settings → isolation: whether this system confines the processes that read the
// user's PDFs and scans as Evident asks (no other file, no network, no other program).
// Said plainly when it cannot (an old kernel without Landlock, seccomp refused); the
// built-in model's worker says the same beside the model (embeddings-section.ts).

import type { Isolation } from "../../bindings";
import { h, replace } from "../../dom";
import { t } from "../../i18n";
import { ipc } from "../../ipc";

/** What Settings say about `i`: one line when every worker is confined, else one line
 *  per kind that is not. */
export function isolationText(i: Isolation): string[] {
  const short: string[] = [];
  if (i.pdf) short.push(t("isolationPdf", { what: i.pdf }));
  if (i.ocr) short.push(t("isolationOcr", { what: i.ocr }));
  return short.length > 0 ? short : [t("isolationOk")];
}

export class IsolationSection {
  readonly element: HTMLElement;

  constructor(onError: (e: unknown) => void) {
    const said = h("div", { class: "isolation", testid: "isolation", attrs: { role: "status" } }, h("p", {}, t("isolationChecking")));
    this.element = h("section", { attrs: { "aria-label": t("isolation") } }, h("h2", {}, t("isolation")), said);
    void ipc.isolation().then((i) => {
      const lines = isolationText(i);
      const warn = i.pdf !== null || i.ocr !== null;
      replace(said, ...lines.map((line) => h("p", warn ? { class: "warning" } : {}, line)));
    }, onError);
  }
}
