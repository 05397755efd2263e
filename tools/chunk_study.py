#!/usr/bin/env python3
"""Offline study on a recall-bench work dir and tools/ChunkStudy.java's output: turn Recall@10 on the dev and
held-out halves when a turn's dense score is its whole-turn cosine (the server), its best piece's cosine, the cosine of
its pieces' mean vector, its first piece's, or a mix of whole and best piece; alone and fused with the BM25 the server's index gave (normalised by the best of the question's list,
as the server does by its pool), with the lexical weight chosen on dev per variant.

With --reply (a TSV written by ChunkStudy.java --reply) it also ranks by the turn embedded together with its reply
(`joint`), by mixes of the whole turn's cosine with the joint one or with the reply's alone, by the better of whole
and joint, and by the unit vector along a mix of the turn's and the reply's vectors (what one stored vector would give).

usage: python3 tools/chunk_study.py CANDIDATES_JSONL CHUNK_TSV SIZES(e.g. 64,128,256, or -) [--admissible] [--reply]
"""
import json
import sys
from collections import defaultdict

cands, tsv, sizes = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3].split(",") if s != "-"]
# --admissible: rank only the turns the bench listed for the question (its exact dense list, which holds every turn
# before a RealMem question's cut-off when there are fewer than 300, and its BM25 list)
admissible = "--admissible" in sys.argv
rows = {}
for line in open(cands):
    r = json.loads(line)
    if r["gold"]:
        rows[r["id"]] = r
sims = defaultdict(dict)
for line in open(tsv):
    f = line.rstrip("\n").split("\t")
    sims[f[0]][f[1]] = [float(x) for x in f[2:]]

# sanity: the whole-turn cosine equals the bench's exact dense list
diff = max(abs(sims[q][t][0] - s) for q, r in rows.items() for t, s in r["dense"][:20])
print(f"max |whole - dense list| over the top 20: {diff:.2e}")

def recall10(qids, score):
    tot = 0.0
    for q in qids:
        r = rows[q]
        gold = set(r["gold"])
        pool = allowed[q] if admissible else sims[q]
        ranked = sorted(pool, key=lambda t: -score(q, t))[:10]
        tot += len(gold & set(ranked)) / len(gold)
    return tot / len(qids)

allowed = {q: {t for t, _ in r["dense"]} | {t for t, _ in r["bm25"]} for q, r in rows.items()}
lexn = {}
for q, r in rows.items():
    best = r["bm25"][0][1] if r["bm25"] else 1.0
    lexn[q] = {t: s / best for t, s in r["bm25"]}

dev = [q for q in rows if rows[q]["dev"]]
held = [q for q in rows if not rows[q]["dev"]]
variants = {"whole": lambda v: v[0]}
for i, n in enumerate(sizes):
    b, m, first = 1 + 3 * i, 2 + 3 * i, 3 + 3 * i
    variants[f"piece{n}"] = (lambda b: lambda v: v[b])(b)
    variants[f"mean{n}"] = (lambda m: lambda v: v[m])(m)
    variants[f"first{n}"] = (lambda x: lambda v: v[x])(first)
    for a in (0.25, 0.5, 0.75):
        variants[f"mix{n}@{a}"] = (lambda b, a: lambda v: a * v[0] + (1 - a) * v[b])(b, a)
    variants[f"max{n}"] = (lambda b: lambda v: max(v[0], v[b]))(b)
if "--reply" in sys.argv:
    j, r = 1 + 3 * len(sizes), 2 + 3 * len(sizes)
    variants["joint"] = lambda v: v[j]
    variants["reply"] = lambda v: v[r]
    for a in (0.25, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9):
        variants[f"whole+joint@{a}"] = (lambda a: lambda v: a * v[0] + (1 - a) * v[j])(a)
        variants[f"whole+reply@{a}"] = (lambda a: lambda v: a * v[0] + (1 - a) * v[r])(a)
    variants["max(whole,joint)"] = lambda v: max(v[0], v[j])
    # one stored vector: the unit vector along a·turn + (1 − a)·reply, what an index of unit vectors would hold
    for a in (0.6, 0.7, 0.75, 0.8, 0.9):
        variants[f"unit(whole+reply)@{a}"] = (lambda a: lambda v: (a * v[0] + (1 - a) * v[r])
                                              / (a * a + (1 - a) ** 2 + 2 * a * (1 - a) * v[r + 1]) ** 0.5)(a)
print(f"{len(dev)} dev / {len(held)} held-out questions")
print("variant\tdense dev\tdense held\thybrid(w dev)\thybrid dev\thybrid held")
for name, f in variants.items():
    d = recall10(dev, lambda q, t: f(sims[q][t]))
    h = recall10(held, lambda q, t: f(sims[q][t]))
    best = None
    for w in [0, 0.05, 0.1, 0.15, 0.2, 0.3] + ([0.4, 0.5] if "--reply" in sys.argv else []):
        s = lambda q, t, w=w: (1 - w) * f(sims[q][t]) + w * lexn[q].get(t, 0.0)
        rd = recall10(dev, s)
        if best is None or rd > best[1] + 1e-9:
            best = (w, rd, recall10(held, s))
    print(f"{name}\t{d:.3f}\t{h:.3f}\t{best[0]}\t{best[1]:.3f}\t{best[2]:.3f}")
