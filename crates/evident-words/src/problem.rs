//! Why a file could not be imported, or a model server used, as a code with
//! parameters rather than an English sentence.
//!
//! The same idea as [`crate::message`] (which says why a sentence is flagged or an
//! answer uncertain), for the other things a user is told: the window says a problem in
//! its own language (`ui/src/messages.ts`), the CLI in the locale, and
//! [`Problem::text`] gives both wordings here, so that the English stays in the JSON
//! (`reason`) beside the code (`why`). Parameters are data: a number, a file's part, a
//! library's own words about a damaged file (`detail`), which no one translates.

use serde::{Deserialize, Serialize};

use crate::message::Lang;
use crate::server::{ServerError, ServerErrorKind};

/// What kind of document a size limit is for.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limited {
    /// PDF documents.
    Pdf,
    /// Word documents.
    Docx,
    /// Markdown and text documents.
    Text,
    /// Files Evident keeps for the user (aliases, settings).
    UserFile,
}

/// One problem, as a code and its parameters.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", content = "params", rename_all = "snake_case")]
pub enum Problem {
    /// The operating system could not read the file.
    Unreadable {
        /// `not_found`, `permission_denied` or `other`.
        cause: String,
        /// The system's words.
        detail: String,
    },
    /// The file is empty.
    Empty,
    /// A binary file with a text name.
    Binary,
    /// The text's encoding is not UTF-8 and could not be recognised (or, with an
    /// encoding, the bytes are not valid in it).
    Undecodable {
        /// The encoding it was read as, if one was recognised.
        encoding: Option<String>,
    },
    /// The file has no text at all.
    NoText,
    /// The file is larger than Evident reads.
    TooLarge {
        /// Its size in MB.
        mb: u64,
        /// The limit in MB.
        limit_mb: u64,
        /// What kind of file the limit is for.
        kind: Limited,
    },
    /// The file changed while it was read; it is read again once saved.
    Changed,
    /// A link out of the folder being imported is not followed.
    LinkOutside {
        /// Where the link points.
        target: String,
    },
    /// A format Evident does not read.
    Unsupported {
        /// The extension (`.xlsx`), or empty when there is none.
        ext: String,
    },
    /// An old binary Word document (.doc).
    OldWord,
    /// A password-protected Word document.
    WordLocked,
    /// Not a Word document (no readable archive, or no document body).
    NotWord {
        /// What the archive reader said, if anything.
        detail: String,
    },
    /// A part of the Word file is damaged.
    WordDamaged {
        /// The part (`word/document.xml`).
        part: String,
        /// What the reader said.
        detail: String,
    },
    /// The Word archive holds far more entries than a document does.
    WordTooManyParts {
        /// Entries in the archive.
        entries: usize,
    },
    /// A part of the Word archive inflates to far more than a document's (a zip bomb?).
    WordPartTooLarge {
        /// The part.
        part: String,
        /// The limit in MB.
        limit_mb: u64,
    },
    /// Not a PDF (no %PDF header).
    NotPdf,
    /// A password-protected PDF.
    PdfLocked,
    /// The PDF is damaged.
    PdfDamaged {
        /// What the reader said.
        detail: String,
    },
    /// The PDF has no pages.
    PdfNoPages,
    /// The PDF's text does not decode to readable characters.
    PdfNoUnicode,
    /// No page has a text layer: a scan.
    PdfScanned {
        /// Pages.
        pages: usize,
    },
    /// Pages without a text layer (scanned images?), not indexed; the others were.
    PagesTextless {
        /// The pages, as ranges (`2–4, 7`).
        pages: String,
        /// How many.
        count: usize,
    },
    /// Pages whose text does not decode to readable characters, not indexed.
    PagesUnreadable {
        /// The pages, as ranges (`2–4, 7`).
        pages: String,
        /// How many.
        count: usize,
    },
    /// One page could not be decoded; the text read before the failure is kept.
    PageUnread {
        /// The page.
        page: u32,
        /// What the decoder said.
        detail: String,
    },
    /// Pages without a text layer were read from their images (OCR): their text may
    /// hold reading mistakes.
    PagesRead {
        /// The pages, as ranges.
        pages: String,
        /// How many.
        count: usize,
    },
    /// Pages whose images held no text that could be read (blank, a photograph).
    PagesNoText {
        /// The pages, as ranges.
        pages: String,
        /// How many.
        count: usize,
    },
    /// Scanned pages cannot be read: Tesseract or its language data is missing.
    OcrUnavailable {
        /// The Debian packages that read scans.
        packages: String,
        /// What is missing.
        detail: String,
    },
    /// Tesseract failed on a page.
    OcrFailed {
        /// What happened, in English.
        detail: String,
    },
    /// The import was cancelled before this file was written.
    Cancelled,
    /// A drawing on the page draws itself; the loop was cut.
    FormLoop {
        /// The page.
        page: u32,
    },
    /// No text could be read, for the reasons given.
    PdfNoText {
        /// The page warnings, in English.
        detail: String,
    },
    /// The PDF reader process failed, stopped or was stopped; the file may be damaged.
    PdfReader {
        /// What happened to it, in English.
        detail: String,
    },
    /// The document could not be saved to the database.
    NotSaved {
        /// What SQLite said.
        detail: String,
    },
    /// Another Evident process is using the database.
    DatabaseBusy,
    /// The system's limit of watched folders is reached.
    WatchLimit,
    /// A folder cannot be watched for changes.
    WatchFailed {
        /// What the system said.
        detail: String,
    },
    /// The alias file is not UTF-8.
    AliasesNotUtf8,
    /// The settings file is not valid.
    SettingsInvalid {
        /// What the parser said.
        detail: String,
    },
    /// A server was set up without choosing one of its models.
    NoModelChosen,
    /// A model server failed.
    Server(ServerError),
    /// The built-in embeddings model cannot be used.
    Model {
        /// The model file.
        path: String,
        /// Why, in English.
        detail: String,
    },
    /// A model file chosen for embeddings is another kind of model.
    NotEmbeddingModel {
        /// The model file.
        path: String,
        /// llama.cpp's architecture name for it.
        architecture: String,
    },
    /// Anything else, in English.
    Other {
        /// What happened.
        detail: String,
    },
}

impl Problem {
    /// A problem reading a file, from the system's error.
    pub fn io(e: &std::io::Error) -> Self {
        let cause = match e.kind() {
            std::io::ErrorKind::NotFound => "not_found",
            std::io::ErrorKind::PermissionDenied => "permission_denied",
            _ => "other",
        };
        Problem::Unreadable {
            cause: cause.into(),
            detail: e.to_string(),
        }
    }

    /// The problem in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        use Problem as P;
        let zh = lang == Lang::ZhCn;
        match self {
            P::Unreadable { cause, .. } if zh && cause == "not_found" => "文件不存在".into(),
            P::Unreadable { cause, .. } if zh && cause == "permission_denied" => {
                "没有读取这个文件的权限".into()
            }
            P::Unreadable { detail, .. } if zh => format!("无法读取文件（{detail}）"),
            P::Unreadable { detail, .. } => detail.clone(),
            P::Empty if zh => "文件是空的".into(),
            P::Empty => "the file is empty".into(),
            P::Binary if zh => "这看起来是二进制文件，不是文本".into(),
            P::Binary => "this looks like a binary file, not text".into(),
            P::Undecodable { encoding: None } if zh => {
                "文本不是有效的 UTF-8，也无法识别其编码".into()
            }
            P::Undecodable { encoding: None } => {
                "the text is not valid UTF-8 and its encoding could not be recognised".into()
            }
            P::Undecodable { encoding: Some(e) } if zh => {
                format!("文本无法按 {e} 解码（含有无效字节）")
            }
            P::Undecodable { encoding: Some(e) } => {
                format!("the text could not be decoded as {e} (it contains invalid byte sequences)")
            }
            P::NoText if zh => "文件中没有文字".into(),
            P::NoText => "the file contains no text".into(),
            P::TooLarge { mb, limit_mb, kind } if zh => {
                let what = match kind {
                    Limited::Pdf => "PDF 文件",
                    Limited::Docx => "Word 文件",
                    Limited::Text => "Markdown 和文本文件",
                    Limited::UserFile => "此类文件",
                };
                format!("文件大小为 {mb} MB；{what}最大可读取 {limit_mb} MB")
            }
            P::TooLarge { mb, limit_mb, kind } => {
                let what = match kind {
                    Limited::Pdf => "PDF documents",
                    Limited::Docx => "Word documents",
                    Limited::Text => "Markdown and text documents",
                    Limited::UserFile => "such files",
                };
                format!("the file is {mb} MB; Evident reads {what} of up to {limit_mb} MB")
            }
            P::Changed if zh => "读取时文件发生了变化；保存完成后会重新读取".into(),
            P::Changed => {
                "the file changed while it was being read; it is read again once it is saved".into()
            }
            P::Unsupported { ext } if zh => {
                let ext = if ext.is_empty() { "无扩展名" } else { ext };
                format!("不支持的文件类型（{ext}）；Evident 读取 .md、.txt、.pdf 和 .docx")
            }
            P::Unsupported { ext } => {
                let ext = if ext.is_empty() { "no extension" } else { ext };
                format!("unsupported file type ({ext}); Evident reads .md, .txt, .pdf and .docx")
            }
            P::LinkOutside { target } if zh => {
                format!("指向文件夹之外（{target}）的链接不会被跟随；如需导入，请直接导入那个文件夹")
            }
            P::LinkOutside { target } => format!(
                "a link out of the folder (to {target}) is not followed; import that folder itself if it is meant"
            ),
            P::OldWord if zh => {
                "这是旧版二进制 Word 文档（.doc），Evident 无法读取；请在 Word 或 LibreOffice 中打开并另存为 .docx".into()
            }
            P::OldWord => {
                "an old binary Word document (.doc), which Evident does not read; open it in Word or LibreOffice and save it as .docx".into()
            }
            P::WordLocked if zh => {
                "这个 Word 文件设有密码；请在 Word 中取消密码（文件 → 信息 → 保护文档）后再导入".into()
            }
            P::WordLocked => {
                "the Word file is password-protected; remove the password in Word (File → Info → Protect Document) and import it again".into()
            }
            P::NotWord { detail } if zh && detail.is_empty() => {
                "这不是 Word 文档：其中没有正文（word/document.xml）".into()
            }
            P::NotWord { detail } if zh => {
                format!("文件已损坏或不是 Word 文档（不是可读的 .docx 压缩包：{detail}）")
            }
            P::NotWord { detail } if detail.is_empty() => {
                "the file is not a Word document: it has no document body (word/document.xml)".into()
            }
            P::NotWord { detail } => format!(
                "the file is damaged or is not a Word document (not a readable .docx archive: {detail})"
            ),
            P::WordDamaged { part, detail } if zh => {
                format!("Word 文件已损坏：其部件 {part} 无法读取（{detail}）")
            }
            P::WordDamaged { part, detail } => {
                format!("the Word file is damaged: its part {part} cannot be read ({detail})")
            }
            P::WordTooManyParts { entries } if zh => {
                format!("压缩包中有 {entries} 个条目；Word 文档只有几十个")
            }
            P::WordTooManyParts { entries } => {
                format!("the archive holds {entries} entries; a Word document holds a few dozen")
            }
            P::WordPartTooLarge { part, limit_mb } if zh => {
                format!("其部件 {part} 解压后超过 {limit_mb} MB；Word 文档远比这小（可能是压缩炸弹）")
            }
            P::WordPartTooLarge { part, limit_mb } => format!(
                "its part {part} inflates to more than {limit_mb} MB; Word documents are far smaller (a zip bomb?)"
            ),
            P::NotPdf if zh => "这不是 PDF 文件（没有 %PDF 文件头）".into(),
            P::NotPdf => "this is not a PDF file (it has no %PDF header)".into(),
            P::PdfLocked if zh => {
                "这个 PDF 设有密码；请去掉密码（例如打印成新的 PDF）后再导入".into()
            }
            P::PdfLocked => {
                "the PDF is encrypted with a password; remove the password (for example by printing it to a new PDF) and import it again".into()
            }
            P::PdfDamaged { detail } if zh => format!("PDF 已损坏，无法读取（{detail}）"),
            P::PdfDamaged { detail } => format!("the PDF is damaged and cannot be read ({detail})"),
            P::PdfNoPages if zh => "这个 PDF 没有页面（页面树缺失或损坏）".into(),
            P::PdfNoPages => "the PDF has no pages (its page tree is missing or damaged)".into(),
            P::PdfNoUnicode if zh => {
                "其文字无法解码为可读字符（PDF 的字体缺少 Unicode 映射），从页面图像中也识别不出文字".into()
            }
            P::PdfNoUnicode => {
                "its text does not decode to readable characters (the PDF's fonts lack a Unicode map), and no text could be read from its page images either".into()
            }
            P::PdfScanned { pages } if zh => {
                format!("{pages} 页中没有一页有文字层，从页面图像中也识别不出文字")
            }
            P::PdfScanned { pages } => format!(
                "none of its {pages} page(s) has a text layer, and no text could be read from their images"
            ),
            P::PagesTextless { pages, .. } if zh => {
                format!("第 {pages} 页没有文字（可能是扫描图像），未能建立索引")
            }
            P::PagesTextless { pages, count } => format!(
                "{} {pages} without text (scanned images?) could not be indexed",
                if *count == 1 { "page" } else { "pages" }
            ),
            P::PagesUnreadable { pages, .. } if zh => format!(
                "第 {pages} 页的文字无法解码为可读字符（字体缺少 Unicode 映射），未建立索引"
            ),
            P::PagesUnreadable { pages, count } => format!(
                "{} {pages} with text that does not decode to readable characters (the fonts lack a Unicode map) were not indexed",
                if *count == 1 { "page" } else { "pages" }
            ),
            P::PageUnread { page, detail } if zh => {
                format!("第 {page} 页无法完整读取（{detail}）")
            }
            P::PageUnread { page, detail } => format!("page {page} could not be read ({detail})"),
            P::PagesRead { pages, .. } if zh => {
                format!("第 {pages} 页没有文字层，已从图像中识别文字（OCR），引文可能有识别错误")
            }
            P::PagesRead { pages, count } => format!(
                "{} {pages} had no text layer and {} read from {} image (OCR): quotes may hold reading mistakes",
                if *count == 1 { "page" } else { "pages" },
                if *count == 1 { "was" } else { "were" },
                if *count == 1 { "its" } else { "their" }
            ),
            P::PagesNoText { pages, .. } if zh => {
                format!("第 {pages} 页的图像中没有可识别的文字（空白页或照片），未建立索引")
            }
            P::PagesNoText { pages, count } => format!(
                "{} {pages}: no text could be read from the image (a blank page or a photograph); not indexed",
                if *count == 1 { "page" } else { "pages" }
            ),
            P::OcrUnavailable { packages, detail } if zh => format!(
                "扫描页无法识别：需要 Tesseract 及其中英文语言数据（{detail}）；请安装 {packages}"
            ),
            P::OcrUnavailable { packages, detail } => format!(
                "scanned pages cannot be read: Tesseract and its Chinese and English data are needed ({detail}); install {packages}"
            ),
            P::OcrFailed { detail } if zh => format!("文字识别失败（{detail}）"),
            P::OcrFailed { detail } => format!("reading the page image failed ({detail})"),
            P::Cancelled if zh => "导入已取消，此文件未导入".into(),
            P::Cancelled => "the import was cancelled before this file was imported".into(),
            P::FormLoop { page } if zh => format!("第 {page} 页：一个图形对象引用了自身，循环已被截断"),
            P::FormLoop { page } => {
                format!("page {page}: a Form XObject draws itself; the loop was cut")
            }
            P::PdfNoText { detail } if zh => format!("读不出任何文字（{detail}）"),
            P::PdfNoText { detail } => format!("no text could be read: {detail}"),
            P::PdfReader { detail } if zh => {
                format!("PDF 读取进程未能读完这个文件，文件可能已损坏（{detail}）")
            }
            P::PdfReader { detail } => detail.clone(),
            P::NotSaved { detail } if zh => format!("无法保存到数据库（{detail}）"),
            P::NotSaved { detail } => format!("could not be saved to the database: {detail}"),
            P::DatabaseBusy if zh => "数据库正被另一个 Evident 进程使用；请关闭它后重试".into(),
            P::DatabaseBusy => {
                "the database is in use by another Evident process; close it and try again".into()
            }
            P::WatchLimit if zh => {
                "已达到系统可监视文件夹的上限（可调高 fs.inotify.max_user_watches）；下次同步时会发现更改".into()
            }
            P::WatchLimit => {
                "the system's limit of watched folders is reached (raise fs.inotify.max_user_watches); changes are picked up at the next sync".into()
            }
            P::WatchFailed { detail } if zh => format!("无法监视更改（{detail}）"),
            P::WatchFailed { detail } => format!("cannot watch for changes: {detail}"),
            P::AliasesNotUtf8 if zh => "别名文件不是 UTF-8 文本；请另存为 UTF-8".into(),
            P::AliasesNotUtf8 => "the alias file is not UTF-8 text; save it as UTF-8".into(),
            P::SettingsInvalid { detail } if zh => {
                format!("设置文件无效（{detail}）；请修正或删除它")
            }
            P::SettingsInvalid { detail } => {
                format!("the settings file is not valid ({detail}); fix or delete it")
            }
            P::NoModelChosen if zh => "请选择一个模型".into(),
            P::NoModelChosen => "pick a model".into(),
            P::Server(e) if zh => server_zh(e),
            P::Server(e) => e.to_string(),
            P::Model { path, detail } if zh => format!("嵌入模型 {path} 无法使用：{detail}"),
            P::Model { path, detail } => format!("the embeddings model {path}: {detail}"),
            P::NotEmbeddingModel { path, architecture } if zh => {
                format!("{path} 不是嵌入模型（其架构为 {architecture}）")
            }
            P::NotEmbeddingModel { path, architecture } => {
                format!("{path} is not an embedding model (its architecture is {architecture})")
            }
            P::Other { detail } => detail.clone(),
        }
    }
}

impl std::fmt::Display for Problem {
    /// The English words, as the JSON's `reason` and the logs have them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

/// A model server's failure in Chinese: what happened and what to do, the server's own
/// words (never translated) after it.
fn server_zh(e: &ServerError) -> String {
    let url = &e.url;
    let what = match e.kind {
        ServerErrorKind::Unreachable => {
            format!("{url} 没有模型服务器应答；请启动它（例如 `ollama serve`）或检查地址")
        }
        ServerErrorKind::TimedOut => format!("{url} 的模型服务器没有及时应答"),
        ServerErrorKind::KeyRejected => {
            format!("{url} 的模型服务器拒绝了 API 密钥；请在设置中检查")
        }
        ServerErrorKind::ModelMissing => format!(
            "{url} 的模型服务器没有这个模型；请拉取它（例如 `ollama pull 名称`）或选择它列出的模型"
        ),
        ServerErrorKind::Rejected => format!("{url} 的模型服务器拒绝了请求"),
        ServerErrorKind::ServerFailed => format!("{url} 的模型服务器出错"),
        ServerErrorKind::BadReply => format!("{url} 的模型服务器返回了 Evident 无法使用的回复"),
        ServerErrorKind::BadSettings => "模型服务器的设置无法使用".into(),
        ServerErrorKind::StreamCut => format!("{url} 的模型服务器在回答完成前停止了发送"),
        ServerErrorKind::Cancelled => "回答已停止".into(),
    };
    let status = e.status.map(|s| format!("HTTP {s}")).unwrap_or_default();
    let said = match (status.is_empty(), e.detail.is_empty()) {
        (true, true) => what,
        (true, false) => format!("{what}（{}）", e.detail),
        (false, true) => format!("{what}（{status}）"),
        (false, false) => format!("{what}（{status}：{}）", e.detail),
    };
    match e.remembered {
        Some(secs) => format!("{said}；{secs} 秒内未再询问，正在后台重新检查"),
        None => said,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_keeps_its_english_words_and_says_them_in_chinese() {
        let p = Problem::TooLarge {
            mb: 300,
            limit_mb: 256,
            kind: Limited::Pdf,
        };
        assert_eq!(
            p.text(Lang::En),
            "the file is 300 MB; Evident reads PDF documents of up to 256 MB"
        );
        assert_eq!(
            p.text(Lang::ZhCn),
            "文件大小为 300 MB；PDF 文件最大可读取 256 MB"
        );
        let json = serde_json::to_value(&p).expect("serialise");
        assert_eq!(json["code"], "too_large");
        assert_eq!(json["params"]["kind"], "pdf");
    }

    #[test]
    fn a_server_failure_in_chinese_names_the_address_and_keeps_the_servers_words() {
        let e = ServerError::new(
            ServerErrorKind::Unreachable,
            "http://127.0.0.1:9",
            "connection refused",
        );
        let zh = Problem::Server(e.clone()).text(Lang::ZhCn);
        assert!(
            zh.starts_with("http://127.0.0.1:9 没有模型服务器应答"),
            "{zh}"
        );
        assert!(zh.ends_with("（connection refused）"), "{zh}");
        assert!(!zh.contains("no model server"), "{zh}");
        assert_eq!(Problem::Server(e.clone()).text(Lang::En), e.to_string());
        let json = serde_json::to_value(Problem::Server(e)).expect("serialise");
        assert_eq!(json["code"], "server");
        assert_eq!(json["params"]["kind"], "unreachable");
    }
}
