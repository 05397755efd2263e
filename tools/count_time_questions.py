#!/usr/bin/env python3
"""Counts the questions of the recall sets that name a date or a relative time (README: "Dates and relative time in
questions"), to size what query handling of dates against occurred_at could change before building it.

usage: python3 tools/count_time_questions.py [DATASETS_DIR]   (default /work/shared/datasets)
"""
import collections
import gzip
import json
import re
import sys

MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
PATTERN = re.compile(
    rf"\b(yesterday|last (week|month|year|{DAYS}|{MONTHS})|(\d+|two|three|four|a) (days?|weeks?|months?) "
    rf"(ago|before|after|earlier|later)|in ({MONTHS})|recently|earlier this)\b",
    re.I,
)

root = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/datasets"
for name in ["beam_100K", "beam_500K", "realmem"]:
    with gzip.open(f"{root}/{name}/questions.jsonl.gz", "rt", encoding="utf-8") as f:
        questions = [json.loads(line) for line in f]
    hits = [q for q in questions if PATTERN.search(q["question"])]
    types = collections.Counter(q["question_type"] for q in hits)
    print(f"{name}: {len(hits)} of {len(questions)} ({100 * len(hits) / len(questions):.1f} %) {dict(types)}")
