"""Counts paper002 cells within 2 standard errors of Tables 1-4.

Run from the repository root: python3 crates/rc-glm/scripts/paper002_2se.py bench-out/paper002-*/results.json
(records.partial.jsonl files work too). Within = |ours - paper| <= 2*SE_paper (Y/n before the slash) and
<= 2*sqrt(SE_paper^2 + SE_ours^2) (after the slash); only cells with 10 folds are counted.
"""
import json, sys, collections, statistics as st, math
paper = json.load(open('xtask/paper/002.json'))
tabs = {t['id']: t for t in paper['tables']}
recs = []
for path in sys.argv[1:]:
    if path.endswith('.jsonl'):
        recs += [json.loads(l) for l in open(path) if l.strip()]
    else:
        recs += json.load(open(path))['records']
by = collections.defaultdict(list)
for r in recs:
    by[(r['dataset'], r['method'])].append(r)
def summ(rs, src, key):
    xs = [r[src].get(key) for r in rs if r[src].get(key) is not None]
    if not xs: return None
    m = st.mean(xs); se = st.stdev(xs)/math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return m, se, len(xs)
methods = ['LR1','LRR','RuleFit','LR1N','LRRN','RuleFitN','GBT','ZeroR']
for tid, src, key in [('Table 1','metrics','brier'),('Table 2','size','complexity'),('Table 3','metrics','r2'),('Table 4','size','complexity')]:
    t = tabs[tid]
    print(f'\n### {tid} ({key}): ours mean (SE, n folds) | paper mean (SE) | within 2·SE_paper / 2·SE_combined')
    cnt = collections.Counter(); tot = collections.Counter()
    for ds, row in t['rows'].items():
        line = []
        for m in methods:
            s = summ(by.get((ds, m), []), src, key)
            if s is None: continue
            p = row.get(m)
            if p is None:
                line.append(f'{m} {s[0]:.4g} ({s[1]:.2g},{s[2]})'); continue
            d = s[0]-p['mean']; sep = p['std'] or 0.0
            w1 = abs(d) <= 2*sep + 1e-12; w2 = abs(d) <= 2*math.hypot(sep, s[1]) + 1e-12
            if s[2] >= 10:
                tot[m]+=1; cnt[m]+= w1
            line.append(f"{m} {s[0]:.4g} ({s[1]:.2g},{s[2]}) | {p['mean']:.4g} ({sep:.2g}) {'Y' if w1 else 'n'}/{'Y' if w2 else 'n'}")
        if line: print(f'- {ds}: ' + ' ;; '.join(line))
    print('  within 2·SE_paper (complete 10-fold cells): ' + ', '.join(f'{m} {cnt[m]}/{tot[m]}' for m in methods if tot[m]))
