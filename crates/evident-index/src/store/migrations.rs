//! Schema migrations, applied in order and tracked in `PRAGMA user_version`.
//!
//! Append new migrations; never edit one that has shipped, because databases in the
//! field have already run it.

/// Each entry upgrades the schema by one version (entry 0 creates version 1).
pub const MIGRATIONS: &[&str] = &[
    // 1: documents, pages, chunks, the full-text index and version metadata.
    r#"
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) STRICT;

    CREATE TABLE documents (
        id              INTEGER PRIMARY KEY,
        path            TEXT NOT NULL UNIQUE,
        kind            TEXT NOT NULL CHECK (kind IN ('markdown', 'text', 'pdf')),
        title           TEXT NOT NULL,
        sha256          TEXT NOT NULL,
        size_bytes      INTEGER NOT NULL,
        mtime           INTEGER,
        page_count      INTEGER NOT NULL,
        imported_at     INTEGER NOT NULL,
        status          TEXT NOT NULL CHECK (status IN ('indexed', 'indexed_with_warnings')),
        warnings        TEXT NOT NULL DEFAULT '[]',
        chunker_version INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX documents_sha256 ON documents(sha256);

    -- Page texts concatenated in order are exactly the document's extracted text; every
    -- char offset (pages and chunks) counts Unicode scalar values into that text.
    CREATE TABLE pages (
        doc_id     INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        page_no    INTEGER NOT NULL,
        char_start INTEGER NOT NULL,
        char_end   INTEGER NOT NULL,
        text       TEXT NOT NULL,
        PRIMARY KEY (doc_id, page_no)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE chunks (
        id           INTEGER PRIMARY KEY,
        doc_id       INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        ordinal      INTEGER NOT NULL,
        heading_path TEXT NOT NULL,
        page_start   INTEGER NOT NULL,
        page_end     INTEGER NOT NULL,
        char_start   INTEGER NOT NULL,
        char_end     INTEGER NOT NULL,
        token_count  INTEGER NOT NULL,
        sha256       TEXT NOT NULL,
        text         TEXT NOT NULL,
        UNIQUE (doc_id, ordinal)
    ) STRICT;

    -- Pre-segmented jieba tokens; contentless (the text lives in `chunks`), and
    -- contentless_delete lets a document's rows be removed with it. The tokens arrive
    -- lower-cased and separated by spaces, so FTS5 only has to split on ASCII white space:
    -- the 'ascii' tokenizer does that and keeps every non-ASCII character (CJK) in its
    -- token, at about two thirds of unicode61's cost on large imports.
    CREATE VIRTUAL TABLE chunk_index USING fts5(
        heading, body,
        content = '', contentless_delete = 1,
        tokenize = 'ascii'
    );

    -- Index rows go with their chunk, however the chunk is deleted (cascades included).
    CREATE TRIGGER chunks_delete_index AFTER DELETE ON chunks BEGIN
        DELETE FROM chunk_index WHERE rowid = old.id;
    END;
    "#,
    // 2: questions asked, their answers and the user's feedback.
    r#"
    CREATE TABLE history (
        id        INTEGER PRIMARY KEY,
        asked_at  INTEGER NOT NULL,
        question  TEXT NOT NULL,
        status    TEXT NOT NULL,
        answer    TEXT NOT NULL,
        feedback  INTEGER CHECK (feedback IN (-1, 1))
    ) STRICT;
    CREATE INDEX history_asked_at ON history(asked_at);
    "#,
    // 3: the full-text index buffers up to 4 MB of new terms in memory (FTS5's default is
    // 1 MB) before it writes them out as a segment, so a group of rows inserted together
    // on import (see `PendingIndex`) becomes one segment instead of several that must be
    // merged again. Inserting the index rows of 1,911 small files in transactions of
    // 2,000 chunks took 475M instructions instead of 782M (callgrind).
    r#"
    INSERT INTO chunk_index(chunk_index, rank) VALUES ('hashsize', 4194304);
    "#,
    // 4: embedding vectors. A model is known by name, width and the vector it gives a
    // fixed probe text; vectors are keyed by the sha256 of the text embedded (the chunk
    // text with its title and headings) and the model, so an unchanged chunk is never
    // embedded twice and two models' vectors are never mixed.
    // They are a cache like the chunks: rebuilt from the text whenever needed.
    r#"
    CREATE TABLE embedding_models (
        id         INTEGER PRIMARY KEY,
        name       TEXT NOT NULL,
        dim        INTEGER NOT NULL CHECK (dim > 0),
        probe      BLOB NOT NULL,
        base_url   TEXT NOT NULL,
        first_seen INTEGER NOT NULL
    ) STRICT;

    -- Which text a chunk's vectors are of: sha256 of the passage as embedded (its
    -- document title and heading path, then its text; see `store::passage_text`).
    -- Filled on insert; rows from before this migration are filled on open.
    ALTER TABLE chunks ADD COLUMN embed_key TEXT;

    -- `passage` is the unit vector of the passage as embedded; `sentences` holds one unit
    -- vector per span of `spans` (JSON [[start, end], ...], byte offsets into the text),
    -- concatenated; all little-endian f32 of the model's width.
    CREATE TABLE chunk_vectors (
        id           INTEGER PRIMARY KEY,
        model_id     INTEGER NOT NULL REFERENCES embedding_models(id) ON DELETE CASCADE,
        embed_key    TEXT NOT NULL,
        passage      BLOB NOT NULL,
        sentences    BLOB NOT NULL,
        spans        TEXT NOT NULL,
        UNIQUE (model_id, embed_key)
    ) STRICT;
    CREATE INDEX chunks_embed_key ON chunks(embed_key);
    "#,
    // 5: Word documents. SQLite cannot alter a CHECK constraint, so the table is rebuilt
    // the way SQLite's documentation prescribes (new table, copy, drop, rename); the
    // migration runs with foreign keys off so that dropping the old table does not
    // cascade into pages and chunks, and the keys are checked before it commits.
    r#"
    CREATE TABLE documents_v5 (
        id              INTEGER PRIMARY KEY,
        path            TEXT NOT NULL UNIQUE,
        kind            TEXT NOT NULL CHECK (kind IN ('markdown', 'text', 'pdf', 'docx')),
        title           TEXT NOT NULL,
        sha256          TEXT NOT NULL,
        size_bytes      INTEGER NOT NULL,
        mtime           INTEGER,
        page_count      INTEGER NOT NULL,
        imported_at     INTEGER NOT NULL,
        status          TEXT NOT NULL CHECK (status IN ('indexed', 'indexed_with_warnings')),
        warnings        TEXT NOT NULL DEFAULT '[]',
        chunker_version INTEGER NOT NULL
    ) STRICT;
    INSERT INTO documents_v5 SELECT * FROM documents;
    DROP TABLE documents;
    ALTER TABLE documents_v5 RENAME TO documents;
    CREATE INDEX documents_sha256 ON documents(sha256);
    "#,
    // 6: the prompts an embedding model was given are part of what it is
    // (`model::PromptFamily::key`); models recorded before had none ('').
    r#"
    ALTER TABLE embedding_models ADD COLUMN prompt TEXT NOT NULL DEFAULT '';
    "#,
    // 7: the exact bytes of a source path that is not valid UTF-8 (`path` holds its
    // text, lossily; see `paths::to_columns`). NULL for every UTF-8 path.
    r#"
    ALTER TABLE documents ADD COLUMN path_raw BLOB;
    "#,
    // 8: a page read from its image (OCR) keeps its lines' boxes, in shares of the
    // page, for the viewer to mark a passage on the scan (JSON; NULL for text pages).
    r#"
    ALTER TABLE pages ADD COLUMN ocr_lines TEXT;
    "#,
    // 9: a document is known by its path's exact bytes (`paths::key`), not its text:
    // names that are not UTF-8 and read alike as text (GBK's 工资.md and 福利.md both
    // show as `����.md`) were one row. `path` stays, for showing and ordering.
    r#"
    CREATE TABLE documents_v9 (
        id              INTEGER PRIMARY KEY,
        path            TEXT NOT NULL,
        kind            TEXT NOT NULL CHECK (kind IN ('markdown', 'text', 'pdf', 'docx')),
        title           TEXT NOT NULL,
        sha256          TEXT NOT NULL,
        size_bytes      INTEGER NOT NULL,
        mtime           INTEGER,
        page_count      INTEGER NOT NULL,
        imported_at     INTEGER NOT NULL,
        status          TEXT NOT NULL CHECK (status IN ('indexed', 'indexed_with_warnings')),
        warnings        TEXT NOT NULL DEFAULT '[]',
        chunker_version INTEGER NOT NULL,
        path_raw        BLOB,
        path_key        BLOB NOT NULL UNIQUE
    ) STRICT;
    INSERT INTO documents_v9
        SELECT id, path, kind, title, sha256, size_bytes, mtime, page_count, imported_at,
               status, warnings, chunker_version, path_raw,
               COALESCE(path_raw, CAST(path AS BLOB))
        FROM documents;
    DROP TABLE documents;
    ALTER TABLE documents_v9 RENAME TO documents;
    CREATE INDEX documents_sha256 ON documents(sha256);
    CREATE INDEX documents_path ON documents(path);
    "#,
    // 10: a chunk's passage vector is stored before its sentences' (an embedding pass
    // covers every passage first, so that meaning search reaches all of them sooner).
    // `sentences_done` is 0 while `sentences` and `spans` are still empty; rows from
    // before were written whole.
    r#"
    ALTER TABLE chunk_vectors
        ADD COLUMN sentences_done INTEGER NOT NULL DEFAULT 1 CHECK (sentences_done IN (0, 1));
    "#,
    // 11: pages as an ordinary (rowid) table. A page's text is most often a whole
    // Markdown or Word document, and a WITHOUT ROWID table keeps only about 1,000 bytes
    // of a row in its b-tree page, so nearly every page took an overflow page of 4 KB
    // for its rest: the 908 Markdown files of `scripts/bench.sh --import` (2.06 MB of
    // text) made 4.22 MB of pages, 2.45 MB as a rowid table.
    r#"
    CREATE TABLE pages_v11 (
        doc_id     INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        page_no    INTEGER NOT NULL,
        char_start INTEGER NOT NULL,
        char_end   INTEGER NOT NULL,
        text       TEXT NOT NULL,
        ocr_lines  TEXT,
        PRIMARY KEY (doc_id, page_no)
    ) STRICT;
    INSERT INTO pages_v11 (doc_id, page_no, char_start, char_end, text, ocr_lines)
        SELECT doc_id, page_no, char_start, char_end, text, ocr_lines FROM pages;
    DROP TABLE pages;
    ALTER TABLE pages_v11 RENAME TO pages;
    "#,
];

/// The newest schema version this build understands.
pub fn latest() -> i64 {
    MIGRATIONS.len() as i64
}
