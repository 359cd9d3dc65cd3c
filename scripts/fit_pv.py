"""Refit the Panzerfaust placeholder PV model on the PVs that survived in the book (issue 16.4).

    .venv/bin/python scripts/fit_pv.py            # writes rulesets/panzerfaust/pv_model.yaml
    .venv/bin/python scripts/fit_pv.py --check    # prints the fit, writes nothing

Per kind: ridge regression of the printed PV on standardised features (pv_model.FEATURES); a
missing feature takes its mean. The penalty is chosen by leave-one-out error (closed form via the
hat matrix), and that error is what the decision P100 reports as the held-out error.
"""

from __future__ import annotations

import argparse
import subprocess
from datetime import date
from pathlib import Path

import numpy as np
import yaml

from kriegsspiel.rulesets import load
from kriegsspiel.rulesets.panzerfaust import pv_model

LAMBDAS = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0)


def _matrix(rows: list[dict], names: list[str]) -> tuple[np.ndarray, dict, dict]:
    mean, scale = {}, {}
    cols = []
    for n in names:
        known = np.array([r[n] for r in rows if r.get(n) is not None], dtype=float)
        mu = float(known.mean()) if known.size else 0.0
        sd = float(known.std()) if known.size and known.std() > 0 else 1.0
        mean[n], scale[n] = mu, sd
        cols.append([0.0 if r.get(n) is None else (r[n] - mu) / sd for r in rows])
    return np.array(cols, dtype=float).T, mean, scale


def _ridge(x: np.ndarray, y: np.ndarray, lam: float) -> tuple[np.ndarray, float, np.ndarray]:
    xc = np.hstack([np.ones((len(y), 1)), x])
    pen = lam * np.eye(xc.shape[1])
    pen[0, 0] = 0.0
    inv = np.linalg.inv(xc.T @ xc + pen)
    beta = inv @ xc.T @ y
    hat = np.einsum("ij,jk,ik->i", xc, inv, xc)
    loo = (y - xc @ beta) / (1 - hat)
    return beta, float(np.abs(loo).mean()), loo


def fit_kind(kind: str, cat) -> dict | None:
    records = cat.all(kind)
    feats = pv_model.FEATURES[kind]
    train = [(feats(r, cat), r.pv) for r in records if r.pv is not None]
    if len(train) < 8:
        return None
    names = sorted(train[0][0])
    # a feature known for fewer than a quarter of the priced items would be mostly imputed
    names = [n for n in names if sum(f[n] is not None for f, _ in train) >= len(train) / 4]
    x, mean, scale = _matrix([f for f, _ in train], names)
    y = np.array([pv for _, pv in train], dtype=float)
    best = min(LAMBDAS, key=lambda lam: _ridge(x, y, lam)[1])
    beta, loo_mae, loo = _ridge(x, y, best)
    fitted = np.hstack([np.ones((len(y), 1)), x]) @ beta
    return {
        "trained_on": len(y),
        "unpriced": sum(r.pv is None for r in records),
        "ridge_lambda": best,
        "intercept": round(float(beta[0]), 4),
        "coef": {n: round(float(b), 4) for n, b in zip(names, beta[1:], strict=True)},
        "mean": {n: round(mean[n], 4) for n in names},
        "scale": {n: round(scale[n], 4) for n in names},
        "minimum": int(max(1, y.min() // 2)),
        "error": {
            "fit_mae": round(float(np.abs(y - fitted).mean()), 1),
            "loo_mae": round(loo_mae, 1),
            "loo_median_pct": round(float(np.median(np.abs(loo) / y) * 100), 1),
            "pv_median": float(np.median(y)),
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    cat = load("panzerfaust", overlays=())
    kinds = {k: m for k in pv_model.MODELLED_KINDS if (m := fit_kind(k, cat))}
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    doc = {
        "provenance": "placeholder",
        "method": "ridge regression per kind on the surviving PVs of seed 000 (scripts/fit_pv.py)",
        "decision": "docs/decisions/panzerfaust.md P100",
        "fitted": {"date": date.today().isoformat(), "data_commit": commit or None},
        "kinds": kinds,
    }
    for k, m in kinds.items():
        e = m["error"]
        print(
            f"{k:14} n={m['trained_on']:3} unpriced={m['unpriced']:3} lambda={m['ridge_lambda']:5}"
            f" fit MAE {e['fit_mae']:6} LOO MAE {e['loo_mae']:6}"
            f" LOO median {e['loo_median_pct']:5}% (median PV {e['pv_median']})"
        )
    if not args.check:
        Path(pv_model.MODEL_FILE).write_text(yaml.safe_dump(doc, sort_keys=False, width=100))


if __name__ == "__main__":
    main()
