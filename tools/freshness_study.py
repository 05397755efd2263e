#!/usr/bin/env python3
"""Freshness settings studied offline on a recall-bench run's candidates (README: "Freshness when a question is
asked right after its conversation").

usage: python3 tools/freshness_study.py SET DIR/SET/candidates.jsonl [DATASETS]

Each question's pool is the bench's 300 best exact cosines and its BM25 list; each memory is scored by the server's
formula 0.7*((1-w)*cosine + w*bm25/best bm25) + beta*2^(-age/half-life) + 0.15*confidence, with its age in days
from the dataset's session dates to the question's as_of (BEAM: its conversation's last session, as recall-bench
--asked-at end asks; RealMem: the cut-off, read back from the served answer's freshness). For each freshness
setting the lexical weight is chosen on the dev half; dev and held-out turn Recall@10 are printed.
"""
import datetime
import gzip
import json
import math
import re
import sys

LEXICAL = [0, 0.1, 0.2, 0.3, 0.4, 0.5]
FRESHNESS = [(0, 30)] + [(b, h) for b in (0.02, 0.05, 0.1, 0.15, 0.2) for h in (7, 14, 30, 90, 365)]


def day(text):
    m = re.match(r"(\d{4})-(\d{2})-(\d{2})", text.strip())
    if m:
        return datetime.date(int(m[1]), int(m[2]), int(m[3])).toordinal()
    return datetime.datetime.strptime(text.strip(), "%B-%d-%Y").date().toordinal()


def main():
    name, candidates = sys.argv[1], sys.argv[2]
    root = (sys.argv[3] if len(sys.argv) > 3 else "/work/shared/datasets") + "/" + name
    turn_day, last_day = {}, {}
    for line in gzip.open(root + "/conversations.jsonl.gz", "rt"):
        c = json.loads(line)
        for s in c["sessions"]:
            for t in s["turns"]:
                turn_day[(c["conv_id"], str(t["turn_id"]))] = day(s["date"])
        last_day[c["conv_id"]] = max(day(s["date"]) for s in c["sessions"])
    conv_of = {}
    for line in gzip.open(root + "/questions.jsonl.gz", "rt"):
        q = json.loads(line)
        conv_of[q["question_id"]] = q["conv_id"]
    prepared = []
    for line in open(candidates):
        q = json.loads(line)
        conv = conv_of[q["id"]]
        dense = dict(q["dense"])
        bm25 = dict(q["bm25"])
        best = max(bm25.values()) if bm25 else 1.0
        floor = min(dense.values()) if dense else 0.0
        pool = [(t, dense.get(t, floor), bm25.get(t, 0.0) / best, turn_day[(conv, t)]) for t in set(dense) | set(bm25)]
        if name == "realmem":  # as_of is the cut-off: the served answer's freshness gives its age
            t, _, _, f, _ = q["server"][0]
            as_of = turn_day[(conv, t)] - 30 * math.log2(f) if f > 0 else turn_day[(conv, t)]
        else:
            as_of = last_day[conv]
        prepared.append((q, pool, as_of))

    def recall(w, beta, half_life):
        halves = {True: [], False: []}
        lam = math.log(2) / half_life
        for q, pool, as_of in prepared:
            ranked = sorted(
                pool,
                key=lambda m: -(0.7 * ((1 - w) * m[1] + w * m[2]) + beta * math.exp(-lam * max(0.0, as_of - m[3]))))
            top = {m[0] for m in ranked[:10]}
            gold = set(q["gold"])
            halves[q["dev"] in (True, "True")].append(len(gold & top) / len(gold))
        return [sum(v) / len(v) for v in (halves[True], halves[False])]

    print("freshness (beta, half-life days)   dev-chosen w   turn R@10 dev / held-out")
    for beta, half_life in FRESHNESS:
        scores = {w: recall(w, beta, half_life) for w in LEXICAL}
        w = max(LEXICAL, key=lambda x: scores[x][0])
        print("beta %.2f  half-life %3d          %.1f            %.4f / %.4f" % (beta, half_life, w, *scores[w]))


if __name__ == "__main__":
    main()
