#!/usr/bin/env python3
"""Offline study on a recall-bench work dir: the lexical part divided by max(best BM25 of the pool, C(query)) instead
of by the pool's best alone, C being the query's lexical ceiling (tools/LexicalCeiling.java writes it per question:
`idf` = the sum of the query terms' BM25 IDFs, `self` = the BM25 score of a document equal to the query, each over
the terms some document holds; `idf-all` / `self-all` also count the terms no document holds, at the IDF of n = 0). Re-ranks
the server's own answer of every question (its score parts from candidates.jsonl) by the server's formula and prints
turn Recall@10 on the dev and held-out halves for w in 0..0.5, with the lexical weight chosen on dev per variant.

The server's answer carries the lexical part already divided by the pool's best B; B is recovered from a candidate's
raw BM25 (the dumped BM25 list) over its part, so the new part is part · B / max(B, C) = part · min(1, B / C).

usage: python3 tools/ceiling_study.py WORK_DIR/SET/candidates.jsonl CEILINGS_TSV [--scales 0.25,0.5,1]
"""
import json
import sys

ALPHA, BETA, GAMMA = 0.7, 0.15, 0.15  # the server's default weights
WEIGHTS = [round(0.05 * i, 2) for i in range(11)]


def load(cands, ceilings):
    ceil = {}
    for line in open(ceilings):
        qid, idf, self_, terms, idf_all, self_all = line.rstrip("\n").split("\t")
        ceil[qid] = {"idf": float(idf), "self": float(self_), "terms": int(terms),
                     "idf-all": float(idf_all), "self-all": float(self_all)}
    rows = []
    for line in open(cands):
        r = json.loads(line)
        if not r["gold"]:
            continue
        raw = {t: s for t, s in r["bm25"]}
        best = None
        for turn, sim, lexical, fresh, conf in r["server"]:
            if lexical > 0 and turn in raw:
                best = raw[turn] / lexical
                break
        if best is None:
            best = r["bm25"][0][1] if r["bm25"] else 0.0
        r["pool_best"] = best
        r["ceil"] = ceil[r["id"]]
        rows.append(r)
    return rows


def factor(r, variant, scale):
    if variant == "current":
        return 1.0
    c = scale * r["ceil"][variant]
    b = r["pool_best"]
    return 1.0 if c <= b or c <= 0 else b / c


def recall10(rows, w, variant, scale=1.0):
    total = 0.0
    for r in rows:
        f = factor(r, variant, scale)
        scored = [
            (ALPHA * ((1 - w) * sim + w * lexical * f) + BETA * fresh + GAMMA * conf, i, turn)
            for i, (turn, sim, lexical, fresh, conf) in enumerate(r["server"])
        ]
        scored.sort(key=lambda x: (-x[0], x[1]))
        top = {t for _, _, t in scored[:10]}
        gold = set(r["gold"])
        total += len(gold & top) / len(gold)
    return total / len(rows)


def main():
    cands, ceilings = sys.argv[1], sys.argv[2]
    scales = [1.0]
    if "--scales" in sys.argv:
        scales = [float(x) for x in sys.argv[sys.argv.index("--scales") + 1].split(",")]
    rows = load(cands, ceilings)
    dev = [r for r in rows if r["dev"]]
    held = [r for r in rows if not r["dev"]]
    names = ("idf", "self", "idf-all", "self-all")
    capped = {v: sum(1 for r in rows if r["ceil"][v] > r["pool_best"]) for v in names}
    print(f"{cands}: {len(dev)} dev / {len(held)} held-out questions; turn Recall@10 of the server's answer re-ranked")
    print("questions whose ceiling exceeds the pool's best BM25: "
          + ", ".join(f"{v} {capped[v]}" for v in names) + f" of {len(rows)}")
    variants = [("current", 1.0)] + [(v, s) for v in names for s in scales]
    print("variant      " + " ".join(f"w={w:<4}" for w in WEIGHTS))
    summary = []
    for v, s in variants:
        name = v if v == "current" or s == 1.0 else f"{v}x{s}"
        d = [recall10(dev, w, v, s) for w in WEIGHTS]
        h = [recall10(held, w, v, s) for w in WEIGHTS]
        print(f"{name:<12} dev  " + " ".join(f"{x:.3f} " for x in d))
        print(f"{'':<12} held " + " ".join(f"{x:.3f} " for x in h))
        i = max(range(len(WEIGHTS)), key=lambda k: (d[k], -k))  # first best on dev
        summary.append((name, WEIGHTS[i], d[i], h[i]))
    print("\nvariant       dev-chosen w   dev R@10   held-out R@10")
    for name, w, d, h in summary:
        print(f"{name:<13} {w:<14} {d:.3f}      {h:.3f}")


if __name__ == "__main__":
    main()
