#!/usr/bin/env python3
"""Synthetic data sets that expose BoostSRL's "enough different matches" rule
(docs/reproduction/003.md, TreeParams::distinct_matches).

Writes <out>/<kind>/{background.txt,train,test} for kind in
  refl     positives: 40 reflexive pairs same(x, x) + 160 random pairs
  refl140  as refl with 140 reflexive positives (58 % of the examples)
  coauthor positives: 40 co-author pairs same(x, y) + 160 random pairs
  refl_eq  refl140 plus eq(+auth,+auth) with facts eq(x, x)
Papers have 2-3 authors; every author is in one paper. Then, per kind:
  SRLEARN_DIR=... scripts/boostsrl_fold.sh <out>/<kind> "" same <runs>/<kind>
  grep -c "author(C, A), author(C, B)" <runs>/<kind>/train_log.txt
BoostSRL scores `author(C, A), author(C, B)` only for `coauthor`: for the
reflexive kinds both literals ground to the same fact on every example the
test covers, and BoostSRL counts such an extension as a "bad extension".
usage: boostsrl_distinct_toy.py OUT
"""
import os
import random
import sys

MODES = ("same(+auth,+auth).\nsame(+auth,-auth).\nsame(-auth,+auth).\n"
         "author(-paper,+auth).\nauthor(+paper,-auth).\n")


def split(path, name, off, seed, kind):
    random.seed(seed)
    authors = [f"a{off + i}" for i in range(150)]
    random.shuffle(authors)
    facts, co, i, p = [], [], 0, 0
    while i < len(authors):
        k = random.choice([2, 3])
        grp = authors[i:i + k]
        i += k
        p += 1
        facts += [f"author(p{off + p},{a})." for a in grp]
        co += [(x, y) for x in grp for y in grp if x != y]
    cos = set(co)
    pos = set()
    if kind == "coauthor":
        pos.update(random.sample(co, 40))
    else:
        n = 140 if kind in ("refl140", "refl_eq") else 40
        pos.update((x, x) for x in random.sample(authors, n))
    while len(pos) < 200:
        x, y = random.sample(authors, 2)
        if (x, y) not in cos:
            pos.add((x, y))
    neg = set()
    while len(neg) < 100:
        x, y = random.sample(authors, 2)
        if (x, y) not in pos and (x, y) not in cos:
            neg.add((x, y))
    if kind == "refl_eq":
        facts += [f"eq({a},{a})." for a in sorted(authors)]
    d = os.path.join(path, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"{name}_facts.txt"), "w") as f:
        f.write("\n".join(facts) + "\n")
    for k, ex in (("pos", pos), ("neg", neg)):
        with open(os.path.join(d, f"{name}_{k}.txt"), "w") as f:
            f.write("\n".join(f"same({x},{y})." for x, y in sorted(ex)) + "\n")


def main():
    out = sys.argv[1]
    for kind in ("refl", "refl140", "coauthor", "refl_eq"):
        path = os.path.join(out, kind)
        os.makedirs(path, exist_ok=True)
        modes = MODES + ("eq(+auth,+auth).\n" if kind == "refl_eq" else "")
        with open(os.path.join(path, "background.txt"), "w") as f:
            f.write(modes)
        split(path, "train", 0, 1, kind)
        split(path, "test", 1000, 2, kind)


if __name__ == "__main__":
    main()
