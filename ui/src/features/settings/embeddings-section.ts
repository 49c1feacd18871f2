// Settings → meaning search: the built-in model (which file, where it was found, its
// size and licence; choose another), the embeddings server (address, model, optional
// key, the prompts the model is given), a connection test, the background embedding's
// progress, and an offer to use a model server that already answers at Ollama's
// default address.

import { open } from "@tauri-apps/plugin-dialog";
import type { BuiltinStatus, EmbeddingStatus, PromptFamily } from "../../bindings";
import { h, replace } from "../../dom";
import { sentences, t } from "../../i18n";
import { ipc } from "../../ipc";
import { sayOr } from "../../words";

const OLLAMA_URL = "http://127.0.0.1:11434/v1";

/// Every prompt family, in the order the settings list them.
export const PROMPT_FAMILIES: PromptFamily[] = [
  "embedding-gemma",
  "e5",
  "e5-instruct",
  "qwen3",
  "nomic",
  "represent-query",
  "bge-zh",
  "none",
];

/// A prompt family's name for people.
export function promptLabel(family: PromptFamily): string {
  return t(`prompt_${family}`);
}

/// The line under the prompt choice: what is in use, and whether it was recognised.
export function promptText(s: EmbeddingStatus): string {
  if (!s.prompt_in_use) return "";
  return s.prompt ? promptLabel(s.prompt) : t("promptAuto", { family: promptLabel(s.prompt_in_use) });
}

/// A time left in words: seconds under a minute, else minutes (rounded up), else hours
/// and minutes.
export function timeLeft(seconds: number): string {
  if (seconds < 60) return t("leftSeconds", { n: seconds });
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return t("leftMinutes", { n: minutes });
  return t("leftHours", { h: Math.floor(minutes / 60), m: minutes % 60 });
}

/// The one line that says where meaning search stands.
export function statusText(s: EmbeddingStatus): string {
  const model = s.model ?? "";
  switch (s.state) {
    case "ready":
      return t("embeddingsReady", { model, total: s.total });
    case "embedding":
      // The pass announces itself before it has counted (and before a built-in
      // model has loaded): "0 of 0" would read as nothing to do.
      if (s.total === 0) return t("embeddingsStarting", { model });
      // Every passage first (what meaning search finds), then their sentences.
      return sentences([
        s.embedded < s.total
          ? t("embeddingsProgress", { model, embedded: s.embedded, total: s.total })
          : t("embeddingsSentences", { model, embedded: s.sentences, total: s.total }),
        s.seconds_left === null ? "" : t("embeddingsLeft", { left: timeLeft(s.seconds_left) }),
      ]);
    case "error":
      return t("embeddingsError", { message: sayOr(s.why, s.message) });
    default:
      return t("embeddingsOff");
  }
}

/// Shows the embedding pass's progress on `bar`, its passages and then their
/// sentences as one way; hides it (and answers false) when no pass is running or it
/// has not counted yet.
export function showProgress(bar: HTMLProgressElement, s: EmbeddingStatus): boolean {
  const running = s.state === "embedding" && s.total > 0;
  bar.hidden = !running;
  if (running) {
    bar.max = 2 * s.total;
    bar.value = s.embedded + s.sentences;
  }
  return running;
}

/// Where the built-in model was found, in words.
function foundText(b: BuiltinStatus): string {
  if (b.found === "ollama") return t("builtinFoundOllama", { name: b.ollama_name ?? "" });
  return t(b.found === "chosen" ? "builtinFoundChosen" : "builtinFoundFolder");
}

/// The line that says which built-in model is in use (or why none is).
export function builtinText(s: EmbeddingStatus): string {
  if (s.base_url) return t("builtinServerWins");
  if (s.builtin_settings && !s.builtin_settings.enabled) return t("builtinOff");
  const b = s.builtin;
  if (!b) return "";
  const mb = Math.round(b.size / 1e6);
  const details = [b.architecture, b.size_label, `${mb} MB`].filter(Boolean).join(", ");
  const line = t("builtinInUse", {
    name: b.name,
    details,
    found: foundText(b),
    license: b.license ?? t("licenceUnknown"),
  });
  // Said when this system's kernel could not confine the model's worker fully.
  return b.unconfined ? `${line} ${t("builtinUnconfined", { what: b.unconfined })}` : line;
}

export class EmbeddingsSection {
  readonly element: HTMLElement;
  private readonly url: HTMLInputElement;
  private readonly model: HTMLInputElement;
  private readonly models: HTMLDataListElement;
  private readonly key: HTMLInputElement;
  private readonly prompt: HTMLSelectElement;
  private readonly promptLine: HTMLElement;
  private readonly statusLine: HTMLElement;
  private readonly progress: HTMLProgressElement;
  private readonly result: HTMLElement;
  private readonly offer: HTMLElement;
  private readonly builtinLine: HTMLElement;
  private readonly builtinMore: HTMLElement;
  private readonly builtinEnabled: HTMLInputElement;
  private builtinFile: string | null = null;

  constructor(private readonly onError: (e: unknown) => void) {
    this.builtinLine = h("p", { class: "status-line", testid: "builtin-model" });
    this.builtinMore = h("p", { class: "hint", testid: "builtin-more" });
    this.builtinEnabled = h("input", {
      testid: "builtin-enabled",
      attrs: { type: "checkbox", checked: true },
      on: { change: () => void this.setBuiltin(this.builtinEnabled.checked, this.builtinFile) },
    });
    this.url = h("input", { testid: "embed-url", attrs: { type: "url", placeholder: OLLAMA_URL, spellcheck: false } });
    this.models = h("datalist", { attrs: { id: "embedding-models" } });
    this.model = h("input", {
      testid: "embed-model",
      attrs: { type: "text", list: "embedding-models", placeholder: "bge-m3", spellcheck: false },
    });
    this.key = h("input", { attrs: { type: "password", autocomplete: "off" } });
    this.prompt = h(
      "select",
      { testid: "embed-prompt" },
      h("option", { attrs: { value: "auto" } }, t("promptAuto", { family: "…" })),
      ...PROMPT_FAMILIES.map((f) => h("option", { attrs: { value: f } }, promptLabel(f))),
    );
    this.promptLine = h("p", { class: "hint", testid: "embed-prompt-in-use" });
    this.statusLine = h("p", { class: "status-line", testid: "embed-status", attrs: { role: "status", "aria-live": "polite" } });
    this.progress = h("progress", { attrs: { hidden: true, max: 1, value: 0 } });
    this.result = h("p", { class: "hint", attrs: { role: "status" } });
    this.offer = h("div", { class: "hint", attrs: { hidden: true } });
    const button = (label: string, testid: string, run: () => Promise<void>) =>
      h("button", { testid, attrs: { type: "button" }, on: { click: () => void run() } }, label);
    this.element = h(
      "section",
      { class: "embeddings", attrs: { "aria-label": t("embeddings") } },
      h("h2", {}, t("embeddings")),
      h("p", { class: "hint" }, t("embeddingsHint")),
      this.statusLine,
      this.progress,
      h("h3", {}, t("builtinTitle")),
      this.builtinLine,
      this.builtinMore,
      h("label", { class: "inline" }, this.builtinEnabled, " ", t("builtinEnabled")),
      h(
        "div",
        { class: "actions" },
        button(t("builtinChoose"), "builtin-choose", () => this.chooseFile()),
        button(t("builtinAuto"), "builtin-auto", () => this.setBuiltin(true, null)),
      ),
      this.offer,
      h("label", {}, t("serverUrl"), this.url),
      h("label", {}, t("modelName"), this.model, this.models),
      h("label", {}, t("apiKey"), this.key),
      h("label", {}, t("promptFamily"), this.prompt),
      this.promptLine,
      h("p", { class: "hint" }, t("promptHint")),
      h(
        "div",
        { class: "actions" },
        button(t("testConnection"), "embed-test", () => this.test()),
        button(t("useServer"), "embed-save", () => this.save()),
        button(t("turnOff"), "embed-off", () => this.turnOff()),
      ),
      this.result,
    );
    void ipc.embeddingStatus().then((s) => {
      this.show(s);
      this.url.value = s.base_url ?? "";
      // The server's model, not the built-in one (which `model` names when no server
      // is set up): that name in this field would be sent to the next server tried.
      this.model.value = s.base_url ? (s.model ?? "") : "";
      this.prompt.value = s.prompt ?? "auto";
      if (s.state === "off") void this.detect();
    }, onError);
    void ipc.onEmbeddingStatus((s) => this.show(s));
  }

  private show(s: EmbeddingStatus): void {
    this.statusLine.textContent = statusText(s);
    this.promptLine.textContent = promptText(s);
    const auto = this.prompt.options[0];
    if (auto) auto.textContent = t("promptAuto", { family: s.prompt_in_use && !s.prompt ? promptLabel(s.prompt_in_use) : "…" });
    this.statusLine.dataset.state = s.state;
    this.builtinLine.textContent = builtinText(s);
    this.builtinMore.textContent = s.builtin
      ? [s.builtin.file, s.builtin.licence_file ? t("builtinLicenceFile", { file: s.builtin.licence_file }) : ""].filter(Boolean).join(" · ")
      : s.base_url || !s.builtin_settings?.enabled || !s.models_dir
        ? ""
        : [sayOr(s.why, s.message), t("builtinNone", { dir: s.models_dir })].filter(Boolean).join(" ");
    if (s.builtin_settings) {
      this.builtinEnabled.checked = s.builtin_settings.enabled;
      this.builtinFile = s.builtin_settings.file ?? null;
    }
    this.statusLine.classList.toggle("error", s.state === "error");
    this.key.placeholder = s.has_key ? t("apiKeySaved") : "";
    showProgress(this.progress, s);
  }

  private fields(): [string, string, string | null, PromptFamily | null] {
    const prompt = this.prompt.value === "auto" ? null : (this.prompt.value as PromptFamily);
    return [this.url.value.trim() || OLLAMA_URL, this.model.value.trim(), this.key.value || null, prompt];
  }

  private fillModels(models: string[]): void {
    replace(this.models, ...models.map((m) => h("option", { attrs: { value: m } })));
  }

  private async test(): Promise<void> {
    try {
      const check = await ipc.testEmbeddingServer(...this.fields());
      this.fillModels(check.models);
      this.result.textContent = check.ok ? t("connectionOk", { dim: check.dim ?? 0 }) : sayOr(check.why, check.message);
    } catch (e) {
      this.onError(e);
    }
  }

  private async save(): Promise<void> {
    try {
      const check = await ipc.setEmbeddingSettings(...this.fields());
      this.fillModels(check.models);
      this.result.textContent = check.ok ? t("connectionOk", { dim: check.dim ?? 0 }) : sayOr(check.why, check.message);
      if (check.ok) {
        this.key.value = "";
        this.offer.hidden = true;
      }
    } catch (e) {
      this.onError(e);
    }
  }

  private async turnOff(): Promise<void> {
    try {
      await ipc.clearEmbeddingSettings();
      this.result.textContent = "";
    } catch (e) {
      this.onError(e);
    }
  }

  private async setBuiltin(enabled: boolean, file: string | null): Promise<void> {
    try {
      await ipc.setBuiltinModel(enabled, file);
    } catch (e) {
      this.onError(e);
    }
  }

  /// A GGUF file picked in the system's file dialog becomes the built-in model.
  private async chooseFile(): Promise<void> {
    const picked = await open({ multiple: false, directory: false, filters: [{ name: t("ggufFiles"), extensions: ["gguf"] }] }).catch(this.onError);
    if (typeof picked === "string") await this.setBuiltin(true, picked);
  }

  /// Offers a server that answers at Ollama's default address, with its models.
  private async detect(): Promise<void> {
    const models = await ipc.detectLocalServer().catch(() => null);
    if (!models?.length) return;
    this.fillModels(models);
    const pick = h("select", { attrs: { "aria-label": t("modelName") } }, ...models.map((m) => h("option", { attrs: { value: m } }, m)));
    replace(
      this.offer,
      t("localServerFound", { url: OLLAMA_URL }),
      " ",
      pick,
      " ",
      h(
        "button",
        {
          attrs: { type: "button" },
          on: {
            click: () => {
              this.url.value = OLLAMA_URL;
              this.model.value = pick.value;
              void this.save();
            },
          },
        },
        t("useIt"),
      ),
    );
    this.offer.hidden = false;
  }
}
