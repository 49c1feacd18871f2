// What keeping the watched folders in sync last did, as the Library shows it: how many
// documents were added, updated, renamed or removed, the files that could not be read,
// folders that are not there (their documents are kept), and why syncing stopped.

import type { LibrarySync } from "../../bindings";
import { type Child, h } from "../../dom";
import { t } from "../../i18n";
import { sayProblem } from "../../words";

export function renderSync(s: LibrarySync): Child[] {
  const c = s.counts;
  const parts = [
    [c.added, "syncAdded"],
    [c.updated, "syncUpdated"],
    [c.renamed, "syncRenamed"],
    [c.removed, "syncRemoved"],
    [c.failed, "syncFailed"],
  ] as const;
  const counted = parts.filter(([n]) => n > 0).map(([n, key]) => t(key, { n }));
  const failed = s.changes.flatMap((ch) => (ch.change === "failed" ? [ch] : []));
  return [
    s.watching.length ? h("p", { attrs: { title: s.watching.join("\n") } }, t("syncWatching", { n: s.watching.length })) : null,
    counted.length
      ? h(
          "p",
          { testid: "library-sync-changes" },
          t("syncChanged", { time: new Date(s.at * 1000).toLocaleTimeString() }),
          " ",
          counted.join(" · "),
        )
      : null,
    failed.length
      ? h(
          "ul",
          { class: "sync-failed" },
          ...failed.map((f) => h("li", { class: "outcome-failed" }, h("span", { class: "path" }, f.path), " — ", sayProblem(f.why))),
        )
      : null,
    s.unreachable.length
      ? h("p", { class: "warning" }, t("syncUnreachable"), " ", ...s.unreachable.map((p) => h("span", { class: "path" }, p)))
      : null,
    s.unwatched.length
      ? h(
          "ul",
          { class: "warning sync-unwatched", testid: "library-unwatched" },
          ...s.unwatched.map((u) => h("li", {}, t("syncUnwatched"), " ", h("span", { class: "path" }, u.path), " — ", sayProblem(u.why))),
        )
      : null,
    s.error ? h("p", { class: "error" }, t("syncError"), " ", s.error) : null,
  ];
}
