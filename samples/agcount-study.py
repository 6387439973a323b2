#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The agcount study's table (samples/agcount-study.sh): reads `seekscope report --json --disk`
# of every capture (CONFIG-rN-extract.sst: the phases extract and sync; CONFIG-rN-rm.sst: the
# command rm -rf + sync, phase "workload"), and writes per configuration and phase the mean and the min-max over the
# repeats: the text table on stdout and the same as TSV (the figure's input); then why the head
# moved: the seek causes of each capture (report's seek_causes, docs/classes.md) summed over the
# repeats, as shares of the seeks.
import argparse
import json
import os
import re
import sys

GROUPS = (("extract + sync", "extract", ("extract", "sync")),
          ("rm -rf + sync", "rm", ("workload",)))
METRICS = ("seeks", "seeks_per_s", "measured_s", "model_s", "seek_s", "rotation_s",
           "transfer_s", "overhead_s")


def group_of(kind, phase):
    base = phase.split(".")[0]          # extract.2 with record --repeat
    for name, k, members in GROUPS:
        if k == kind and base in members:
            return name
    return None


DATA = ("data", "file-data")
# the seek causes in five parts that add up to every seek, first match wins
CAUSES = (("data>data across", "data -> data, between two zones (AGs, groups)"),
          ("data>data within", "data -> data, within one zone"),
          ("journal", "to or from the journal/log"),
          ("metadata", "to or from metadata or a directory"),
          ("other", "anything else (write-zeroes, ...)"))


def cause_parts(seek_causes):
    """Seeks per part of CAUSES from report --json's seek_causes."""
    parts = dict.fromkeys((k for k, _ in CAUSES), 0)
    for c in seek_causes:
        pair = (c["from"], c["to"])
        if c["from"] in DATA and c["to"] in DATA:
            parts["data>data across"] += c["across_zones"]
            parts["data>data within"] += c["seeks"] - c["across_zones"]
        elif "journal" in pair:
            parts["journal"] += c["seeks"]
        elif "metadata" in pair or "dir" in pair:
            parts["metadata"] += c["seeks"]
        else:
            parts["other"] += c["seeks"]
    return parts


def label(config):
    m = re.fullmatch(r"xfs-ag(\d+)", config)
    return "XFS agcount=%s" % m.group(1) if m else config


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--title", default="")
    ap.add_argument("jsonl")
    ap.add_argument("tsv")
    a = ap.parse_args()
    runs = {}                            # (config, group) -> [per-run dict]
    causes = {}                          # (config, kind) -> {part: seeks, "data>journal": n}
    order = []
    model = None
    with open(a.jsonl) as f:
        for line in f:
            r = json.loads(line)
            m = re.fullmatch(r"(.+)-r(\d+)-(extract|rm)\.sst", os.path.basename(r["file"]))
            if not m or not r.get("model"):
                sys.exit("agcount-study: %s: not a study capture reported with --disk" % r["file"])
            config = m.group(1)
            model = r["model"]["name"]
            cs = causes.setdefault((config, m.group(3)), dict.fromkeys(
                [k for k, _ in CAUSES] + ["data>journal", "seeks"], 0))
            for k, v in cause_parts(r.get("seek_causes") or []).items():
                cs[k] += v
            cs["data>journal"] += sum(c["seeks"] for c in r.get("seek_causes") or []
                                      if c["from"] in DATA and c["to"] == "journal")
            cs["seeks"] += r["seeks"]
            if config not in order:
                order.append(config)
            sums = {}
            for p in r["phases"]:
                g = group_of(m.group(3), p["name"])
                if g is None:
                    continue
                s = sums.setdefault(g, dict.fromkeys(METRICS, 0.0))
                s["seeks"] += p["seeks"]
                s["measured_s"] += p["duration_s"]
                s["model_s"] += p["model_s"]
                for k in ("seek_s", "rotation_s", "transfer_s", "overhead_s"):
                    s[k] += p["model"][k]
            for g, s in sums.items():
                s["seeks_per_s"] = s["seeks"] / s["measured_s"] if s["measured_s"] > 0 else 0
                runs.setdefault((config, g), []).append(s)
    cols = ["config", "label", "phase", "runs"]
    for k in METRICS:
        cols += [k, k + "_min", k + "_max"]
    with open(a.tsv, "w") as t:
        t.write("# title: %s\n# model: %s\n" % (a.title, model))
        t.write("\t".join(cols) + "\n")
        print("agcount study: %s; modelled on %s (one request at a time, issue order)"
              % (a.title, model))
        for g, _, _ in GROUPS:
            print("\n%-16s %-4s %16s %9s %18s %20s %8s %8s %8s" % (
                g, "runs", "seeks", "seeks/s", "measured s", model + " s", "seek", "rotation",
                "transfer"))
            for config in order:
                rs = runs.get((config, g))
                if not rs:
                    continue
                agg = {}
                for k in METRICS:
                    v = [r[k] for r in rs]
                    agg[k] = (sum(v) / len(v), min(v), max(v))
                row = [config, label(config), g, str(len(rs))]
                for k in METRICS:
                    row += ["%.6g" % x for x in agg[k]]
                t.write("\t".join(row) + "\n")

                def spread(k, fmt):
                    m, lo, hi = agg[k]
                    s = fmt % m
                    return s if len(rs) == 1 else s + (" (" + fmt + "-" + fmt + ")") % (lo, hi)
                print("%-16s %4d %16s %9.1f %18s %20s %8.2f %8.2f %8.2f" % (
                    label(config), len(rs), spread("seeks", "%.0f"), agg["seeks_per_s"][0],
                    spread("measured_s", "%.2f"), spread("model_s", "%.2f"),
                    agg["seek_s"][0], agg["rotation_s"][0], agg["transfer_s"][0]))
    print("\nmeasured: on this machine's loop devices; %s s: the modelled disk's busy time, "
          "split into seek, rotation and transfer (+ command overhead); "
          "min-max over the runs in parentheses" % model)
    print_causes(order, causes)


def pct(n, total):
    return 100.0 * n / total if total else 0.0


def print_causes(order, causes):
    """Why the head moved: each capture's seeks by cause, shares adding up to 100 %."""
    print("\nseek causes: the class of the request before and after each seek, whole captures, "
          "all runs (docs/classes.md)")
    for kind, name in (("extract", "extract + sync"), ("rm", "rm -rf + sync")):
        if not any((config, kind) in causes for config in order):
            continue
        print("\n%-16s %8s" % (name, "seeks") + "".join(" %17s" % k for k, _ in CAUSES))
        for config in order:
            cs = causes.get((config, kind))
            if not cs:
                continue
            print("%-16s %8d" % (label(config), cs["seeks"]) +
                  "".join(" %16.1f%%" % pct(cs[k], cs["seeks"]) for k, _ in CAUSES))
    print("\n" + "; ".join("%s: %s" % (k, v) for k, v in CAUSES))
    for config in order:
        cs = causes.get((config, "extract"))
        if cs and cs["seeks"]:
            print("%s, extract + sync: %.1f %% of the seeks are data -> data across zones, "
                  "%.1f %% data -> journal" % (label(config), pct(cs["data>data across"], cs["seeks"]),
                                               pct(cs["data>journal"], cs["seeks"])))


main()
