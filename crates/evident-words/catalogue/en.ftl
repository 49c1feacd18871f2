# Evident's words in English: every message, problem and verdict the user reads, by
# code. The Rust core (crates/evident-words/src/catalogue.rs) and the window
# (ui/src/words.ts) both say a code from this file and its Chinese twin (zh-CN.ftl);
# a test fails when a code has no wording in either.
#
# An id is the kind and the code: `message-number-missing` is the message whose code
# is `number_missing`. Its parameters arrive by the names they have in the code's
# JSON (`$source_word`), as they are:
#   - a count or a passage number is a number (select on it for plurals);
#   - text is text, quoted from a document or a server as it was;
#   - an absent value (null or empty text) is the word `none`, to select on;
#   - a list of passage numbers arrives as citations ("[1][3]");
#   - a list of words arrives joined with `list-separator`;
#   - a problem inside a message arrives already said.

list-separator = {", "}

## Why a sentence of an answer is flagged, why nothing was found, and notes.

message-not-retrieved = cites [{ $n }], which was not retrieved
message-supported-by-other = [{ $support }] supports this sentence, but it cites { $cites }
message-uncited-but-supported = no citation; [{ $n }] supports it
message-uncited-unsupported = no citation, and no retrieved passage supports it
message-clause-number-missing = the clause number { $value } does not appear in [{ $n }]
message-number-misplaced = { $value } appears in [{ $n }], but not where the rest of the sentence is stated
message-number-missing = { $value } does not appear in [{ $n }]
message-negates-source = the sentence negates what [{ $n }] states
message-only-under-condition = [{ $n }] states this only under a condition ({ $condition })
message-source-negative = [{ $n }] states this in the negative
message-qualifier-mismatch = [{ $n }] says { $source_word }, not { $claim_word }
message-tier-mismatch = { $value } applies to { $applies_to } in [{ $n }]; for { $condition } the source says { $source_value }
message-condition-differs = [{ $n }] states this for { $source }, not for { $claim }
message-bound-differs = [{ $n }] says { $source }, not { $claim }
message-modality-differs = [{ $n }] says "{ $source }", not "{ $claim }"
message-role-differs = [{ $n }] names { $source } here, not { $claim }
message-condition-dropped = [{ $n }] says this only for { $condition }; the sentence leaves that out
message-scope-differs = the sentence says "{ $word }"; [{ $n }] sets no such scope here, so check who and what it covers
message-conflict = [{ $support }] supports this, but [{ $contradicts }], as relevant, says otherwise
message-few-key-words = only { $found } of its { $total } key words appear in [{ $n }]
message-some-key-words = { $found } of its { $total } key words appear in [{ $n }]
message-nothing-about-it = your documents say nothing about this sentence
message-no-documents = no documents are imported yet
message-no-words = the question has no words to look for (only question words or punctuation)
message-no-key-word-in-documents = none of the question's key words occurs in your documents
message-no-passage-with-key-words = no passage contains the question's key words
message-nothing-close = nothing in your documents is close to the question
message-no-sentence-speaks = no sentence of the passages speaks to the question
message-unmentioned = your documents never mention { $names }
message-rankings-disagree = keyword and meaning search disagree on which passages fit
message-few-question-words = the closest passages share only some of the question's key words
message-kind-not-stated = the closest sentence does not say what the question asks for (an amount, a time, who, when, or whether it is allowed)
message-not-sure = Evident is only { $sure } % sure of the closest sentence; an answer needs { $needed } %
message-question-cut = Only the first { $chars } characters of the question were used.
message-over-budget = Passages { $passages } did not fit in the context budget of { $budget } tokens and were not used.
message-no-server = no embeddings server is set up; keyword search only
message-not-embedded = your documents are not embedded with { $model } yet; keyword search only until they are
message-partly-embedded = { $embedded } of { $total } passages are embedded with { $model }; the others are found by keywords only until they are
message-server-unusable = { $detail }; keyword search only
message-rerank-unusable = the reranker could not be used ({ $detail }); passages in their first order
message-model-found-nothing = the model found that the passages do not answer the question
message-model-unsupported = none of the model's sentences is supported by the passages; these are the closest passages
message-model-cut-short = The model's answer reached its limit of { $tokens } tokens and may be cut short.
message-model-stopped = you stopped the model's answer; this is the extractive answer
message-model-failed = the model's answer failed ({ $detail }); this is the extractive answer
message-model-said-nothing = the model wrote nothing; this is the extractive answer
message-model-cited-nothing = the model's answer cites no passage, so it cannot be checked; this is the extractive answer
message-sources-differ = Note: [{ $a }] and [{ $b }] come from different documents and give different values for the same rule; check both.

## What a sentence's colour says. The check compares words, numbers, conditions and
## roles with the cited passage; it is not a reader of meaning, so the words claim no
## more than that ("Matches the cited passage", not "true").

verdict-supported = Matches the cited passage
verdict-partially-supported = Partly matches the cited passage
verdict-contradicted = Contradicted by [{ $n }]
verdict-not-found = Not found in the cited passage

## Why a file could not be imported, or a model server used.

problem-unreadable = { $detail }
problem-empty = the file is empty
problem-binary = this looks like a binary file, not text
problem-undecodable =
    { $encoding ->
        [none] the text is not valid UTF-8 and its encoding could not be recognised
       *[other] the text could not be decoded as { $encoding } (it contains invalid byte sequences)
    }
problem-no-text = the file contains no text
problem-too-large =
    the file is { $mb } MB; Evident reads { $kind ->
        [pdf] PDF documents
        [docx] Word documents
        [text] Markdown and text documents
       *[other] such files
    } of up to { $limit_mb } MB
problem-changed = the file changed while it was being read; it is read again once it is saved
problem-link-outside = a link out of the folder (to { $target }) is not followed; import that folder itself if it is meant
problem-unsupported =
    unsupported file type ({ $ext ->
        [none] no extension
       *[other] { $ext }
    }); Evident reads .md, .txt, .pdf and .docx
problem-old-word = an old binary Word document (.doc), which Evident does not read; open it in Word or LibreOffice and save it as .docx
problem-word-locked = the Word file is password-protected; remove the password in Word (File → Info → Protect Document) and import it again
problem-not-word =
    { $detail ->
        [none] the file is not a Word document: it has no document body (word/document.xml)
       *[other] the file is damaged or is not a Word document (not a readable .docx archive: { $detail })
    }
problem-word-damaged = the Word file is damaged: its part { $part } cannot be read ({ $detail })
problem-word-too-many-parts = the archive holds { $entries } entries; a Word document holds a few dozen
problem-word-part-too-large = its part { $part } inflates to more than { $limit_mb } MB; Word documents are far smaller (a zip bomb?)
problem-not-pdf = this is not a PDF file (it has no %PDF header)
problem-pdf-locked = the PDF is encrypted with a password; remove the password (for example by printing it to a new PDF) and import it again
problem-pdf-damaged = the PDF is damaged and cannot be read ({ $detail })
problem-pdf-no-pages = the PDF has no pages (its page tree is missing or damaged)
problem-pdf-no-unicode = its text does not decode to readable characters (the PDF's fonts lack a Unicode map), and no text could be read from its page images either
problem-pdf-scanned = none of its { $pages } page(s) has a text layer, and no text could be read from their images
problem-pages-textless =
    { $count ->
        [one] page
       *[other] pages
    } { $pages } without text (scanned images?) could not be indexed
problem-pages-unreadable =
    { $count ->
        [one] page
       *[other] pages
    } { $pages } with text that does not decode to readable characters (the fonts lack a Unicode map) were not indexed
problem-page-unread = page { $page } could not be read ({ $detail })
problem-pages-read =
    { $count ->
        [one] page { $pages } had no text layer and was read from its image
       *[other] pages { $pages } had no text layer and were read from their image
    } (OCR): quotes may hold reading mistakes
problem-pages-no-text =
    { $count ->
        [one] page
       *[other] pages
    } { $pages }: no text could be read from the image (a blank page or a photograph); not indexed
problem-ocr-unavailable = scanned pages cannot be read: Tesseract and its Chinese and English data are needed ({ $detail }); install { $packages }
problem-ocr-failed = reading the page image failed ({ $detail })
problem-cancelled = the import was cancelled before this file was imported
problem-form-loop = page { $page }: a Form XObject draws itself; the loop was cut
problem-pdf-no-text = no text could be read: { $detail }
problem-pdf-reader = { $detail }
problem-not-saved = could not be saved to the database: { $detail }
problem-database-busy = the database is in use by another Evident process; close it and try again
problem-watch-limit = the system's limit of watched folders is reached (raise fs.inotify.max_user_watches); changes are picked up at the next sync
problem-watch-failed = cannot watch for changes: { $detail }
problem-aliases-not-utf8 = the alias file is not UTF-8 text; save it as UTF-8
problem-settings-invalid = the settings file is not valid ({ $detail }); fix or delete it
problem-no-model-chosen = pick a model
problem-model = the embeddings model { $path }: { $detail }
problem-not-embedding-model = { $path } is not an embedding model (its architecture is { $architecture })
problem-other = { $detail }

## A model server's failure: what happened and what to do, then the server's own
## words (never translated), then whether it was asked at all.

problem-server = { server-what }{ server-said }{ server-remembered }
server-what =
    { $kind ->
        [unreachable] no model server answers at { $url }; start it (e.g. `ollama serve`) or check the address
        [timed_out] the model server at { $url } did not answer in time
        [not_embedding] the model server at { $url } lists its models but did not embed a short text in time; it may be loading the model or busy
        [key_rejected] the model server at { $url } rejected the API key; check it in the settings
        [model_missing] the model server at { $url } does not have this model; pull it (e.g. `ollama pull NAME`) or pick one it lists
        [rejected] the model server at { $url } rejected the request
        [server_failed] the model server at { $url } failed
        [bad_reply] the model server at { $url } sent a reply Evident cannot use
        [bad_settings] the model server settings cannot work
        [stream_cut] the model server at { $url } stopped sending before the answer was complete
       *[cancelled] the answer was stopped
    }
server-said =
    { $status ->
        [none]
            { $detail ->
                [none] {""}
               *[other] {" "}({ $detail })
            }
       *[other]
            { $detail ->
                [none] {" "}(HTTP { $status })
               *[other] {" "}(HTTP { $status }: { $detail })
            }
    }
server-remembered =
    { $remembered ->
        [none] {""}
       *[other] ; not asked again for { $remembered } s: it is checked again in the background
    }
