"""The Python benchmark: rulecover against aix360 and imodels (issue 20).

    python3 python/bench/run.py --out OUT --venvs VENVS [--datasets magic,adult]

1. makes (or reuses) one virtual environment per library under VENVS with
   the pinned versions of settings.ENVS (rulecover: this checkout's
   python/ package, built by pip; set CARGO_TARGET_DIR to reuse a build);
2. writes the folds once (OUT/folds/DATASET.json, folds.py);
3. per data set and fold, runs the workers back to back and interleaved:
   our LRR, aix360's LRR, our RuleFit, imodels' RuleFit, then our RUG,
   RUX and MIRCO and scikit-learn's DT and RF; each worker appends JSON
   lines to OUT/results.jsonl (a rerun skips what is there);
4. merges the lines into OUT/table.md.

Needs only the standard library (the workers run in the environments).
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import settings  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))

#: (library, environment, worker script, methods), in the order run per fold.
JOBS = [
    ("rulecover", "rulecover", "worker_rulecover.py", ["LRR"]),
    ("aix360", "aix360", "worker_aix360.py", ["LRR"]),
    ("rulecover", "rulecover", "worker_rulecover.py", ["RuleFit"]),
    ("imodels", "imodels", "worker_imodels.py", ["RuleFit"]),
    ("rulecover", "rulecover", "worker_rulecover.py", ["RUG", "RUX-RF", "MIRCO"]),
    ("scikit-learn", "rulecover", "worker_sklearn.py", ["DT", "RF"]),
]

#: The pairs the acceptance compares: (method, ours, theirs).
PAIRS = [("LRR", "rulecover", "aix360"), ("RuleFit", "rulecover", "imodels")]


def python_of(venvs, env):
    return os.path.join(venvs, f"bench-{env}", "bin", "python")


def setup(venvs, out):
    """Creates the missing environments and records what each holds."""
    for env, pins in settings.ENVS.items():
        py = python_of(venvs, env)
        if not os.path.exists(py):
            print(f"creating {os.path.dirname(os.path.dirname(py))}", flush=True)
            subprocess.run([sys.executable, "-m", "venv", os.path.dirname(os.path.dirname(py))],
                           check=True)
            subprocess.run([py, "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
            extra = [os.path.join(REPO, "python")] if env == "rulecover" else []
            subprocess.run([py, "-m", "pip", "install", "-q", *pins, *extra], check=True)
        freeze = subprocess.run([py, "-m", "pip", "freeze"], check=True, capture_output=True,
                                text=True).stdout
        with open(os.path.join(out, f"env-{env}.txt"), "w") as f:
            f.write(freeze)


def done_keys(results):
    keys = set()
    if os.path.exists(results):
        with open(results) as f:
            for line in f:
                r = json.loads(line)
                keys.add((r["dataset"], r["fold"], r["library"], r["method"]))
    return keys


def run_job(args, env, script, dataset, fold, methods, results):
    cmd = [python_of(args.venvs, env), os.path.join(HERE, script), "--data-dir", args.data_dir,
           "--folds-dir", os.path.join(args.out, "folds"), "--dataset", dataset, "--fold",
           str(fold), "--methods", ",".join(methods), "--out", results]
    started = time.time()
    try:
        subprocess.run(cmd, check=True, timeout=args.timeout)
        return None
    except subprocess.TimeoutExpired:
        return f"timeout after {args.timeout} s"
    except subprocess.CalledProcessError as e:
        return f"exit status {e.returncode} after {time.time() - started:.0f} s"


def run(args):
    results = os.path.join(args.out, "results.jsonl")
    done = done_keys(results)
    for dataset in args.datasets:
        for fold in args.folds:
            for library, env, script, methods in JOBS:
                if library in args.skip:
                    continue
                if library in ("aix360", "imodels") and fold not in args.slow_folds:
                    continue
                todo = [m for m in methods if (dataset, fold, library, m) not in done
                        and (args.methods is None or m in args.methods)]
                if not todo:
                    continue
                print(f"== {dataset} fold {fold}: {library} {','.join(todo)} "
                      f"(load {os.getloadavg()[0]:.1f})", flush=True)
                failure = run_job(args, env, script, dataset, fold, todo, results)
                if failure:
                    print(f"   {library} {todo}: {failure}", flush=True)
                    ok = done_keys(results)
                    with open(results, "a") as f:
                        for m in todo:
                            if (dataset, fold, library, m) not in ok:
                                f.write(json.dumps(dict(dataset=dataset, fold=fold,
                                                        library=library, method=m,
                                                        status=failure)) + "\n")


def fmt(x, digits):
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def mean(xs):
    return statistics.fmean(xs) if xs else float("nan")


def merge(out, datasets):
    """OUT/table.md: one row per (data set, library, method), then the
    per-fold ratios of the acceptance pairs."""
    rows = []
    with open(os.path.join(out, "results.jsonl")) as f:
        for line in f:
            rows.append(json.loads(line))
    order = [(lib, m) for lib, _, _, ms in JOBS for m in ms]
    lines = ["| data set | library | method | folds | accuracy | rules | fit s (wall) | "
             "fit s (CPU) | load avg |", "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for ds in datasets:
        for lib, m in order:
            rs = [r for r in rows if r["dataset"] == ds and r["library"] == lib
                  and r["method"] == m]
            ok = [r for r in rs if r["status"] == "ok"]
            failed = [r for r in rs if r["status"] != "ok"]
            if not rs:
                continue
            loads = [r[k] for r in ok for k in ("load_before", "load_after")]
            folds = f"{len(ok)}" + (f" (+{len(failed)} {failed[0]['status']})" if failed else "")
            acc = [r["accuracy"] for r in ok]
            sd = statistics.stdev(acc) if len(acc) > 1 else float("nan")
            lines.append(
                f"| {ds} | {lib} {ok[0]['version'] if ok else ''} | {m} | {folds} | "
                f"{fmt(mean(acc), 4)} ± {fmt(sd, 4)} | {fmt(mean([r['rules'] for r in ok]), 1)} | "
                f"{fmt(mean([r['fit_s'] for r in ok]), 2)} | "
                f"{fmt(mean([r['fit_cpu_s'] for r in ok]), 2)} | "
                f"{fmt(min(loads) if loads else None, 1)}–{fmt(max(loads) if loads else None, 1)} |")
    lines += ["", "Back to back, same folds (only folds where both fits finished):", "",
              "| data set | method | folds | accuracy ours − theirs | fit wall ratio theirs / ours "
              "(per fold) | fit CPU ratio |", "|---|---|---:|---:|---|---|"]
    for ds in datasets:
        for m, ours, theirs in PAIRS:
            by = {}
            for r in rows:
                if r["dataset"] == ds and r["method"] == m and r["status"] == "ok":
                    by.setdefault(r["fold"], {})[r["library"]] = r
            both = [v for _, v in sorted(by.items()) if ours in v and theirs in v]
            if not both:
                continue
            wall = [v[theirs]["fit_s"] / v[ours]["fit_s"] for v in both]
            cpu = [v[theirs]["fit_cpu_s"] / v[ours]["fit_cpu_s"] for v in both]
            dacc = mean([v[ours]["accuracy"] - v[theirs]["accuracy"] for v in both])
            lines.append(
                f"| {ds} | {m} | {len(both)} | {dacc:+.4f} | "
                f"{', '.join(f'{x:.1f}' for x in wall)} (min {min(wall):.1f}×) | "
                f"{', '.join(f'{x:.1f}' for x in cpu)} (min {min(cpu):.1f}×) |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write(text)
    print(text)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="output folder (outside the repository)")
    p.add_argument("--venvs", required=True, help="folder of the per-library environments")
    p.add_argument("--data-dir", default=os.path.join(REPO, "..", "shared", "datasets"))
    p.add_argument("--datasets", default="magic,adult")
    p.add_argument("--folds", default=",".join(str(k) for k in range(settings.N_FOLDS)),
                   help="folds to run (0-based)")
    p.add_argument("--slow-folds", default=None,
                   help="folds on which aix360 and imodels run (default: --folds)")
    p.add_argument("--timeout", type=float, default=settings.TIMEOUT_S,
                   help="seconds per worker process")
    p.add_argument("--skip", default="", help="libraries not to run, comma-separated")
    p.add_argument("--methods", default=None,
                   help="methods to run (e.g. RuleFit), comma-separated; default all")
    p.add_argument("--merge-only", action="store_true")
    args = p.parse_args()
    args.datasets = args.datasets.split(",")
    args.folds = [int(k) for k in args.folds.split(",")]
    args.slow_folds = ([int(k) for k in args.slow_folds.split(",")]
                       if args.slow_folds else args.folds)
    args.skip = set(filter(None, args.skip.split(",")))
    args.methods = set(args.methods.split(",")) if args.methods else None
    args.out = os.path.abspath(args.out)
    args.venvs = os.path.abspath(args.venvs)
    os.makedirs(os.path.join(args.out, "folds"), exist_ok=True)
    if not args.merge_only:
        setup(args.venvs, args.out)
        missing = [d for d in args.datasets
                   if not os.path.exists(os.path.join(args.out, "folds", f"{d}.json"))]
        if missing:
            subprocess.run([python_of(args.venvs, "rulecover"), os.path.join(HERE, "folds.py"),
                            "--data-dir", args.data_dir, "--out",
                            os.path.join(args.out, "folds"), "--datasets", ",".join(missing)],
                           check=True)
        run(args)
    merge(args.out, args.datasets)


if __name__ == "__main__":
    main()
