#!/usr/bin/python3
"""Writes a synthetic log in libvmaf's JSON layout (as vqhip writes it), for
vqhip_report's tests and for measuring a long title's report.

usage: make_synthetic_log.py OUT.json --frames N [--seed S] [--level L]
           [--outputs a,b,...] [--windows] [--nulls]

Values are deterministic for a seed: a slowly varying base around --level
with dips, formatted as libvmaf prints them (%.6f).
"""
import argparse
import math
import random

DEFAULT_OUTPUTS = ("integer_adm2,integer_adm_scale0,integer_adm_scale1,"
                   "integer_adm_scale2,integer_adm_scale3,integer_motion2,"
                   "integer_motion,integer_vif_scale0,integer_vif_scale1,"
                   "integer_vif_scale2,integer_vif_scale3,vmaf")


def value(name, base, rng):
    if name == "vmaf":
        return min(100.0, max(0.0, base + rng.gauss(0, 1.5)))
    if "motion" in name:
        return abs(rng.gauss(4, 2))
    if name.startswith("cambi"):
        return abs(rng.gauss(1, 0.8))
    if "psnr" in name:
        return 25 + base / 5 + rng.gauss(0, 0.5)
    return min(1.0, max(0.0, base / 100 + rng.gauss(0, 0.02)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--frames", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--level", type=float, default=85.0)
    ap.add_argument("--outputs", default=DEFAULT_OUTPUTS)
    ap.add_argument("--windows", action="store_true",
                    help="add vqhip's optional windows and events arrays")
    ap.add_argument("--nulls", action="store_true",
                    help="every 97th frame's first output is null")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    names = a.outputs.split(",")
    with open(a.out, "w") as f:
        f.write('{\n  "version": "synthetic",\n  "fps": 321.50,\n  "frames": [')
        for i in range(a.frames):
            base = a.level + 6 * math.sin(i / 400.0) + 3 * math.sin(i / 37.0)
            if rng.random() < 0.003:
                base -= rng.uniform(10, 40)
            f.write(",\n" if i else "\n")
            f.write('    {\n      "frameNum": %d,\n      "metrics": {\n' % i)
            vals = []
            for k, n in enumerate(names):
                if a.nulls and k == 0 and i % 97 == 5:
                    vals.append('        "%s": null' % n)
                else:
                    vals.append('        "%s": %.6f' % (n, value(n, base, rng)))
            f.write(",\n".join(vals) + "\n      }\n    }")
        f.write("\n  ]")
        if a.windows:
            f.write(',\n  "windows": [\n'
                    '    {"start_frame": 0, "end_frame": %d, "mean": 84.5},\n'
                    '    {"start_frame": %d, "end_frame": %d, "mean": 80.25}\n'
                    '  ],\n  "events": [\n'
                    '    {"frame": %d, "kind": "alert", "output": "vmaf",'
                    ' "message": "below 60 for 3 frames"}\n  ]'
                    % (a.frames // 2 - 1, a.frames // 2, a.frames - 1,
                       a.frames // 3))
        f.write(',\n  "pooled_metrics": {},\n  "aggregate_metrics": {}\n}\n')


if __name__ == "__main__":
    main()
