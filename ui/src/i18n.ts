// The UI's words in Simplified Chinese and English. The language follows the OS
// locale unless the user picks one in Settings.

const en = {
  appTitle: "Evident",
  tabAsk: "Ask",
  tabLibrary: "Library",
  tabCheck: "Check a text",
  tabHistory: "History",
  tabSettings: "Settings",
  questionPlaceholder: "Ask about your policies, e.g. How many days of parental leave do I get?",
  questionLabel: "Question",
  ask: "Ask",
  asking: "Searching your documents…",
  notFound: "Not found in your documents",
  related: "Related, but not an answer",
  sources: "Sources",
  page: "p.",
  pages: "pp.",
  supported: "Supported by the cited source",
  partially: "Only partly supported",
  unsupported: "Not supported by the documents",
  reasons: "Why",
  openInApp: "Open in default app",
  pageCount: "Pages",
  rebuild: "Rebuild index",
  rebuildHint: "Read every document again from its source file into a fresh index. The current index stays in use until the new one is complete.",
  rebuilding: "Rebuilding the index from the source files",
  rebuilt: "Index rebuilt:",
  brokenKept: "the damaged database was kept as",
  sourcesLost: "the damaged database did not say which files it held; add them again",
  rebuildNow: "Rebuild from the source files",
  databaseDamaged: "Evident's database is damaged. It can be rebuilt from your source files; the damaged file is kept beside it.",
  uncheckedNote: "{n} more sentences were not checked: at most 200 are checked at a time. Paste the rest separately.",
  layoutChanged: "This file has changed since it was imported, so its imported text is shown. Re-index it in the Library to see the current version.",
  layoutUnreadable: "The file cannot be read now, so its imported text is shown:",
  close: "Close",
  prevPage: "Previous page",
  nextPage: "Next page",
  exportMarkdown: "Export Markdown",
  exportHtml: "Export HTML",
  copyMarkdown: "Copy as Markdown",
  copied: "Copied",
  saved: "Saved to",
  helpful: "Helpful",
  notHelpful: "Not helpful",
  dropHere: "Drop files or folders anywhere in the window to import them",
  addDocuments: "Add documents…",
  addFolder: "Add folder…",
  importing: "Importing",
  importSummary: "imported {imported} · unchanged {unchanged} · duplicate {duplicate} · skipped {skipped} · failed {failed}",
  documents: "Documents",
  noDocuments: "No documents yet. Drop your policy files here or use Add documents.",
  kind: "Kind",
  outcomeImported: "imported · {pages} p. · {chunks} passages",
  outcomeUnchanged: "unchanged",
  outcomeDuplicate: "duplicate of {of}",
  outcomeSkipped: "skipped: {reason}",
  outcomeFailed: "failed: {reason}",
  kindPdf: "PDF",
  kindMarkdown: "Markdown",
  kindText: "Text",
  title: "Title",
  chunks: "Chunks",
  imported: "Imported",
  remove: "Remove",
  reindex: "Re-import",
  checkPlaceholder: "Paste any text — a draft reply, an email, an answer from another tool — and every sentence is checked against your documents.",
  checkRun: "Check",
  noHistory: "No questions yet.",
  reopen: "Open",
  language: "Language",
  retrieval: "Retrieval",
  topK: "Passages to retrieve (top-k)",
  floor: "Relevance floor (0–1): below it, the answer is “not found”",
  aliases: "Aliases: one group per line, e.g. 报账 = 报销",
  save: "Save",
  database: "Database",
  error: "Something went wrong",
  notesDiffer: "Note",
  truncated: "over budget, not used",
} as const;

export type Key = keyof typeof en;

const zh: Record<Key, string> = {
  appTitle: "有据",
  tabAsk: "提问",
  tabLibrary: "文档库",
  tabCheck: "核查文本",
  tabHistory: "历史",
  tabSettings: "设置",
  questionPlaceholder: "询问公司制度，例如：单笔报销超过多少需要分管副总审批？",
  questionLabel: "问题",
  ask: "提问",
  asking: "正在检索你的文档…",
  notFound: "文档中没有找到答案",
  related: "相关内容（并非答案）",
  sources: "来源",
  page: "第",
  pages: "第",
  supported: "有引用来源支持",
  partially: "仅部分得到支持",
  unsupported: "文档不支持这一说法",
  reasons: "原因",
  openInApp: "用默认程序打开",
  pageCount: "页数",
  rebuild: "重建索引",
  rebuildHint: "从源文件重新读取全部文档，生成新的索引。新索引完成之前，仍使用当前索引。",
  rebuilding: "正在从源文件重建索引",
  rebuilt: "索引已重建：",
  brokenKept: "损坏的数据库已另存为",
  sourcesLost: "损坏的数据库中无法读出文件列表，请重新添加文档",
  rebuildNow: "从源文件重建",
  databaseDamaged: "Evident 的数据库已损坏，可从源文件重建；损坏的文件会另行保留。",
  uncheckedNote: "另有 {n} 句未检查：每次最多检查 200 句，请将其余部分分开粘贴。",
  layoutChanged: "该文件在导入后已被修改，此处显示导入时的文本。在“文档库”中重新索引即可查看当前版本。",
  layoutUnreadable: "目前无法读取该文件，此处显示导入时的文本：",
  close: "关闭",
  prevPage: "上一页",
  nextPage: "下一页",
  exportMarkdown: "导出 Markdown",
  exportHtml: "导出 HTML",
  copyMarkdown: "复制为 Markdown",
  copied: "已复制",
  saved: "已保存到",
  helpful: "有帮助",
  notHelpful: "没有帮助",
  dropHere: "把文件或文件夹拖到窗口任意位置即可导入",
  addDocuments: "添加文档…",
  addFolder: "添加文件夹…",
  importing: "正在导入",
  importSummary: "导入 {imported} · 未变 {unchanged} · 重复 {duplicate} · 跳过 {skipped} · 失败 {failed}",
  documents: "文档",
  noDocuments: "还没有文档。把制度文件拖到这里，或点击“添加文档”。",
  kind: "类型",
  outcomeImported: "已导入 · {pages} 页 · {chunks} 个段落",
  outcomeUnchanged: "未变化",
  outcomeDuplicate: "与 {of} 内容相同",
  outcomeSkipped: "已跳过：{reason}",
  outcomeFailed: "失败：{reason}",
  kindPdf: "PDF",
  kindMarkdown: "Markdown",
  kindText: "文本",
  title: "标题",
  chunks: "段落",
  imported: "导入时间",
  remove: "移除",
  reindex: "重新导入",
  checkPlaceholder: "粘贴任意文本（回复草稿、邮件、其他工具给出的答案），逐句对照你的文档核查。",
  checkRun: "核查",
  noHistory: "还没有提问记录。",
  reopen: "打开",
  language: "语言",
  retrieval: "检索",
  topK: "检索段落数（top-k）",
  floor: "相关性下限（0–1）：低于它时回答“没有找到”",
  aliases: "别名：每行一组，例如 报账 = 报销",
  save: "保存",
  database: "数据库",
  error: "出错了",
  notesDiffer: "注意",
  truncated: "超出上下文预算，未使用",
};

export type Lang = "zh-CN" | "en";

let current: Lang = detect();

function detect(): Lang {
  const saved = typeof localStorage !== "undefined" ? localStorage.getItem("evident.lang") : null;
  if (saved === "zh-CN" || saved === "en") return saved;
  const nav = typeof navigator !== "undefined" ? navigator.language : "en";
  return nav.toLowerCase().startsWith("zh") ? "zh-CN" : "en";
}

export function lang(): Lang {
  return current;
}

export function setLang(l: Lang): void {
  current = l;
  localStorage.setItem("evident.lang", l);
  document.documentElement.lang = l;
}

export function t(key: Key, vars: Record<string, string | number> = {}): string {
  let s: string = current === "zh-CN" ? zh[key] : en[key];
  for (const [k, v] of Object.entries(vars)) s = s.replace(`{${k}}`, String(v));
  return s;
}

/// "p. 3" / "pp. 3–4" in English, "第 3 页" / "第 3–4 页" in Chinese.
export function pageLabel(start: number, end: number): string {
  const range = start === end ? `${start}` : `${start}–${end}`;
  if (current === "zh-CN") return `第 ${range} 页`;
  return start === end ? `p. ${range}` : `pp. ${range}`;
}
