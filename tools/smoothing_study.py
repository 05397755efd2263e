#!/usr/bin/env python3
"""Offline study on a recall-bench work dir (README: "Neighbouring turns and sessions"): re-ranks the server's own
top-50 answer of every question (its score parts from candidates.jsonl) by the server's formula, plus a share of the
best score among the turn's neighbours in its session (`nb`) or among the other pooled turns of its session (`sess`),
and prints turn Recall@10 on the dev and held-out halves for a grid of lexical weight, `nb` and `sess`.

usage: python3 tools/smoothing_study.py WORK_DIR/SET SET [DATASETS_DIR]   (e.g. /tmp/rb/b100/beam_100K beam_100K)
"""
import gzip
import json
import sys

ALPHA, BETA, GAMMA = 0.7, 0.15, 0.15  # the server's default weights


def load(work, dataset, datasets):
    positions = {}
    for line in gzip.open(f"{datasets}/{dataset}/conversations.jsonl.gz", "rt"):
        c = json.loads(line)
        pos = {}
        for s in c["sessions"]:
            for i, t in enumerate(s["turns"]):
                pos[t["turn_id"]] = (s["session_id"], i)
        positions[c["conv_id"]] = pos
    conv_of = {}
    for line in gzip.open(f"{datasets}/{dataset}/questions.jsonl.gz", "rt"):
        q = json.loads(line)
        conv_of[q["question_id"]] = q["conv_id"]
    rows = [json.loads(line) for line in open(f"{work}/candidates.jsonl")]
    return positions, conv_of, rows


def ranking(row, pos, w, nb, sess):
    lex = [x[2] for x in row["server"]]
    best = max(lex) if lex else 0
    base = {}
    for turn, sim, lexical, fresh, conf in row["server"]:
        share = lexical / best if best > 0 else 0
        base[turn] = ALPHA * ((1 - w) * sim + w * share) + BETA * fresh + GAMMA * conf
    at = {pos[t]: s for t, s in base.items() if t in pos}
    of_session = {}
    for t, s in base.items():
        if t in pos:
            of_session.setdefault(pos[t][0], []).append((t, s))
    score = {}
    for t, s in base.items():
        v = s
        if t in pos:
            session, i = pos[t]
            near = [at[p] for p in ((session, i - 1), (session, i + 1)) if p in at]
            if near and nb:
                v += nb * max(near)
            others = [x for u, x in of_session[session] if u != t]
            if others and sess:
                v += sess * max(others)
        score[t] = v
    return sorted(score, key=lambda t: -score[t])


def recall_at(rows, positions, conv_of, k, **kw):
    total = 0.0
    for r in rows:
        gold = set(r["gold"])
        top = ranking(r, positions[conv_of[r["id"]]], **kw)[:k]
        total += len(gold & set(top)) / len(gold)
    return total / len(rows)


def main():
    work, dataset = sys.argv[1], sys.argv[2]
    datasets = sys.argv[3] if len(sys.argv) > 3 else "/work/shared/datasets"
    positions, conv_of, rows = load(work, dataset, datasets)
    dev = [r for r in rows if r["dev"] and r["gold"]]
    held = [r for r in rows if not r["dev"] and r["gold"]]
    print(f"{dataset}: {len(dev)} dev / {len(held)} held-out questions; turn Recall@10 of the server's top 50")
    for w in (0.0, 0.1, 0.2, 0.3):
        for nb in (0, 0.1, 0.2, 0.3, 0.5):
            for sess in (0, 0.05, 0.1, 0.2):
                d = recall_at(dev, positions, conv_of, 10, w=w, nb=nb, sess=sess)
                h = recall_at(held, positions, conv_of, 10, w=w, nb=nb, sess=sess)
                print(f"w={w} nb={nb} sess={sess}  dev {d:.3f}  held-out {h:.3f}")


if __name__ == "__main__":
    main()
