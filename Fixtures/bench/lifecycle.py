#!/usr/bin/env python3
"""Batch and cache rows of `make bench` (the many-users and token-lifecycle
numbers), on the fixture server run.sh started:

    lifecycle.py --authcode BIN --base http://127.0.0.1:PORT [--server-pid PID]
                 [--records N] [--big-records N] [--curl-runs N]

Rows:
- batch: `authcode --users` with N records (default 1,000) and
  `--parallel 16` on the login + consent walk, per-token wall time against
  a sequential loop of curl-walk.sh (the script people write today), with
  tokens/s at several --parallel values and the fixture's own CPU use, which
  shows where the server (one Python process) is the limit;
- batch memory: peak RSS for N and 10×N records;
- cache: a hit against `authcode --version` (medians of alternating runs),
  and 16 runs started together with an empty cache: how many codes the
  fixture redeemed (the goal is exactly one).

Markdown goes to stdout, progress to stderr. Exit 0 when everything ran
(whatever the numbers), 1 when something could not run. Standard library
only.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
CURL_WALK = os.path.join(HERE, "curl-walk.sh")
REDIRECT_URI = "http://127.0.0.1:8765/callback"
CLIENT_ID, CLIENT_SECRET = "demo-app", "demo-secret"
_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class BenchError(Exception):
    pass


def log(message):
    print(f"lifecycle: {message}", file=sys.stderr, flush=True)


def environment():
    return {k: v for k, v in os.environ.items()
            if not k.startswith("AUTHCODE_") and k.lower() not in ("http_proxy", "https_proxy", "all_proxy", "no_proxy")}


ENV = environment()


def timed(argv, env=None):
    """(wall seconds, stdout, stderr, exit code) of one child."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=env or ENV)
    out, err = process.communicate()
    return time.perf_counter() - started, out, err, process.returncode


def peak_rss_kib(argv):
    """Runs argv under wait4 to read its own ru_maxrss (KiB on Linux)."""
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=ENV)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    err = process.stderr.read()
    if process.returncode != 0:
        raise BenchError(f"{argv[0]} failed (exit {process.returncode}): {err[-400:]!r}")
    return usage.ru_maxrss


def server_cpu_seconds(pid):
    """User + system CPU of the fixture process so far, from /proc."""
    if not pid:
        return None
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


class Lifecycle:
    def __init__(self, args):
        self.args = args
        self.base = args.base.rstrip("/")
        self.tmp = tempfile.mkdtemp(prefix="authcode-lifecycle-")
        self.counter = 0
        self.secret = self.write("secret", CLIENT_SECRET + "\n")

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as handle:
            handle.write(text)
        return path

    def run_id(self, kind):
        self.counter += 1
        return f"lifecycle-{kind}-{self.counter}"

    def issuer(self, run_id, scenario):
        return f"{self.base}/t/{run_id}/{scenario}"

    def stats(self, run_id):
        with _NO_PROXY.open(f"{self.base}/_stats/{run_id}", timeout=10) as response:
            return json.load(response)

    def users_file(self, count):
        path = os.path.join(self.tmp, f"users-{count}.csv")
        if not os.path.exists(path):
            with open(path, "w") as handle:
                handle.write("username,password\n")
                for n in range(1, count + 1):
                    handle.write(f"user{n},pw-{n}\n")
        return path

    def batch_argv(self, records, parallel, scenario="login-consent"):
        issuer = self.issuer(self.run_id("batch"), scenario)
        return [self.args.authcode, "--authorize-url", issuer + "/authorize", "--token-url", issuer + "/token",
                "--client-id", CLIENT_ID, "--client-secret", "@" + self.secret, "--redirect-uri", REDIRECT_URI,
                "--scope", "profile", "--users", self.users_file(records), "--parallel", str(parallel)]

    # -- rows --

    def curl_loop(self):
        """Mean seconds per token of curl-walk.sh run one after another."""
        times = []
        for n in range(1, self.args.curl_runs + 1):
            password = self.write(f"pw-{n}", f"pw-{n}\n")
            env = dict(ENV, USERNAME=f"user{n}")
            seconds, out, err, code = timed([CURL_WALK, self.issuer(self.run_id("curl"), "login-consent"), password], env=env)
            if code != 0 or b"access_token" not in out:
                raise BenchError(f"curl-walk.sh failed (exit {code}): {err[-400:]!r}")
            times.append(seconds)
        return statistics.mean(times)

    def batch(self, records, parallel):
        """(seconds, tokens) of one batch, and the fixture's CPU seconds."""
        before = server_cpu_seconds(self.args.server_pid)
        seconds, out, err, code = timed(self.batch_argv(records, parallel))
        after = server_cpu_seconds(self.args.server_pid)
        tokens = out.count(b'"token":')
        if code != 0 or tokens != records:
            raise BenchError(f"batch of {records} failed (exit {code}, {tokens} tokens): {err[-400:]!r}")
        cpu = after - before if before is not None and after is not None else None
        return seconds, cpu

    def cache_hit_vs_version(self, rounds=30):
        run_id = self.run_id("cache")
        issuer = self.issuer(run_id, "direct")
        cache_dir = os.path.join(self.tmp, "cache-hit")
        flow = [self.args.authcode, "--authorize-url", issuer + "/authorize", "--token-url", issuer + "/token",
                "--client-id", "public-app", "--redirect-uri", REDIRECT_URI, "--cache", "--cache-dir", cache_dir]
        _, out, err, code = timed(flow)
        if code != 0:
            raise BenchError(f"first cached flow failed: {err[-400:]!r}")
        before = self.stats(run_id)["requests"]
        hits, versions = [], []
        for _ in range(3):
            timed(flow), timed([self.args.authcode, "--version"])
        for _ in range(rounds):
            hits.append(timed(flow)[0])
            versions.append(timed([self.args.authcode, "--version"])[0])
        if self.stats(run_id)["requests"] != before:
            raise BenchError("a cache hit made a request")
        return statistics.median(hits), statistics.median(versions)

    def stampede(self, runs=16):
        run_id = self.run_id("stampede")
        issuer = self.issuer(run_id, "direct")
        cache_dir = os.path.join(self.tmp, "cache-stampede")
        flow = [self.args.authcode, "--authorize-url", issuer + "/authorize", "--token-url", issuer + "/token",
                "--client-id", "public-app", "--redirect-uri", REDIRECT_URI, "--cache", "--cache-dir", cache_dir]
        processes = [subprocess.Popen(flow, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV) for _ in range(runs)]
        outputs = [p.communicate() for p in processes]
        if any(p.returncode != 0 for p in processes):
            raise BenchError(f"a stampede run failed: {outputs[0][1][-400:]!r}")
        distinct = len({out for out, _ in outputs})
        return self.stats(run_id)["codes_redeemed"], distinct

    def report(self):
        args = self.args
        lines = ["", "## Many users and token reuse", ""]
        log(f"sequential curl-walk.sh, {args.curl_runs} runs")
        curl = self.curl_loop()
        lines += ["| --parallel | wall time for {} tokens | tokens/s | per token | vs curl-walk.sh loop | fixture CPU/wall |".format(args.records),
                  "|---:|---:|---:|---:|---:|---:|"]
        for parallel in (1, 4, 16, 32):
            log(f"batch of {args.records}, --parallel {parallel}")
            seconds, cpu = self.batch(args.records, parallel)
            per = seconds / args.records
            load = f"{cpu / seconds:.2f}" if cpu is not None else "n/a"
            lines.append(f"| {parallel} | {seconds:.2f} s | {args.records / seconds:.0f} | {per * 1000:.2f} ms | "
                         f"{per / curl:.3f}× | {load} |")
        lines += ["", f"Sequential loop of curl-walk.sh: {curl * 1000:.1f} ms per token (mean of {args.curl_runs}). "
                  "Target: per-token ≤ 0.1× at --parallel 16 (goal 0.05×). A fixture CPU/wall near 1.0 means the "
                  "fixture (one Python process, one core under its lock) is the limit, not authcode.", ""]
        lines += ["| records | peak RSS |", "|---:|---:|"]
        for records in (args.records, args.big_records):
            log(f"peak RSS of a batch of {records}")
            rss = peak_rss_kib(self.batch_argv(records, 16))
            lines.append(f"| {records} | {rss / 1024:.1f} MiB |")
        lines += ["", "Targets: ≤ 64 MiB for 1,000 records; 10,000 records ≤ 1.5× that.", ""]
        log("cache hit vs --version")
        hit, version = self.cache_hit_vs_version()
        log("16 runs together with an empty cache")
        redeemed, distinct = self.stampede()
        lines += ["| cache row | result | target |", "|---|---:|---:|",
                  f"| cache hit (median of 30) | {hit * 1000:.1f} ms = {hit / version:.2f}× `--version` ({version * 1000:.1f} ms) | ≤ 1.5× |",
                  f"| 16 runs started together, empty cache | {redeemed} code(s) redeemed, {distinct} distinct output(s) | exactly 1 |", ""]
        return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--authcode", required=True)
    parser.add_argument("--base", required=True)
    parser.add_argument("--server-pid", type=int)
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--big-records", type=int, default=10000)
    parser.add_argument("--curl-runs", type=int, default=20)
    args = parser.parse_args()
    bench = Lifecycle(args)
    try:
        print(bench.report(), flush=True)
    except (BenchError, OSError) as error:
        print(f"lifecycle: {error}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(bench.tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
