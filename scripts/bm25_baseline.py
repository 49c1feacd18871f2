#!/usr/bin/env python3
"""Plain jieba + BM25 retrieval baseline over the chunks Evident produced.

This is the baseline the issue asks for: jieba.cut + BM25Okapi over the same
chunks, as a popular tutorial does. It reads the chunks from an Evident SQLite
index (built with `evident import`), ranks them for every question of a
SQuAD-style question file and writes the top 10 per question as a run file for
the eval scorer (`score_hits.py`):

  {"id": ..., "retrieved": [{"doc": <document path>, "text": <chunk text>}, ...]}

Tokens: jieba.cut of the lower-cased text, pure-whitespace tokens dropped.
BM25Okapi with rank_bm25's default parameters. With --per-policy (PolicyQA) a
question only ranks the chunks of its own policy file (row field `gold_file`,
matched as a path suffix); one BM25 index is built per policy.

Also prints per-query ranking latency (query tokenisation + scoring + top-10
selection) and hit@k / MRR@10 by the scorer's rule: a chunk is a hit when its
document ends with the question's `gold_file` and its text contains one of the
`answers` after NFKC, lower-casing and whitespace removal.

Usage: bm25_baseline.py --db INDEX.sqlite3 --questions QUESTIONS.jsonl --out RUN.jsonl [--per-policy]
Needs: pip install jieba rank_bm25 (numpy comes with rank_bm25)
"""
import argparse, json, logging, re, sqlite3, statistics, time, unicodedata

import jieba
import numpy as np
from rank_bm25 import BM25Okapi

TOP = 10


def tokenize(text):
    return [t for t in jieba.cut(text.lower()) if t.strip()]


def norm(s):  # same normalisation as the reference scorer
    s = unicodedata.normalize('NFKC', s or '').lower().replace('*', '')
    return re.sub(r'\s+', '', s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--db', required=True)
    ap.add_argument('--questions', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--per-policy', action='store_true', help='rank only chunks of the question\'s gold_file')
    a = ap.parse_args()
    jieba.setLogLevel(logging.WARNING)

    db = sqlite3.connect(a.db)
    chunks = db.execute('SELECT c.id, d.path, c.text FROM chunks c JOIN documents d ON d.id = c.doc_id '
                        'ORDER BY d.path, c.ordinal').fetchall()
    qs = [json.loads(l) for l in open(a.questions, encoding='utf-8') if l.strip()]

    groups = {}  # key -> list of chunk indices; one BM25 per key
    if a.per_policy:
        for q in qs:
            f = '/' + q['gold_file'].lstrip('/')
            groups.setdefault(q['gold_file'], [i for i, c in enumerate(chunks) if c[1].replace('\\', '/').endswith(f)])
    else:
        groups[None] = list(range(len(chunks)))
    toks = [tokenize(c[2]) for c in chunks]
    bm25 = {k: BM25Okapi([toks[i] for i in ix]) for k, ix in groups.items() if ix}

    lat, first_hits = [], []
    with open(a.out, 'w', encoding='utf-8') as out:
        for q in qs:
            key = q['gold_file'] if a.per_policy else None
            ix = groups.get(key, [])
            t0 = time.perf_counter()
            top = []
            if ix:
                scores = bm25[key].get_scores(tokenize(q['question']))
                top = [ix[j] for j in np.argsort(-scores, kind='stable')[:TOP]]
            lat.append((time.perf_counter() - t0) * 1000)
            out.write(json.dumps({'id': q['id'], 'retrieved': [{'doc': chunks[i][1], 'text': chunks[i][2]} for i in top]},
                                 ensure_ascii=False) + '\n')
            gold = '/' + q['gold_file'].lstrip('/')
            answers = [n for n in map(norm, q['answers']) if n]
            first_hits.append(next((r for r, i in enumerate(top, 1) if chunks[i][1].replace('\\', '/').endswith(gold)
                                    and any(n in norm(chunks[i][2]) for n in answers)), None))

    n = len(qs)
    lat.sort()
    print('chunks: %d, indexes: %d, questions: %d' % (len(chunks), len(bm25), n))
    print('ranking latency ms: p50=%.2f p95=%.2f max=%.2f' % (
        statistics.median(lat), lat[min(n - 1, int(0.95 * n))], lat[-1]))
    print('  '.join('hit@%d=%.3f' % (k, sum(1 for r in first_hits if r and r <= k) / n) for k in (1, 3, 5, 10))
          + '  MRR@10=%.3f' % (sum(1 / r for r in first_hits if r) / n))


if __name__ == '__main__':
    main()
