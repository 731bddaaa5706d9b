#!/usr/bin/env python3
"""Reference waits for the fleet simulation from an independent simulator (issue 23).

Replays ElasticFlow raw traces of Microsoft's ITP clusters (microsoft/elasticflow-traces,
data/raw-traces.tar.gz: job_id, submission_time, duration, num_gpu) with the FIFO scheduler and
consolidating placer of the Helios artifact (S-Lab-System-Group/HeliosArtifact, commit bdaae10,
"framework/QSSF Service": the simulator behind Hu et al., SC '21, Fig. 13 and its Philly table).
Not run by the tests or CI: it produced tests/data/traces/itp/helios_fifo_reference.csv, which
tst_fleet compares the fleet simulation with (docs/fleet.md, "Validation against the Helios
simulator").

  convert OUT_DIR TRACE_DIR CLUSTER:NODES...
      Writes OUT_DIR/cluster_log.csv in the artifact's Philly schema (user, vc, jobname, gpu_num,
      state, submit_time, duration), one virtual cluster per CLUSTER:NODES pair (submission times
      from 2017-10-01, inside the artifact's Philly window), and OUT_DIR/vc_dict_homo.pkl with
      the node counts. Then, in the artifact's "framework/QSSF Service" (needs pandas; two local
      changes: the estimator import removed, as FIFO uses none and it needs lightgbm, and the
      final cluster_analysis call skipped, as it reads every policy's logs):
          python3 simulator.py -e Philly_ITP -t OUT_DIR -s fifo -p consolidate
  summarize LOG_DIR CLUSTER:NODES...
      Prints, per virtual cluster, the jobs and the wait (start - submit) mean, median and 95th
      percentile in seconds from the artifact's per-job logs; percentiles by nearest rank
      (index round(q x (n - 1)) of the sorted waits), as core/model/fleet.cpp computes them.
"""
import csv
import datetime
import pickle
import sys


def convert(out_dir, trace_dir, picks):
    base = datetime.datetime(2017, 10, 1)
    rows = []
    vcs = {}
    for name, nodes in picks:
        vc = f"{name}_n{nodes}"
        vcs[vc] = nodes
        with open(f"{trace_dir}/{name}.csv", newline="") as f:
            for r in csv.DictReader(f):
                t = base + datetime.timedelta(seconds=int(r["submission_time"]))
                rows.append({"user": "u", "vc": vc, "jobname": r["job_id"],
                             "gpu_num": int(r["num_gpu"]), "state": "Pass",
                             "submit_time": t.strftime("%Y-%m-%d %H:%M:%S"),
                             "duration": int(r["duration"])})
    rows.sort(key=lambda r: r["submit_time"])
    with open(f"{out_dir}/cluster_log.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    with open(f"{out_dir}/vc_dict_homo.pkl", "wb") as f:
        pickle.dump(vcs, f)


def summarize(log_dir, picks):
    print("cluster,nodes,jobs,wait_mean_s,wait_p50_s,wait_p95_s")
    for name, nodes in picks:
        vc = f"{name}_n{nodes}"
        with open(f"{log_dir}/{vc}/fifo_consolidate_{vc}_log.csv", newline="") as f:
            waits = sorted(float(r["queue"]) for r in csv.DictReader(f))
        n = len(waits)

        def rank(q):
            return waits[min(n - 1, int(q * (n - 1) + 0.5))]

        print(f"{name},{nodes},{n},{sum(waits) / n:.1f},{rank(0.5):.1f},{rank(0.95):.1f}")


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("convert", "summarize"):
        sys.exit(__doc__)
    picks = [(p.split(":")[0], int(p.split(":")[1])) for p in sys.argv[3 + (sys.argv[1] == "convert"):]]
    if sys.argv[1] == "convert":
        convert(sys.argv[2], sys.argv[3], picks)
    else:
        summarize(sys.argv[2], picks)


if __name__ == "__main__":
    main()
