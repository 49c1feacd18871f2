#!/usr/bin/env python3
"""The import a popular tutorial writes, to time Evident's import against.

Reads every Markdown and text file under the given paths, splits each into paragraphs
(blank lines), tokenises every paragraph with jieba.cut of its lower-cased text, builds
rank_bm25's BM25Okapi over all paragraphs, and keeps the paragraphs and the index in a
fresh SQLite file, one transaction, as a real import must. It does less than Evident's
import (no headings, clauses, sentences, offsets, normalisation, duplicates or
versions), so the ratio is in the baseline's favour.

`scripts/bench.sh --import` runs it beside `evident import` on the same files
(farm-bench, alternating runs, both started as fresh processes: each loads its
dictionary). Needs jieba and rank_bm25 (scripts/bench.sh makes a venv for them).

Usage: import_baseline.py --db OUT.sqlite3 PATH...
"""
import argparse, logging, os, pickle, sqlite3, sys

import jieba
from rank_bm25 import BM25Okapi


def files(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                for name in sorted(names):
                    if name.endswith(('.md', '.txt')) and name != 'SOURCE.md':
                        yield os.path.join(root, name)
        else:
            yield path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--db', required=True)
    ap.add_argument('paths', nargs='+')
    args = ap.parse_args()
    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    rows, tokens = [], []
    for path in files(args.paths):
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
        for para in (p.strip() for p in text.split('\n\n')):
            if para:
                rows.append((path, para))
                tokens.append([t for t in jieba.cut(para.lower()) if t.strip()])
    bm25 = BM25Okapi(tokens)
    if os.path.exists(args.db):
        os.remove(args.db)
    db = sqlite3.connect(args.db)
    with db:
        db.execute('CREATE TABLE chunks (id INTEGER PRIMARY KEY, path TEXT, text TEXT, tokens TEXT)')
        db.executemany('INSERT INTO chunks (path, text, tokens) VALUES (?, ?, ?)',
                       [(p, t, ' '.join(k)) for (p, t), k in zip(rows, tokens)])
        db.execute('CREATE TABLE bm25 (data BLOB)')
        db.execute('INSERT INTO bm25 VALUES (?)', (pickle.dumps(bm25),))
    print(f'{len(rows)} paragraphs from the files, BM25 over {len(tokens)}', file=sys.stderr)


if __name__ == '__main__':
    main()
