"""AIX360 LogisticRuleRegression on the shared adult CSV (same binarization
and lambdas as `cargo run -p rc-glm --release --example adult_lrr`)."""
import sys, time
import numpy as np, pandas as pd
from aix360.algorithms.rbm import LogisticRuleRegression, FeatureBinarizer

path = sys.argv[1] if len(sys.argv) > 1 else "../shared/datasets/tabular/adult.csv"
df = pd.read_csv(path)
y = df.pop("y").values
cat = ["workclass", "education", "marital_status", "occupation", "relationship", "race", "native_country"]
for c in cat:
    df[c] = df[c].fillna("<missing>").astype(str)
w0, c0 = time.perf_counter(), time.process_time()
X = FeatureBinarizer(colCateg=cat, negations=True).fit_transform(df)
w1, c1 = time.perf_counter(), time.process_time()
lrr = LogisticRuleRegression(lambda0=0.005, lambda1=0.001)
lrr.fit(X, y)
w2, c2 = time.perf_counter(), time.process_time()
p = lrr.predict_proba(X)
print(f"AIX360 binarize wall {w1-w0:.2f}s cpu {c1-c0:.2f}s | LRR fit wall {w2-w1:.2f}s cpu {c2-c1:.2f}s | "
      f"iterations {lrr.it} rules {lrr.z.shape[1]} train Brier {np.mean((p-y)**2):.5f} columns {X.shape[1]}")
