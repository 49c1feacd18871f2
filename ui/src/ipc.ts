// The one place that talks to the Rust side. Every command is typed with the
// declarations generated from the Rust types (bindings.ts).

import { Channel, invoke } from "@tauri-apps/api/core";
import { listen, type UnlistenFn } from "@tauri-apps/api/event";
import type {
  Answer,
  AnswerSettings,
  Mode,
  AliasWarning,
  AppInfo,
  AskResult,
  Checked,
  CommandError,
  DocumentRecord,
  DocumentView,
  EmbeddingStatus,
  ExportFormat,
  Lang,
  HistoryEntry,
  ImportProgress,
  ImportSummary,
  Isolation,
  LibrarySync,
  Located,
  PromptFamily,
  RebuildReport,
  RerankStatus,
  Retrieval,
  Problem,
  ServerCheck,
  Source,
} from "./bindings";

/// A command's failure, with the `{code, message, why}` the shell sends: `why` says a
/// problem with a file or a model in the window's language.
export class IpcError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly why: Problem | null = null,
  ) {
    super(message);
  }
}

async function call<T>(command: string, args: Record<string, unknown> = {}): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (e) {
    const err = e as Partial<CommandError> | string;
    if (typeof err === "object" && err && typeof err.message === "string") {
      throw new IpcError(err.code ?? "internal", err.message, err.why ?? null);
    }
    throw new IpcError("internal", String(e));
  }
}

export const ipc = {
  appInfo: () => call<AppInfo>("app_info"),
  isolation: () => call<Isolation>("isolation"),
  /// Asks; a model's text, when the user chose model answers, arrives piece by piece
  /// through `onText` before the checked answer resolves.
  ask: (question: string, retrieval: Retrieval, onText: (piece: string) => void = () => {}) => {
    const channel = new Channel<string>();
    channel.onmessage = onText;
    return call<AskResult>("ask", { question, retrieval, onText: channel });
  },
  stopAnswer: () => call<null>("stop_answer"),
  answerSettings: () => call<AnswerSettings>("answer_settings"),
  testAnswerModel: (baseUrl: string, model: string, apiKey: string | null) =>
    call<ServerCheck>("test_answer_model", { baseUrl, model, apiKey }),
  /// Saves the kind of answer and, with `baseUrl`, the answer model (tested first).
  setAnswerSettings: (mode: Mode, baseUrl: string | null, model: string | null, apiKey: string | null) =>
    call<ServerCheck>("set_answer_settings", { mode, baseUrl, model, apiKey }),
  checkText: (text: string, retrieval: Retrieval) => call<Checked>("check_text", { text, retrieval }),
  documents: () => call<DocumentRecord[]>("documents"),
  removeDocument: (id: number) => call<boolean>("remove_document", { id }),
  importPaths: (paths: string[]) => call<ImportSummary>("import_paths", { paths }),
  /** Imports documents' files again, by id (a shown path may not name the file). */
  reimportDocuments: (ids: number[]) => call<ImportSummary>("reimport_documents", { ids }),
  rebuildIndex: () => call<RebuildReport>("rebuild_index"),
  /// Stops the running import (files not yet written are left out, whole).
  cancelImport: () => call<boolean>("cancel_import"),
  documentView: (id: number) => call<DocumentView>("document_view", { id }),
  /// Where a cited passage is now (by its file and text); null if the file is gone.
  locateSource: (source: Source) => call<Located | null>("locate_source", { source }),
  /// One page of a PDF drawn `width` pixels wide, with its text boxes (see `parsePage`).
  pdfPage: (id: number, page: number, width: number) => call<ArrayBuffer>("pdf_page", { id, page, width }),
  openSource: (id: number) => call<null>("open_source", { id }),
  exportAnswer: (answer: Answer, format: ExportFormat, lang: Lang) =>
    call<string>("export_answer", { answer, format, lang }),
  /// Shows the native save dialog (in Rust) and writes the export there; null if cancelled.
  saveExport: (answer: Answer, format: ExportFormat, lang: Lang, title: string) =>
    call<string | null>("save_export", { answer, format, lang, title }),
  history: (limit: number) => call<HistoryEntry[]>("history", { limit }),
  historyAnswer: (id: number) => call<Answer>("history_answer", { id }),
  setFeedback: (id: number, feedback: number | null) => call<null>("set_feedback", { id, feedback }),
  getAliases: () => call<string>("get_aliases"),
  setAliases: (text: string) => call<AliasWarning[]>("set_aliases", { text }),
  embeddingStatus: () => call<EmbeddingStatus>("embedding_status"),
  testEmbeddingServer: (baseUrl: string, model: string, apiKey: string | null, prompt: PromptFamily | null) =>
    call<ServerCheck>("test_embedding_server", { baseUrl, model, apiKey, prompt }),
  detectLocalServer: () => call<string[] | null>("detect_local_server"),
  setEmbeddingSettings: (baseUrl: string, model: string, apiKey: string | null, prompt: PromptFamily | null) =>
    call<ServerCheck>("set_embedding_settings", { baseUrl, model, apiKey, prompt }),
  clearEmbeddingSettings: () => call<null>("clear_embedding_settings"),
  setBuiltinModel: (enabled: boolean, file: string | null) => call<null>("set_builtin_model", { enabled, file }),
  rerankStatus: () => call<RerankStatus>("rerank_status"),
  testRerankServer: (baseUrl: string, model: string, apiKey: string | null) =>
    call<ServerCheck>("test_rerank_server", { baseUrl, model, apiKey }),
  setRerankSettings: (baseUrl: string, model: string, apiKey: string | null) =>
    call<ServerCheck>("set_rerank_settings", { baseUrl, model, apiKey }),
  clearRerankSettings: () => call<null>("clear_rerank_settings"),
  onEmbeddingStatus: (handler: (s: EmbeddingStatus) => void): Promise<UnlistenFn> =>
    listen<EmbeddingStatus>("embedding-status", (e) => handler(e.payload)),
  onImportProgress: (handler: (p: ImportProgress) => void): Promise<UnlistenFn> =>
    listen<ImportProgress>("import-progress", (e) => handler(e.payload)),
  librarySync: () => call<LibrarySync>("library_sync"),
  /// A rebuild that waits for this many questions being answered from the old index.
  onRebuildWaiting: (handler: (users: number) => void): Promise<UnlistenFn> =>
    listen<number>("rebuild-waiting", (e) => handler(e.payload)),
  onLibrarySynced: (handler: (s: LibrarySync) => void): Promise<UnlistenFn> =>
    listen<LibrarySync>("library-synced", (e) => handler(e.payload)),
};
