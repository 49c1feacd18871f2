// Why a file could not be imported or a model server used arrives as a code with
// parameters (`crates/evident-core/src/problem.rs`); this says it in the window's
// language. The English stays in the JSON beside the code; parameters (a path, a
// server's own words) are data, only ever put into text nodes.

import type { ServerError, Problem } from "./bindings";
import { lang } from "./i18n";

/** `p` in the UI's language (the same words as `Problem::text`). */
export function sayProblem(p: Problem): string {
  const zh = lang() === "zh-CN";
  switch (p.code) {
    case "unreadable":
      if (!zh) return p.params.detail;
      if (p.params.cause === "not_found") return "文件不存在";
      if (p.params.cause === "permission_denied") return "没有读取这个文件的权限";
      return `无法读取文件（${p.params.detail}）`;
    case "empty":
      return zh ? "文件是空的" : "the file is empty";
    case "binary":
      return zh ? "这看起来是二进制文件，不是文本" : "this looks like a binary file, not text";
    case "undecodable": {
      const e = p.params.encoding;
      if (e === null) {
        return zh ? "文本不是有效的 UTF-8，也无法识别其编码" : "the text is not valid UTF-8 and its encoding could not be recognised";
      }
      return zh ? `文本无法按 ${e} 解码（含有无效字节）` : `the text could not be decoded as ${e} (it contains invalid byte sequences)`;
    }
    case "no_text":
      return zh ? "文件中没有文字" : "the file contains no text";
    case "too_large": {
      const { mb, limit_mb: limit, kind } = p.params;
      if (zh) {
        const what = { pdf: "PDF 文件", docx: "Word 文件", text: "Markdown 和文本文件", user_file: "此类文件" }[kind];
        return `文件大小为 ${mb} MB；${what}最大可读取 ${limit} MB`;
      }
      const what = { pdf: "PDF documents", docx: "Word documents", text: "Markdown and text documents", user_file: "such files" }[kind];
      return `the file is ${mb} MB; Evident reads ${what} of up to ${limit} MB`;
    }
    case "changed":
      return zh ? "读取时文件发生了变化；保存完成后会重新读取" : "the file changed while it was being read; it is read again once it is saved";
    case "link_outside":
      return zh
        ? `指向文件夹之外（${p.params.target}）的链接不会被跟随；如需导入，请直接导入那个文件夹`
        : `a link out of the folder (to ${p.params.target}) is not followed; import that folder itself if it is meant`;
    case "unsupported": {
      const ext = p.params.ext || (zh ? "无扩展名" : "no extension");
      return zh
        ? `不支持的文件类型（${ext}）；Evident 读取 .md、.txt、.pdf 和 .docx`
        : `unsupported file type (${ext}); Evident reads .md, .txt, .pdf and .docx`;
    }
    case "old_word":
      return zh
        ? "这是旧版二进制 Word 文档（.doc），Evident 无法读取；请在 Word 或 LibreOffice 中打开并另存为 .docx"
        : "an old binary Word document (.doc), which Evident does not read; open it in Word or LibreOffice and save it as .docx";
    case "word_locked":
      return zh
        ? "这个 Word 文件设有密码；请在 Word 中取消密码（文件 → 信息 → 保护文档）后再导入"
        : "the Word file is password-protected; remove the password in Word (File → Info → Protect Document) and import it again";
    case "not_word": {
      const d = p.params.detail;
      if (zh) return d ? `文件已损坏或不是 Word 文档（不是可读的 .docx 压缩包：${d}）` : "这不是 Word 文档：其中没有正文（word/document.xml）";
      return d
        ? `the file is damaged or is not a Word document (not a readable .docx archive: ${d})`
        : "the file is not a Word document: it has no document body (word/document.xml)";
    }
    case "word_damaged":
      return zh
        ? `Word 文件已损坏：其部件 ${p.params.part} 无法读取（${p.params.detail}）`
        : `the Word file is damaged: its part ${p.params.part} cannot be read (${p.params.detail})`;
    case "word_too_many_parts":
      return zh
        ? `压缩包中有 ${p.params.entries} 个条目；Word 文档只有几十个`
        : `the archive holds ${p.params.entries} entries; a Word document holds a few dozen`;
    case "word_part_too_large":
      return zh
        ? `其部件 ${p.params.part} 解压后超过 ${p.params.limit_mb} MB；Word 文档远比这小（可能是压缩炸弹）`
        : `its part ${p.params.part} inflates to more than ${p.params.limit_mb} MB; Word documents are far smaller (a zip bomb?)`;
    case "not_pdf":
      return zh ? "这不是 PDF 文件（没有 %PDF 文件头）" : "this is not a PDF file (it has no %PDF header)";
    case "pdf_locked":
      return zh
        ? "这个 PDF 设有密码；请去掉密码（例如打印成新的 PDF）后再导入"
        : "the PDF is encrypted with a password; remove the password (for example by printing it to a new PDF) and import it again";
    case "pdf_damaged":
      return zh ? `PDF 已损坏，无法读取（${p.params.detail}）` : `the PDF is damaged and cannot be read (${p.params.detail})`;
    case "pdf_no_pages":
      return zh ? "这个 PDF 没有页面（页面树缺失或损坏）" : "the PDF has no pages (its page tree is missing or damaged)";
    case "pdf_no_unicode":
      return zh
        ? "其文字无法解码为可读字符（PDF 的字体缺少 Unicode 映射），从页面图像中也识别不出文字"
        : "its text does not decode to readable characters (the PDF's fonts lack a Unicode map), and no text could be read from its page images either";
    case "pdf_scanned":
      return zh
        ? `${p.params.pages} 页中没有一页有文字层，从页面图像中也识别不出文字`
        : `none of its ${p.params.pages} page(s) has a text layer, and no text could be read from their images`;
    case "pages_textless":
      return zh
        ? `第 ${p.params.pages} 页没有文字（可能是扫描图像），未能建立索引`
        : `${p.params.count === 1 ? "page" : "pages"} ${p.params.pages} without text (scanned images?) could not be indexed`;
    case "pages_unreadable":
      return zh
        ? `第 ${p.params.pages} 页的文字无法解码为可读字符（字体缺少 Unicode 映射），未建立索引`
        : `${p.params.count === 1 ? "page" : "pages"} ${p.params.pages} with text that does not decode to readable characters (the fonts lack a Unicode map) were not indexed`;
    case "page_unread":
      return zh ? `第 ${p.params.page} 页无法完整读取（${p.params.detail}）` : `page ${p.params.page} could not be read (${p.params.detail})`;
    case "pages_read": {
      const one = p.params.count === 1;
      return zh
        ? `第 ${p.params.pages} 页没有文字层，已从图像中识别文字（OCR），引文可能有识别错误`
        : `${one ? "page" : "pages"} ${p.params.pages} had no text layer and ${one ? "was" : "were"} read from ${one ? "its" : "their"} image (OCR): quotes may hold reading mistakes`;
    }
    case "pages_no_text":
      return zh
        ? `第 ${p.params.pages} 页的图像中没有可识别的文字（空白页或照片），未建立索引`
        : `${p.params.count === 1 ? "page" : "pages"} ${p.params.pages}: no text could be read from the image (a blank page or a photograph); not indexed`;
    case "ocr_unavailable":
      return zh
        ? `扫描页无法识别：需要 Tesseract 及其中英文语言数据（${p.params.detail}）；请安装 ${p.params.packages}`
        : `scanned pages cannot be read: Tesseract and its Chinese and English data are needed (${p.params.detail}); install ${p.params.packages}`;
    case "ocr_failed":
      return zh ? `文字识别失败（${p.params.detail}）` : `reading the page image failed (${p.params.detail})`;
    case "cancelled":
      return zh ? "导入已取消，此文件未导入" : "the import was cancelled before this file was imported";
    case "form_loop":
      return zh
        ? `第 ${p.params.page} 页：一个图形对象引用了自身，循环已被截断`
        : `page ${p.params.page}: a Form XObject draws itself; the loop was cut`;
    case "pdf_no_text":
      return zh ? `读不出任何文字（${p.params.detail}）` : `no text could be read: ${p.params.detail}`;
    case "pdf_reader":
      return zh ? `PDF 读取进程未能读完这个文件，文件可能已损坏（${p.params.detail}）` : p.params.detail;
    case "not_saved":
      return zh ? `无法保存到数据库（${p.params.detail}）` : `could not be saved to the database: ${p.params.detail}`;
    case "database_busy":
      return zh ? "数据库正被另一个 Evident 进程使用；请关闭它后重试" : "the database is in use by another Evident process; close it and try again";
    case "watch_limit":
      return zh
        ? "已达到系统可监视文件夹的上限（可调高 fs.inotify.max_user_watches）；下次同步时会发现更改"
        : "the system's limit of watched folders is reached (raise fs.inotify.max_user_watches); changes are picked up at the next sync";
    case "watch_failed":
      return zh ? `无法监视更改（${p.params.detail}）` : `cannot watch for changes: ${p.params.detail}`;
    case "aliases_not_utf8":
      return zh ? "别名文件不是 UTF-8 文本；请另存为 UTF-8" : "the alias file is not UTF-8 text; save it as UTF-8";
    case "settings_invalid":
      return zh ? `设置文件无效（${p.params.detail}）；请修正或删除它` : `the settings file is not valid (${p.params.detail}); fix or delete it`;
    case "no_model_chosen":
      return zh ? "请选择一个模型" : "pick a model";
    case "server":
      return zh ? serverZh(p.params) : serverEn(p.params);
    case "model":
      return zh ? `嵌入模型 ${p.params.path} 无法使用：${p.params.detail}` : `the embeddings model ${p.params.path}: ${p.params.detail}`;
    case "not_embedding_model":
      return zh
        ? `${p.params.path} 不是嵌入模型（其架构为 ${p.params.architecture}）`
        : `${p.params.path} is not an embedding model (its architecture is ${p.params.architecture})`;
    case "other":
      return p.params.detail;
  }
}

/** A problem when there is one, else the English words that came with it. */
export function sayOr(why: Problem | null | undefined, english: string | null | undefined): string {
  return why ? sayProblem(why) : (english ?? "");
}

function withDetail(what: string, e: ServerError, open: string, sep: string, close: string): string {
  const status = e.status === null ? "" : `HTTP ${e.status}`;
  if (!status && !e.detail) return what;
  if (!status) return `${what}${open}${e.detail}${close}`;
  if (!e.detail) return `${what}${open}${status}${close}`;
  return `${what}${open}${status}${sep}${e.detail}${close}`;
}

function serverEn(e: ServerError): string {
  const url = e.url;
  const what = {
    unreachable: `no model server answers at ${url}; start it (e.g. \`ollama serve\`) or check the address`,
    timed_out: `the model server at ${url} did not answer in time`,
    key_rejected: `the model server at ${url} rejected the API key; check it in the settings`,
    model_missing: `the model server at ${url} does not have this model; pull it (e.g. \`ollama pull NAME\`) or pick one it lists`,
    rejected: `the model server at ${url} rejected the request`,
    server_failed: `the model server at ${url} failed`,
    bad_reply: `the model server at ${url} sent a reply Evident cannot use`,
    bad_settings: "the model server settings cannot work",
    stream_cut: `the model server at ${url} stopped sending before the answer was complete`,
    cancelled: "the answer was stopped",
  }[e.kind];
  const said = withDetail(what, e, " (", ": ", ")");
  return e.remembered === null || e.remembered === undefined
    ? said
    : `${said}; not asked again for ${e.remembered} s: it is checked again in the background`;
}

function serverZh(e: ServerError): string {
  const url = e.url;
  const what = {
    unreachable: `${url} 没有模型服务器应答；请启动它（例如 \`ollama serve\`）或检查地址`,
    timed_out: `${url} 的模型服务器没有及时应答`,
    key_rejected: `${url} 的模型服务器拒绝了 API 密钥；请在设置中检查`,
    model_missing: `${url} 的模型服务器没有这个模型；请拉取它（例如 \`ollama pull 名称\`）或选择它列出的模型`,
    rejected: `${url} 的模型服务器拒绝了请求`,
    server_failed: `${url} 的模型服务器出错`,
    bad_reply: `${url} 的模型服务器返回了 Evident 无法使用的回复`,
    bad_settings: "模型服务器的设置无法使用",
    stream_cut: `${url} 的模型服务器在回答完成前停止了发送`,
    cancelled: "回答已停止",
  }[e.kind];
  const said = withDetail(what, e, "（", "：", "）");
  return e.remembered === null || e.remembered === undefined ? said : `${said}；${e.remembered} 秒内未再询问，正在后台重新检查`;
}
