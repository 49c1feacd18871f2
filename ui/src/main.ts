// Evident's window: tabs for Ask, Library, Check a text, History and Settings; the
// source viewer beside them; drops anywhere import files.

import { getCurrentWebview } from "@tauri-apps/api/webview";
import type { Retrieval } from "./bindings";
import { dismissReasons } from "./components/sentences";
import { h, replace } from "./dom";
import { AskPage } from "./features/ask/ask-page";
import { CheckPage } from "./features/check/check-page";
import { HistoryPage } from "./features/history/history-page";
import { LibraryPage } from "./features/library/library-page";
import { SettingsPage } from "./features/settings/settings-page";
import { SourceViewer } from "./features/source/source-viewer";
import { lang, t, type Key } from "./i18n";
import { IpcError, ipc } from "./ipc";
import { loadRetrieval } from "./settings";
import { sayProblem } from "./words";

type Tab = "ask" | "library" | "check" | "history" | "settings";
const TABS: [Tab, Key][] = [
  ["ask", "tabAsk"],
  ["library", "tabLibrary"],
  ["check", "tabCheck"],
  ["history", "tabHistory"],
  ["settings", "tabSettings"],
];

async function start(): Promise<void> {
  const root = document.getElementById("app");
  if (!root) return;
  document.documentElement.lang = lang();
  const status = h("div", { class: "status-bar", attrs: { role: "status", "aria-live": "polite" } });
  const showError = (e: unknown) => {
    const message =
      e instanceof IpcError && e.why ? sayProblem(e.why) : e instanceof IpcError || e instanceof Error ? e.message : String(e);
    // A damaged database has one way out, offered right where the error is shown.
    const wayOut =
      e instanceof IpcError && e.code === "database_corrupt"
        ? h(
            "button",
            {
              testid: "rebuild-now",
              attrs: { type: "button" },
              on: {
                click: () => {
                  select("library");
                  void library.rebuild().then((done) => {
                    if (done) replace(status);
                  });
                },
              },
            },
            t("rebuildNow"),
          )
        : null;
    // The core's message names the CLI's way out; in the window the button is the way.
    const shown = wayOut ? t("databaseDamaged") : `${t("error")}: ${message}`;
    replace(status, h("span", { class: "error", attrs: { role: "alert", title: message } }, shown), wayOut);
  };
  const showStatus = (msg: string) => replace(status, msg);

  const info = await ipc.appInfo().catch((e: unknown) => {
    showError(e);
    return null;
  });
  if (info?.notices.length) showStatus(info.notices.join(" · "));
  const retrieval: Retrieval = loadRetrieval(info?.defaults ?? { k: 5, answer_line: null });
  const viewer = new SourceViewer(showError);
  const ask = new AskPage(viewer, () => retrieval, showError, showStatus);
  const library = new LibraryPage(showError, () => {
    viewer.forget();
    void history.refresh();
  });
  const check = new CheckPage(viewer, () => retrieval, showError);
  const history = new HistoryPage(
    (id) =>
      void ipc.historyAnswer(id).then((a) => {
        ask.show(a, id);
        select("ask");
      }, showError),
    showError,
  );
  const settings = new SettingsPage(retrieval, info?.db_path ?? "", () => window.location.reload(), showError);
  const pages: Record<Tab, HTMLElement> = {
    ask: ask.element,
    library: library.element,
    check: check.element,
    history: history.element,
    settings: settings.element,
  };
  const buttons = new Map<Tab, HTMLButtonElement>();
  const tablist = h(
    "nav",
    { class: "tabs", attrs: { role: "tablist", "aria-label": t("appTitle") } },
    ...TABS.map(([tab, key], i) => {
      const b = h(
        "button",
        {
          testid: `tab-${tab}`,
          attrs: {
            role: "tab",
            type: "button",
            "aria-keyshortcuts": `Control+${i + 1}`,
            "aria-controls": `panel-${tab}`,
            id: `tab-${tab}`,
          },
          on: { click: () => select(tab) },
        },
        t(key),
      );
      buttons.set(tab, b);
      return b;
    }),
  );
  // The WAI-ARIA tabs pattern: arrows, Home and End move between tabs and open them.
  tablist.addEventListener("keydown", (e) => {
    const current = TABS.findIndex(([tab]) => buttons.get(tab) === document.activeElement);
    if (current < 0) return;
    const last = TABS.length - 1;
    const next =
      e.key === "ArrowRight" ? (current + 1) % TABS.length
      : e.key === "ArrowLeft" ? (current + last) % TABS.length
      : e.key === "Home" ? 0
      : e.key === "End" ? last
      : -1;
    const entry = TABS[next];
    if (!entry) return;
    e.preventDefault();
    select(entry[0], true);
  });
  function select(tab: Tab, keepFocusOnTab = false): void {
    for (const [name, el] of Object.entries(pages)) el.hidden = name !== tab;
    for (const [name, b] of buttons) {
      b.setAttribute("aria-selected", String(name === tab));
      b.tabIndex = name === tab ? 0 : -1;
    }
    if (tab === "history") void history.refresh();
    if (tab === "library") void library.refresh();
    if (keepFocusOnTab) buttons.get(tab)?.focus();
    else if (tab === "ask") ask.input.focus();
  }
  for (const [name, el] of Object.entries(pages)) {
    el.setAttribute("role", "tabpanel");
    el.id = `panel-${name}`;
    el.setAttribute("aria-labelledby", `tab-${name}`);
  }
  replace(
    root,
    h("header", { class: "app-header" }, h("h1", {}, "Evident ", h("span", { class: "zh" }, "有据")), tablist),
    h("main", { class: "layout" }, h("div", { class: "pages" }, ...Object.values(pages)), viewer.element),
    status,
  );
  select(info && info.documents === 0 ? "library" : "ask");
  ask.input.focus();

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey && !e.altKey && !e.shiftKey) {
      const i = Number(e.key) - 1;
      const entry = TABS[i];
      if (entry) {
        e.preventDefault();
        select(entry[0]);
      }
    }
    // Esc closes what is on top: a sentence's reasons first, then the source viewer.
    if (e.key === "Escape" && !dismissReasons()) viewer.close();
  });

  // Files dropped anywhere on the window are imported.
  const overlay = h("div", { class: "drop-overlay", attrs: { hidden: true, "aria-hidden": "true" } }, t("dropHere"));
  document.body.append(overlay);
  await getCurrentWebview().onDragDropEvent((event) => {
    const p = event.payload;
    if (p.type === "enter" || p.type === "over") overlay.hidden = false;
    else if (p.type === "leave") overlay.hidden = true;
    else if (p.type === "drop") {
      overlay.hidden = true;
      select("library");
      void library.import(p.paths);
    }
  });
  document.body.dataset.ready = "true";
}

void start();
